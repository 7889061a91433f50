import { deleteWatchList } from './definition.js';
import * as lists from '../../../src/core/watch-lists/watch-lists.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(deleteWatchList, async (input, { context, principal }) => ({
  output: await lists.deleteWatchList(context.db, principal.accountId, input.watchListId),
}));
