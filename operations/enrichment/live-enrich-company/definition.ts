import { z } from 'zod';
import { inputLimits } from '../../schemas/common.js';
import { defineOperation } from '../../define.js';
import { liveFetchTerms } from '../../schemas/live-fetch.js';
import { companyRecord } from '../../schemas/records.js';

export const liveEnrichCompany = defineOperation({
  operationId: 'liveEnrichCompany',
  title: 'Live-fetch a company',
  summary: 'Fetch fresh data for one company from the professional network, falling back to stored data.',
  description:
    'Fetches one company live by slug, full company URL or numeric organisation ID. A successful live fetch costs 2 credits. ' +
    'When the live fetch fails, the stored version is returned with the same structure, source "stored" and creditsCharged 0. ' +
    'A company that cannot be found at all is a 404. Tell live from stored data by creditsCharged.',
  category: 'enrichment',
  keywords: [
    'live',
    'fresh',
    'real-time',
    'refresh',
    'fetch',
    'scrape',
    'company',
    'organization',
    'enrich',
    'update',
    'latest',
    'single',
    'one',
    'up to date',
    'current headcount',
    'stale',
    'latest info',
    'recrawl',
    'now',
  ],
  method: 'POST',
  path: '/v1/network-live-fetch/company/single',
  input: z.strictObject({
    type: z
      .enum(['slug', 'liUrl', 'orgId'])
      .describe('slug: company slug; liUrl: full company URL; orgId: numeric organisation ID.'),
    value: z
      .string()
      .max(inputLimits.identifierLength)
      .trim()
      .min(1)
      .describe('The identifier, of the kind given by type.'),
  }),
  output: z.object({
    found: z.boolean(),
    source: z.enum(['live', 'stored']),
    fetchedAt: z.string(),
    company: companyRecord,
  }),
  ...liveFetchTerms('liveEnrichCompany', '2 credits per successful live fetch; 0 when served from stored data.'),
  example: { type: 'slug', value: 'acme-robotics' },
  workflow: { before: ['companySearch'], after: ['peopleSearch'] },
});
