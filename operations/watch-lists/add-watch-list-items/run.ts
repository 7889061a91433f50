import { addWatchListItems } from './definition.js';
import * as lists from '../../../src/core/watch-lists/watch-lists.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(addWatchListItems, async (input, { context, principal }) => ({
  output: await lists.addWatchListItems(
    context.db,
    context.services.networkClock,
    principal.accountId,
    input.watchListId,
    input.items,
    principal.key ?? null,
  ),
}));
