import { listExclusionLists } from './definition.js';
import * as lists from '../../../src/core/exclusion-lists.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(listExclusionLists, async (input, { context, principal }) => ({
  output: await lists.listExclusionLists(context.db.pool, context.services.cursors, principal.accountId, input),
}));
