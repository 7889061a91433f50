import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { watchListId, watchListView } from '../../schemas/watch-lists.js';

export const getWatchList = defineOperation({
  operationId: 'getWatchList',
  title: 'Get a watch list',
  summary: 'Read one watch list: its kind, schedule, paused or not, items, next and last check, changes found.',
  description:
    'Returns the watch list with its schedule (checkEvery), headcount threshold, whether it is paused and why, how many items it tracks, when the next item is due and when the last check ran (on the network clock), and how many changes were found. Free.',
  category: 'enrichment',
  keywords: [
    'watch list',
    'get',
    'read',
    'details',
    'status',
    'next check',
    'paused',
    'one watch list',
    'inspect watch',
  ],
  method: 'GET',
  path: '/v1/watch-lists/{watchListId}',
  input: z.strictObject({ watchListId }),
  output: watchListView,
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { watchListId: '1' },
  workflow: { before: ['listWatchLists'], after: ['listWatchListItems', 'listWatchListChanges', 'updateWatchList'] },
});
