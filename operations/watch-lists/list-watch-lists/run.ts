import { listWatchLists } from './definition.js';
import * as lists from '../../../src/core/watch-lists/watch-lists.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(listWatchLists, async (input, { context, principal }) => ({
  output: await lists.listWatchLists(context.db.pool, context.services.cursors, principal.accountId, input),
}));
