import { updateWatchList } from './definition.js';
import * as lists from '../../../src/core/watch-lists/watch-lists.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(updateWatchList, async ({ watchListId, ...changes }, { context, principal }) => ({
  output: await lists.updateWatchList(context.db, principal.accountId, watchListId, changes, principal.key ?? null, {
    anyRecipient: context.config.MAIL_ANY_RECIPIENT,
    clock: context.services.networkClock,
  }),
}));
