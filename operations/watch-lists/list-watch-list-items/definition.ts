import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { cursor, queryPageSize } from '../../schemas/common.js';
import { watchListId, watchListItemView } from '../../schemas/watch-lists.js';

export const listWatchListItems = defineOperation({
  operationId: 'listWatchListItems',
  title: 'List the items of a watch list',
  summary:
    'Page through the people or companies a watch list tracks, with what the last check saw and when the next is due.',
  description:
    'Lists the items in the order they were added: as given, the catalog id, the network URL, the last and next check (on the network clock), failed checks in a row, and what the last successful check saw (current). Free.',
  category: 'enrichment',
  keywords: ['watch list', 'items', 'tracked people', 'tracked companies', 'members', 'entries', 'who am I watching'],
  method: 'GET',
  path: '/v1/watch-lists/{watchListId}/items',
  input: z.strictObject({ watchListId, pageSize: queryPageSize, cursor }),
  output: z.object({ data: z.array(watchListItemView), nextCursor: z.string().nullable() }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { watchListId: '1', pageSize: 25 },
  workflow: { before: ['getWatchList'], after: ['removeWatchListItems', 'listWatchListChanges'] },
});
