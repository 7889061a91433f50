import {
  addExclusionListEntries,
  createExclusionListFromAudience,
  deleteExclusionList,
  listExclusionListEntries,
  listExclusionLists,
  removeExclusionListEntries,
} from '../../../operations/index.js';
import * as lists from '../../core/exclusion-lists.js';
import { handle } from '../handler.js';

export const exclusionListHandlers = [
  handle(listExclusionLists, async (input, { context, principal }) => ({
    output: await lists.listExclusionLists(context.db.pool, context.services.cursors, principal.accountId, input),
  })),
  handle(listExclusionListEntries, async (input, { context, principal }) => ({
    output: await lists.listExclusionListEntries(context.db.pool, context.services.cursors, principal.accountId, input),
  })),
  handle(addExclusionListEntries, async ({ exclusionListId, ...entries }, { context, principal }) => ({
    output: await lists.addExclusionListEntries(context.db, principal.accountId, exclusionListId, entries),
  })),
  handle(removeExclusionListEntries, async ({ exclusionListId, ...entries }, { context, principal }) => ({
    output: await lists.removeExclusionListEntries(context.db, principal.accountId, exclusionListId, entries),
  })),
  handle(deleteExclusionList, async (input, { context, principal }) => ({
    output: await lists.deleteExclusionList(context.db, principal.accountId, input.exclusionListId),
  })),
  handle(createExclusionListFromAudience, async (input, { context, principal }) => ({
    output: await lists.createExclusionListFromAudience(context.db, principal.accountId, input),
  })),
];
