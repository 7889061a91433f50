import { estimateEnrichmentCost, getEnrichmentStatus, triggerEnrichment } from '../../../operations/index.js';
import { enrichmentStatus, estimateEnrichment, triggerEnrichment as trigger } from '../../core/audiences/enrichment.js';
import { handle } from '../handler.js';

export const enrichmentHandlers = [
  handle(estimateEnrichmentCost, async ({ audienceId, ...options }, { context, principal }) => ({
    output: await estimateEnrichment(context.db, principal.accountId, audienceId, options),
    message:
      'Free. Show totalCredits and timeEstimate to the user and get explicit confirmation before triggerEnrichment with these exact values.',
  })),
  handle(triggerEnrichment, async ({ audienceId, ...options }, { context, principal }) => {
    const run = await trigger(context, principal.accountId, audienceId, options);
    return {
      output: run,
      creditsCharged: run.estimatedCredits,
      message:
        `${run.estimatedCredits} credits charged upfront. Live fetches that fall back to stored data and contact types that find nothing are refunded as the run goes. ` +
        'Poll getEnrichmentStatus about every 30 seconds.',
    };
  }),
  handle(getEnrichmentStatus, async (input, { context, principal }) => ({
    output: await enrichmentStatus(context.db.pool, principal.accountId, input.audienceId),
  })),
];
