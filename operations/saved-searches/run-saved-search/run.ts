import { runSavedSearch } from './definition.js';
import { runView } from '../../../src/core/saved-searches/run-rows.js';
import { startManualRun } from '../../../src/core/saved-searches/runs.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(runSavedSearch, async (input, { context, principal }) => {
  const run = await startManualRun(context, principal.accountId, input.savedSearchId, input.maxNewRecords);
  return {
    output: runView(run),
    status: 202,
    message: `Run ${run.id} queued. 2 credits per new record, at most ${2 * run.max_new_records}, charged when it completes; nothing if nothing is new. Poll getSavedSearchRun about every 10 seconds.`,
  };
});
