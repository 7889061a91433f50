import {
  addExclusionListEntries, createExclusionListFromAudience, deleteExclusionList, listExclusionListEntries, listExclusionLists, removeExclusionListEntries,
} from '../../../operations/index.js';
import * as lists from '../../core/exclusion-lists.js';
import { handle } from '../handler.js';

export const exclusionListHandlers = [
  handle(listExclusionLists, async (input, { app, principal }) => ({ output: await lists.listExclusionLists(app.db.pool, app.services.cursors, principal.accountId, input) })),
  handle(listExclusionListEntries, async (input, { app, principal }) => ({
    output: await lists.listExclusionListEntries(app.db.pool, app.services.cursors, principal.accountId, input),
  })),
  handle(addExclusionListEntries, async ({ exclusionListId, ...entries }, { app, principal }) => ({
    output: await lists.addExclusionListEntries(app.db, principal.accountId, exclusionListId, entries),
  })),
  handle(removeExclusionListEntries, async ({ exclusionListId, ...entries }, { app, principal }) => ({
    output: await lists.removeExclusionListEntries(app.db, principal.accountId, exclusionListId, entries),
  })),
  handle(deleteExclusionList, async (input, { app, principal }) => ({
    output: await lists.deleteExclusionList(app.db, principal.accountId, input.exclusionListId),
  })),
  handle(createExclusionListFromAudience, async (input, { app, principal }) => ({
    output: await lists.createExclusionListFromAudience(app.db, principal.accountId, input),
  })),
];
