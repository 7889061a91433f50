import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { audienceId } from '../../schemas/audiences.js';
import { cursor, queryPageSize } from '../../schemas/common.js';
import { companyRecord } from '../../schemas/records.js';

export const listAudienceCompanies = defineOperation({
  operationId: 'listAudienceCompanies',
  title: "List an audience's companies",
  summary: 'Page through the companies of a built audience without exporting it.',
  description:
    'Returns the companies a build put in the audience, in a stable order, cursor-paged. Free: the build already paid for them.',
  category: 'audience',
  keywords: [
    'audience',
    'companies',
    'view',
    'browse',
    'records',
    'results',
    'contents',
    'show',
    'firms',
    'organizations',
    'accounts',
    'which companies',
    'peek',
    'inside',
    'look at',
  ],
  method: 'GET',
  path: '/v1/audiences/{audienceId}/companies',
  input: z.strictObject({ audienceId, pageSize: queryPageSize, cursor }),
  output: z.object({ data: z.array(companyRecord), nextCursor: z.string().nullable() }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { audienceId: '1', pageSize: 25 },
  workflow: { before: ['getAudienceStatus'], after: ['exportCompanies'] },
});
