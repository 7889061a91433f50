import { deleteAudience } from './definition.js';
import { deleteAudience as removeAudience } from '../../../src/core/audiences/delete.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(deleteAudience, async (input, { context, principal }) => {
  const deleted = await removeAudience(context, principal.accountId, input.audienceId);
  return {
    output: deleted,
    ...(deleted.refundedCredits > 0
      ? { message: `Free. ${deleted.refundedCredits} credits of the cancelled enrichment were refunded.` }
      : {}),
  };
});
