import { listWatchListChanges } from './definition.js';
import * as changes from '../../../src/core/watch-lists/changes.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(listWatchListChanges, async (input, { context, principal }) => ({
  output: await changes.listWatchListChanges(context.db.pool, context.services.cursors, principal.accountId, input),
}));
