import { z } from 'zod';
import { inputLimits } from '../../schemas/common.js';
import { defineOperation } from '../../define.js';
import { liveFetchTerms } from '../../schemas/live-fetch.js';
import { profileRecord } from '../../schemas/records.js';

export const liveEnrichPerson = defineOperation({
  operationId: 'liveEnrichPerson',
  title: 'Live-fetch a profile',
  summary: "Fetch fresh data for one person's profile from the professional network, falling back to stored data.",
  description:
    'Fetches one profile live by slug, full profile URL, sales-tool URN or numeric user ID. A successful live fetch costs 2 credits. ' +
    'When the live fetch fails, a stored profile is returned with found true and creditsCharged 0; with no stored record, found is false. ' +
    'Read found and creditsCharged together.',
  category: 'enrichment',
  keywords: [
    'live',
    'fresh',
    'real-time',
    'refresh',
    'fetch',
    'scrape',
    'profile',
    'person',
    'prospect',
    'lead',
    'enrich',
    'latest',
    'single',
    'one',
    'current job',
    'up to date',
    'stale',
    'job change',
    'latest profile',
    'recrawl',
  ],
  method: 'POST',
  path: '/v1/network-live-fetch/profile/single',
  input: z.strictObject({
    identifier: z
      .string()
      .max(inputLimits.identifierLength)
      .trim()
      .min(1)
      .describe('Profile slug, full profile URL, sales-tool URN or numeric user ID.'),
    getDetailedEducation: z.boolean().default(false).describe('Add expanded education (raises latency and size).'),
    getDetailedWorkExperience: z.boolean().default(false).describe('Add full work history (raises latency and size).'),
  }),
  output: z.object({
    found: z.boolean(),
    source: z.enum(['live', 'stored']).nullable(),
    fetchedAt: z.string(),
    profile: profileRecord.nullable(),
  }),
  ...liveFetchTerms(
    'liveEnrichPerson',
    '2 credits per successful live fetch; 0 when served from stored data or not found.',
  ),
  example: { identifier: 'https://network.example.com/in/jane-doe-3f9a2', getDetailedWorkExperience: true },
  workflow: { before: ['peopleSearch'], after: ['revealContactSync'] },
});
