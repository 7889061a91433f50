import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { estimatePeriod, watchListCheckCredits, watchListId } from '../../schemas/watch-lists.js';

export const estimateWatchListCost = defineOperation({
  operationId: 'estimateWatchListCost',
  title: 'Estimate the cost of a watch list',
  summary: "What a watch list's checks cost in a day, a week or a month at most, free.",
  description:
    `Every item checked costs ${watchListCheckCredits} credit; the estimate is the items the list holds times the checks its schedule makes in the period (a month taken as 31 days), ` +
    'the most it can charge (failed checks are not charged). A paused list costs nothing. Free.',
  category: 'enrichment',
  keywords: ['watch list', 'estimate', 'cost', 'price', 'how much', 'monthly spend', 'credits per month', 'budget'],
  method: 'GET',
  path: '/v1/watch-lists/{watchListId}/cost-estimate',
  input: z.strictObject({ watchListId, period: estimatePeriod }),
  output: z.object({
    watchListId: z.string(),
    period: z.enum(['day', 'week', 'month']),
    items: z.number().int(),
    paused: z.boolean(),
    checksPerItem: z.number().int(),
    creditsPerCheck: z.number().int(),
    totalCredits: z.number().int(),
  }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { watchListId: '1', period: 'month' },
  workflow: { before: ['addWatchListItems'], after: ['updateWatchList'] },
});
