import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { watchListId, watchListView } from '../../schemas/watch-lists.js';

export const getWatchList = defineOperation({
  operationId: 'getWatchList',
  title: 'Get a watch list',
  summary: 'Read one watch list: its kind, schedule, paused or not, items, next and last check, changes found.',
  description:
    'Returns the watch list with its schedule (checkEvery), headcount threshold, whether it is paused and why, how many items it tracks and how many await their first check, when the next item is due and when the last check ran (on the network clock), and how many changes were found. Free.',
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
  pollIntervalSeconds: 5,
  // What an MCP task of addWatchListItems follows: the first check of every item.
  jobState: (output) =>
    output.awaitingFirstCheck === 0
      ? {
          state: 'done',
          message: `Every item was checked once (${output.items}); ${output.changes} changes so far.`,
        }
      : output.paused
        ? {
            state: 'failed',
            message: `The list is paused${output.pausedReason ? ` (${output.pausedReason})` : ''}: resume it with updateWatchList.`,
          }
        : {
            state: 'running',
            message: `${output.items - output.awaitingFirstCheck} of ${output.items} items checked once.`,
          },
  example: { watchListId: '1' },
  workflow: { before: ['listWatchLists'], after: ['listWatchListItems', 'listWatchListChanges', 'updateWatchList'] },
});
