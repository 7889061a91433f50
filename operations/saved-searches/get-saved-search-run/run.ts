import { getSavedSearchRun } from './definition.js';
import { requireRun, runView } from '../../../src/core/saved-searches/run-rows.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(getSavedSearchRun, async (input, { context, principal }) => ({
  output: runView(await requireRun(context.db.pool, principal.accountId, input.savedSearchId, input.runId)),
}));
