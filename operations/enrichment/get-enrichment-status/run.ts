import { getEnrichmentStatus } from './definition.js';
import { enrichmentStatus } from '../../../src/core/audiences/enrichment.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(getEnrichmentStatus, async (input, { context, principal }) => ({
  output: await enrichmentStatus(context.db.pool, principal.accountId, input.audienceId),
}));
