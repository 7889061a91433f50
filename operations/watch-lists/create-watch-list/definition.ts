import { z } from 'zod';
import { defineOperation } from '../../define.js';
import { inputLimits } from '../../schemas/common.js';
import {
  checkEvery,
  digestEmail,
  headcountChangeThreshold,
  watchListCheckCredits,
  watchListKind,
  watchListView,
} from '../../schemas/watch-lists.js';

export const createWatchList = defineOperation({
  operationId: 'createWatchList',
  title: 'Create a watch list',
  summary:
    'Track people (job changes, new titles, moves) or companies (funding rounds, headcount, headquarters, renames) on a schedule.',
  description:
    'Creates an empty watch list of people or companies, checked every day, week or month through the live network source. ' +
    `Add items with addWatchListItems; each item checked costs ${watchListCheckCredits} credit (estimateWatchListCost tells a period's cost). ` +
    'The first check of an item records what the network says; later ones record each change (listWatchListChanges) and send webhook events. Free.',
  category: 'enrichment',
  keywords: [
    'watch list',
    'watchlist',
    'track',
    'monitor',
    'signals',
    'job change',
    'job changes',
    'champion tracking',
    'alerts',
    'funding alerts',
    'headcount growth',
    'follow companies',
    'follow people',
    'new watch',
    'create',
    'tracked accounts',
  ],
  method: 'POST',
  path: '/v1/watch-lists',
  input: z.strictObject({
    name: z.string().trim().min(1).max(inputLimits.nameLength).describe('A name for people to recognise it by.'),
    kind: watchListKind,
    checkEvery,
    headcountChangeThreshold: headcountChangeThreshold.optional(),
    digestEmail: digestEmail.optional(),
  }),
  output: watchListView,
  credits: {
    unit: 'watchListCheck',
    charged: 'later',
    heldToCreatingKey: true,
    rule: `Creating is free; each item checked later costs ${watchListCheckCredits} credit.`,
    worstCase: () => 0,
    monthlyWorstCase: () => 0,
    example: `A list of 100 people checked every week: at most 100 × 5 × ${watchListCheckCredits} credits a month.`,
  },
  rateLimitClass: 'standard',
  readOnly: false,
  destructive: false,
  idempotent: false,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { name: 'Champions', kind: 'people', checkEvery: 'week' },
  workflow: { before: [], after: ['addWatchListItems', 'estimateWatchListCost'] },
});
