import { addExclusionListEntries } from './definition.js';
import * as lists from '../../../src/core/exclusion-lists.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(addExclusionListEntries, async ({ exclusionListId, ...entries }, { context, principal }) => ({
  output: await lists.addExclusionListEntries(context.db, principal.accountId, exclusionListId, entries),
}));
