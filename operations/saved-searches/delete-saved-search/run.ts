import { deleteSavedSearch } from './definition.js';
import * as saved from '../../../src/core/saved-searches/saved-searches.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(deleteSavedSearch, async (input, { context, principal }) => ({
  output: await saved.deleteSavedSearch(context.db, principal.accountId, input.savedSearchId),
}));
