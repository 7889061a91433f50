import { removeExclusionListEntries } from './definition.js';
import * as lists from '../../../src/core/exclusion-lists.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(
  removeExclusionListEntries,
  async ({ exclusionListId, ...entries }, { context, principal }) => ({
    output: await lists.removeExclusionListEntries(context.db, principal.accountId, exclusionListId, entries),
  }),
);
