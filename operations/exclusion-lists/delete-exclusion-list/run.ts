import { deleteExclusionList } from './definition.js';
import * as lists from '../../../src/core/exclusion-lists.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(deleteExclusionList, async (input, { context, principal }) => ({
  output: await lists.deleteExclusionList(context.db, principal.accountId, input.exclusionListId),
}));
