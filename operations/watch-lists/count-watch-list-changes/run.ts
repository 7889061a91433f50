import { countWatchListChanges } from './definition.js';
import * as changes from '../../../src/core/watch-lists/changes.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(countWatchListChanges, async (input, { context, principal }) => ({
  output: await changes.countWatchListChanges(context.db.pool, principal.accountId, input),
}));
