import { listWatchListItems } from './definition.js';
import * as lists from '../../../src/core/watch-lists/watch-lists.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(listWatchListItems, async (input, { context, principal }) => ({
  output: await lists.listWatchListItems(context.db.pool, context.services.cursors, principal.accountId, input),
}));
