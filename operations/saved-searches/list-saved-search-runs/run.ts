import { listSavedSearchRuns } from './definition.js';
import { listRuns, runView } from '../../../src/core/saved-searches/run-rows.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(listSavedSearchRuns, async (input, { context, principal }) => {
  const page = await listRuns(context.db.pool, context.services.cursors, principal.accountId, input);
  return { output: { data: page.data.map(runView), nextCursor: page.nextCursor } };
});
