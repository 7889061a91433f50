import { defineOperation, deleteById } from '../../define.js';
import { watchListId } from '../../schemas/watch-lists.js';

export const deleteWatchList = defineOperation({
  operationId: 'deleteWatchList',
  title: 'Delete a watch list',
  summary: 'Delete a watch list with its items and the changes found; its checks stop.',
  description:
    'Deletes the watch list, its items, its checks and the changes they found, and stops its check job. Webhook events already sent stay sent. Free.',
  category: 'enrichment',
  keywords: ['watch list', 'delete', 'remove', 'stop tracking', 'drop watch list', 'discard'],
  ...deleteById('/v1/watch-lists/{watchListId}', watchListId),
  workflow: { before: ['listWatchLists'], after: [] },
});
