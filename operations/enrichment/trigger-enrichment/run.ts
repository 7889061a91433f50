import { triggerEnrichment } from './definition.js';
import { triggerEnrichment as trigger } from '../../../src/core/audiences/enrichment.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(triggerEnrichment, async ({ audienceId, ...options }, { context, principal }) => {
  const run = await trigger(context, principal.accountId, audienceId, options);
  return {
    output: run,
    creditsCharged: run.estimatedCredits,
    message:
      `${run.estimatedCredits} credits charged upfront. Live fetches that fall back to stored data and contact types that find nothing are refunded as the run goes. ` +
      'Poll getEnrichmentStatus about every 30 seconds.',
  };
});
