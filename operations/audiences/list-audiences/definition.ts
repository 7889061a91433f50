import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { audienceSummary } from '../../schemas/audiences.js';
import { cursor } from '../../schemas/common.js';

export const listAudiences = defineOperation({
  operationId: 'listAudiences',
  title: 'List audiences',
  summary: "List the account's audiences, newest first.",
  description: 'Pages through the audiences of the account, newest first, with their status and counts. Free.',
  category: 'audience',
  keywords: [
    'audiences',
    'list',
    'my',
    'saved',
    'all',
    'browse',
    'show',
    'existing',
    'lists',
    'have',
    'own',
    'mine',
    'overview',
    'segments',
    'cohorts',
    'what have i built',
    'my audiences',
    'saved lists',
  ],
  method: 'GET',
  path: '/v1/audiences',
  input: z.strictObject({
    pageSize: z.coerce
      .number()
      .int()
      .min(1)
      .max(100)
      .default(25)
      .describe('Audiences per page: default 25, at most 100.'),
    cursor,
  }),
  output: z.object({ data: z.array(audienceSummary), nextCursor: z.string().nullable() }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { pageSize: 25 },
  workflow: { before: [], after: ['getAudienceStatus'] },
});
