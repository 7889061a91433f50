import { getWatchList } from './definition.js';
import * as lists from '../../../src/core/watch-lists/watch-lists.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(getWatchList, async (input, { context, principal }) => ({
  output: await lists.viewOf(
    context.db.pool,
    await lists.requireWatchList(context.db.pool, principal.accountId, input.watchListId),
  ),
}));
