import { listSavedSearches } from './definition.js';
import * as saved from '../../../src/core/saved-searches/saved-searches.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(listSavedSearches, async (input, { context, principal }) => {
  const page = await saved.listSavedSearches(context.db.pool, context.services.cursors, principal.accountId, input);
  return { output: { data: page.data.map(saved.viewOf), nextCursor: page.nextCursor } };
});
