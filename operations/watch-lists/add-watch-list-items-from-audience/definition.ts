import { z } from 'zod';
import { defineOperation } from '../../define.js';
import { audienceId } from '../../schemas/audiences.js';
import { checksPerPeriod, watchListCheckCredits, watchListId, watchListItemsLimit } from '../../schemas/watch-lists.js';

export const addWatchListItemsFromAudience = defineOperation({
  operationId: 'addWatchListItemsFromAudience',
  title: "Track an audience's prospects or companies on a watch list",
  summary:
    'Add every prospect (people list) or company (companies list) of a built audience to a watch list, to hear when they change jobs, raise or grow.',
  description:
    "Adds a built audience's prospects to a people list, or its companies to a companies list: every record the network can be asked about " +
    `(others counted in notCheckable; those already tracked in alreadyInList), up to ${watchListItemsLimit} items a list. ` +
    `New items are checked at once. Adding is free; each check costs ${watchListCheckCredits} credit.`,
  category: 'enrichment',
  keywords: [
    'watch list',
    'from audience',
    'audience',
    'track audience',
    'monitor audience',
    'watch these prospects',
    'track my prospects',
    'track these companies',
    'job changes of my audience',
    'champions',
    'add',
  ],
  method: 'POST',
  path: '/v1/watch-lists/{watchListId}/items/from-audience',
  input: z.strictObject({
    watchListId,
    audienceId: audienceId.describe(
      'The built audience whose prospects (people list) or companies (companies list) to track.',
    ),
  }),
  output: z.object({
    watchListId: z.string(),
    audienceId: z.string(),
    records: z.number().int().describe("The audience's prospects or companies, by the list's kind."),
    added: z.number().int(),
    items: z.number().int().describe('Items the list holds now.'),
    alreadyInList: z.number().int().describe('Records the list already tracked.'),
    notCheckable: z.number().int().describe('Records the network has no identifier for: not added.'),
  }),
  credits: {
    unit: 'watchListCheck',
    charged: 'later',
    heldToCreatingKey: true,
    rule: `Adding is free; each item is checked on its list's schedule at ${watchListCheckCredits} credit a check.`,
    worstCase: () => 0,
    // The audience's size is not in the request: a list filled to its limit on the most frequent schedule.
    monthlyWorstCase: () => watchListItemsLimit * checksPerPeriod.day.month * watchListCheckCredits,
    example: `An audience of 200 prospects on a weekly list: at most ${200 * checksPerPeriod.week.month * watchListCheckCredits} credits a month.`,
  },
  rateLimitClass: 'standard',
  readOnly: false,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { watchListId: '1', audienceId: '1' },
  // Its first check of the new items, as a task for a tasks-capable MCP client.
  startsJob: { statusOperationId: 'getWatchList', statusInput: (input) => ({ watchListId: input.watchListId }) },
  workflow: {
    before: ['getAudienceStatus', 'createWatchList'],
    after: ['getWatchList', 'estimateWatchListCost', 'listWatchListChanges'],
  },
});
