import { defineOperation, deleteById } from '../../define.js';
import { exclusionListId } from '../../schemas/exclusion-lists.js';

export const deleteExclusionList = defineOperation({
  operationId: 'deleteExclusionList',
  title: 'Delete an exclusion list',
  summary: 'Delete an exclusion list and all its entries.',
  description:
    'Deletes the list and its entries. Searches and counts that still name it are refused with 404; audiences and saved searches that named it fail their next build or run with a clear reason. Free.',
  category: 'account',
  keywords: [
    'exclusion',
    'delete',
    'remove',
    'drop',
    'discard',
    'list',
    'suppression',
    'erase',
    'whole list',
    'get rid of',
    'trash',
    'entire list',
    'blocklist',
  ],
  ...deleteById('/v1/exclusion-lists/{exclusionListId}', exclusionListId),
  workflow: { before: ['listExclusionLists'], after: [] },
});
