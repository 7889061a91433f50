import { updateSavedSearch } from './definition.js';
import * as saved from '../../../src/core/saved-searches/saved-searches.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(updateSavedSearch, async ({ savedSearchId, ...changes }, { context, principal }) => ({
  output: saved.viewOf(await saved.updateSavedSearch(context, principal.accountId, savedSearchId, changes)),
}));
