import { createExclusionList } from './definition.js';
import { createExclusionList as storeExclusionList } from '../../../src/core/exclusion-lists.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(createExclusionList, async (input, { context, principal }) => ({
  output: await storeExclusionList(context.db, principal.accountId, input),
}));
