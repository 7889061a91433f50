import { removeWatchListItems } from './definition.js';
import * as lists from '../../../src/core/watch-lists/watch-lists.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(removeWatchListItems, async ({ watchListId, ...which }, { context, principal }) => ({
  output: await lists.removeWatchListItems(context.db, principal.accountId, watchListId, which),
}));
