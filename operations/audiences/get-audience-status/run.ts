import { getAudienceStatus } from './definition.js';
import * as audiences from '../../../src/core/audiences/audiences.js';
import { estimateBuild } from '../../../src/core/audiences/build.js';
import { requireAudience } from '../../../src/core/audiences/record.js';
import { handle } from '../../../src/runner/handler.js';

/** How long the free count behind buildExpectedCredits may take before the answer goes without it. */
export const buildEstimateBudgetMs = 2_000;

export const run = handle(getAudienceStatus, async (input, { context, principal }) => {
  const row = await requireAudience(context.db.pool, principal.accountId, input.audienceId);
  const estimate = await estimateBuild(context.db, principal.accountId, row, buildEstimateBudgetMs);
  return { output: { ...audiences.audienceStatusView(row), buildExpectedCredits: estimate?.credits ?? null } };
});
