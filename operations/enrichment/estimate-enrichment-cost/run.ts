import { estimateEnrichmentCost } from './definition.js';
import { estimateEnrichment } from '../../../src/core/audiences/enrichment.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(estimateEnrichmentCost, async ({ audienceId, ...options }, { context, principal }) => ({
  output: await estimateEnrichment(context.db, principal.accountId, audienceId, options),
  message:
    'Free. Show totalCredits and timeEstimate to the user and get explicit confirmation before triggerEnrichment with these exact values.',
}));
