import { z } from 'zod';
import { defineOperation, free } from '../define.js';

export const listIndustries = defineOperation({
  operationId: 'listIndustries',
  title: 'List industries',
  summary: 'List the industry taxonomy (slugs and names) accepted by the industriesV2 filter.',
  description: 'Reference data: each industry has a slug (use it in industriesV2), a name and a group. Free.',
  category: 'account',
  keywords: [
    'industries', 'industry', 'sector', 'sectors', 'vertical', 'verticals', 'taxonomy', 'categories', 'enum', 'reference',
    'slugs', 'industry names', 'sector list', 'line of business', 'allowed industries', 'industry slugs',
  ],
  method: 'GET',
  path: '/v1/enums/industries',
  aliasPaths: ['/v1/industries'],
  input: z.strictObject({}),
  output: z.object({ industries: z.array(z.object({ slug: z.string(), name: z.string(), group: z.string() })) }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: {},
  workflow: { before: [], after: ['companySearch'] },
});
