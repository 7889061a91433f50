import { createWatchList } from './definition.js';
import * as lists from '../../../src/core/watch-lists/watch-lists.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(createWatchList, async (input, { context, principal }) => ({
  output: await lists.createWatchList(context.db.pool, principal.accountId, input, principal.key?.id ?? null, {
    anyRecipient: context.config.MAIL_ANY_RECIPIENT,
    clock: context.services.networkClock,
  }),
}));
