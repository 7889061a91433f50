import {
  createSavedSearch,
  deleteSavedSearch,
  getSavedSearch,
  getSavedSearchRun,
  listSavedSearchRunRecords,
  listSavedSearchRuns,
  listSavedSearches,
  runSavedSearch,
  updateSavedSearch,
} from '../../../operations/index.js';
import { listRunRecords, listRuns, requireRun, runView } from '../../core/saved-searches/run-rows.js';
import { startManualRun } from '../../core/saved-searches/runs.js';
import * as saved from '../../core/saved-searches/saved-searches.js';
import { handle } from '../handler.js';

export const savedSearchHandlers = [
  handle(createSavedSearch, async (input, { context, principal }) => {
    const row = await saved.createSavedSearch(context, principal.accountId, input);
    return {
      output: saved.viewOf(row),
      message:
        row.schedule === 'manual'
          ? 'Free. Run it with runSavedSearch; each run costs 2 credits per new record, charged when it completes.'
          : `Free now. It runs ${row.schedule} from ${row.next_run_at?.toISOString()}; each run costs 2 credits per new record (at most ${2 * row.max_new_records_per_run}).`,
    };
  }),
  handle(listSavedSearches, async (input, { context, principal }) => {
    const page = await saved.listSavedSearches(context.db.pool, context.services.cursors, principal.accountId, input);
    return { output: { data: page.data.map(saved.viewOf), nextCursor: page.nextCursor } };
  }),
  handle(getSavedSearch, async (input, { context, principal }) => {
    const row = await saved.requireSavedSearch(context.db.pool, principal.accountId, input.savedSearchId);
    const latest = await listRuns(context.db.pool, context.services.cursors, principal.accountId, {
      savedSearchId: input.savedSearchId,
      pageSize: 1,
    });
    return { output: { ...saved.viewOf(row), latestRun: latest.data[0] ? runView(latest.data[0]) : null } };
  }),
  handle(updateSavedSearch, async ({ savedSearchId, ...changes }, { context, principal }) => ({
    output: saved.viewOf(await saved.updateSavedSearch(context, principal.accountId, savedSearchId, changes)),
  })),
  handle(deleteSavedSearch, async (input, { context, principal }) => ({
    output: await saved.deleteSavedSearch(context.db, principal.accountId, input.savedSearchId),
  })),
  handle(runSavedSearch, async (input, { context, principal }) => {
    const run = await startManualRun(context, principal.accountId, input.savedSearchId, input.maxNewRecords);
    return {
      output: runView(run),
      status: 202,
      message: `Run ${run.id} queued. 2 credits per new record, at most ${2 * run.max_new_records}, charged when it completes; nothing if nothing is new. Poll getSavedSearchRun about every 10 seconds.`,
    };
  }),
  handle(getSavedSearchRun, async (input, { context, principal }) => ({
    output: runView(await requireRun(context.db.pool, principal.accountId, input.savedSearchId, input.runId)),
  })),
  handle(listSavedSearchRuns, async (input, { context, principal }) => {
    const page = await listRuns(context.db.pool, context.services.cursors, principal.accountId, input);
    return { output: { data: page.data.map(runView), nextCursor: page.nextCursor } };
  }),
  handle(listSavedSearchRunRecords, async (input, { context, principal }) => ({
    output: await listRunRecords(context.db.pool, context.services.cursors, principal.accountId, input),
  })),
];
