import { z } from 'zod';
import { defineOperation } from '../../define.js';
import {
  checksPerPeriod,
  watchListCheckCredits,
  watchListId,
  watchListItemInput,
  watchListItemsLimit,
  watchListItemsPerCall,
} from '../../schemas/watch-lists.js';

export const addWatchListItems = defineOperation({
  operationId: 'addWatchListItems',
  title: 'Add people or companies to a watch list',
  summary:
    'Track more people (profile URL, slug or id) or companies (domain, slug or id) on a watch list; unresolved items are reported, never fatal.',
  description:
    `Adds up to ${watchListItemsPerCall} items a call (${watchListItemsLimit} a list): people as {profileUrl}, {slug}, {id} or a bare string; ` +
    'companies as {domain}, {slug}, {id} or a bare string. Items matching nothing are reported in unresolved, those already there in duplicates; neither fails the call. ' +
    `New items are checked at once (the first check records what the network says). Adding is free; each check costs ${watchListCheckCredits} credit.`,
  category: 'enrichment',
  keywords: [
    'watch list',
    'add',
    'track',
    'follow',
    'monitor these',
    'add people',
    'add companies',
    'add profiles',
    'add domains',
    'champions',
    'import',
    'upload',
  ],
  method: 'POST',
  path: '/v1/watch-lists/{watchListId}/items',
  input: z.strictObject({
    watchListId,
    items: z.array(watchListItemInput).min(1).max(watchListItemsPerCall).describe('The people or companies to track.'),
  }),
  output: z.object({
    watchListId: z.string(),
    added: z.number().int(),
    items: z.number().int().describe('Items the list holds now.'),
    duplicates: z.array(z.number().int()).describe('Positions (0-based) of given items already in the list.'),
    unresolved: z
      .array(z.object({ index: z.number().int(), input: z.string(), reason: z.string() }))
      .describe('Given items that matched nothing checkable, with why; not added.'),
  }),
  credits: {
    unit: 'watchListCheck',
    charged: 'later',
    heldToCreatingKey: true,
    rule: `Adding is free; each item is checked on its list's schedule at ${watchListCheckCredits} credit a check.`,
    worstCase: () => 0,
    // The list's schedule is not in the request: the most frequent one.
    monthlyWorstCase: (input) => input.items.length * checksPerPeriod.day.month * watchListCheckCredits,
    example: `100 people on a daily list: at most ${100 * checksPerPeriod.day.month * watchListCheckCredits} credits a month.`,
  },
  rateLimitClass: 'standard',
  readOnly: false,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: {
    watchListId: '1',
    items: [{ profileUrl: 'https://network.example.com/in/jane-doe' }, 'john-smith'],
  },
  // Its first check of the new items, as a task for a tasks-capable MCP client.
  startsJob: { statusOperationId: 'getWatchList', statusInput: (input) => ({ watchListId: input.watchListId }) },
  workflow: { before: ['createWatchList'], after: ['getWatchList', 'estimateWatchListCost', 'listWatchListChanges'] },
});
