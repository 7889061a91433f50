import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { audienceId } from '../../schemas/audiences.js';

export const deleteAudience = defineOperation({
  operationId: 'deleteAudience',
  title: 'Delete an audience',
  summary: 'Delete an audience with its records and exports; a running build or enrichment is cancelled first.',
  description:
    'Deletes the audience in any state. A running build is cancelled (a build charges only when it completes, so nothing is charged); a running enrichment is cancelled ' +
    'and what it had not delivered is refunded by its refund rules (refundedCredits). Its export files are deleted and their download links answer 410. ' +
    'The credit ledger keeps every entry. Cannot be undone. Free.',
  category: 'audience',
  keywords: [
    'audience',
    'delete',
    'remove',
    'discard',
    'drop',
    'cancel',
    'stop',
    'abort',
    'erase',
    'destroy',
    'get rid of',
    'clean up',
    'nuke',
    'trash',
    'throw away',
    'scrap',
    'cancel build',
    'gone',
  ],
  method: 'DELETE',
  path: '/v1/audiences/{audienceId}',
  input: z.strictObject({ audienceId }),
  output: z.object({
    audienceId: z.string(),
    deleted: z.literal(true),
    cancelled: z.object({
      build: z.boolean().describe('A build was running and was stopped.'),
      enrichmentId: z.string().nullable().describe('The enrichment that was running and was stopped.'),
    }),
    refundedCredits: z.number().int().describe('Credits of the cancelled enrichment returned to the balance.'),
    exportsDeleted: z.number().int(),
  }),
  credits: free('Free; cancelling a running enrichment refunds what it had not delivered.'),
  rateLimitClass: 'standard',
  readOnly: false,
  destructive: true,
  idempotent: false,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { audienceId: '1' },
  workflow: { before: ['listAudiences', 'createExclusionListFromAudience'], after: ['listAudiences'] },
});
