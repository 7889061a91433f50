import { startBatchContactEnrichment } from './definition.js';
import { startBatch } from '../../../src/core/contacts/batch.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(startBatchContactEnrichment, async (input, { context, principal }) => {
  const output = await startBatch(context, principal, input);
  return {
    output,
    status: 202,
    message: `Charged per profile and type found as each profile completes, at most ${output.maxCredits} credits. Poll pollBatchContactEnrichment about every 30 seconds.`,
  };
});
