import { listExclusionListEntries } from './definition.js';
import * as lists from '../../../src/core/exclusion-lists.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(listExclusionListEntries, async (input, { context, principal }) => ({
  output: await lists.listExclusionListEntries(context.db.pool, context.services.cursors, principal.accountId, input),
}));
