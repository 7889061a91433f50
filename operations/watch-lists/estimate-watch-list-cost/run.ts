import { estimateWatchListCost } from './definition.js';
import * as lists from '../../../src/core/watch-lists/watch-lists.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(estimateWatchListCost, async (input, { context, principal }) => ({
  output: await lists.estimateWatchListCost(context.db.pool, principal.accountId, input.watchListId, input.period),
}));
