import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { resourceId } from '../../schemas/common.js';
import { watchListId, watchListItemInput, watchListItemsPerCall } from '../../schemas/watch-lists.js';

export const removeWatchListItems = defineOperation({
  operationId: 'removeWatchListItems',
  title: 'Remove items from a watch list',
  summary: 'Stop tracking some people or companies of a watch list, by itemId or as they were added.',
  description:
    `Removes up to ${watchListItemsPerCall} items a call, given by itemId (listWatchListItems) or the way addWatchListItems takes them. ` +
    'They are checked no more; changes already found stay listed. notFound counts what was not in the list. Free.',
  category: 'enrichment',
  keywords: ['watch list', 'remove', 'untrack', 'unfollow', 'stop watching', 'delete items', 'take off'],
  method: 'POST',
  path: '/v1/watch-lists/{watchListId}/items/remove',
  input: z.strictObject({
    watchListId,
    itemIds: z.array(resourceId('itemId')).max(watchListItemsPerCall).optional().describe('Items by itemId.'),
    items: z.array(watchListItemInput).max(watchListItemsPerCall).optional().describe('Items as they were added.'),
  }),
  output: z.object({ watchListId: z.string(), removed: z.number().int(), notFound: z.number().int() }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: false,
  destructive: true,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { watchListId: '1', items: ['john-smith'] },
  workflow: { before: ['listWatchListItems'], after: ['getWatchList'] },
});
