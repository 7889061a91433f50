import { getSavedSearch } from './definition.js';
import { listRuns, runView } from '../../../src/core/saved-searches/run-rows.js';
import * as saved from '../../../src/core/saved-searches/saved-searches.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(getSavedSearch, async (input, { context, principal }) => {
  const row = await saved.requireSavedSearch(context.db.pool, principal.accountId, input.savedSearchId);
  const latest = await listRuns(context.db.pool, context.services.cursors, principal.accountId, {
    savedSearchId: input.savedSearchId,
    pageSize: 1,
  });
  return { output: { ...saved.viewOf(row), latestRun: latest.data[0] ? runView(latest.data[0]) : null } };
});
