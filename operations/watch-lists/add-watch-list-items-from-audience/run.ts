import { addWatchListItemsFromAudience } from './definition.js';
import { addWatchListItemsFromAudience as addFromAudience } from '../../../src/core/watch-lists/from-audience.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(addWatchListItemsFromAudience, async (input, { context, principal }) => ({
  output: await addFromAudience(
    context.db,
    context.services.networkClock,
    principal.accountId,
    input,
    principal.key ?? null,
  ),
}));
