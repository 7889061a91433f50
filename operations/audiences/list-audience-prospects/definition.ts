import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { audienceId } from '../../schemas/audiences.js';
import { cursor, queryPageSize } from '../../schemas/common.js';
import { profileRecord } from '../../schemas/records.js';

export const listAudienceProspects = defineOperation({
  operationId: 'listAudienceProspects',
  title: "List an audience's prospects",
  summary: 'Page through the prospects of a built audience, with revealed contacts after enrichment.',
  description:
    'Returns the prospects a build put in the audience, cursor-paged, each with the emails and phones found by enrichment (empty before). Free.',
  category: 'audience',
  keywords: [
    'audience',
    'prospects',
    'people',
    'leads',
    'view',
    'browse',
    'members',
    'results',
    'contents',
    'show',
    'contacts',
    'who is in',
    'leads in audience',
    'names',
    'with emails',
    'peek',
    'inside',
    'look at',
  ],
  method: 'GET',
  path: '/v1/audiences/{audienceId}/prospects',
  input: z.strictObject({ audienceId, pageSize: queryPageSize, cursor }),
  output: z.object({
    data: z.array(
      profileRecord.extend({
        contacts: z.object({
          workEmails: z.array(z.string()),
          personalEmails: z.array(z.string()),
          phoneNumbers: z.array(z.string()),
        }),
      }),
    ),
    nextCursor: z.string().nullable(),
  }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { audienceId: '1', pageSize: 25 },
  workflow: { before: ['getAudienceStatus', 'getEnrichmentStatus'], after: ['exportProspects'] },
});
