import { z } from 'zod';
import { defineOperation } from '../../define.js';
import { inputLimits } from '../../schemas/common.js';
import {
  checkEvery,
  digestEmail,
  headcountChangeThreshold,
  watchListCheckCredits,
  watchListId,
  watchListView,
} from '../../schemas/watch-lists.js';

export const updateWatchList = defineOperation({
  operationId: 'updateWatchList',
  title: 'Change, pause or resume a watch list',
  summary:
    'Rename a watch list, change how often it is checked or its headcount threshold, or pause and resume its checks.',
  description:
    'Changes only the fields given. paused true stops the checks (nothing is charged while paused); paused false resumes them, items overdue first, and clears a pause the list took by itself when the balance could not pay. ' +
    `A new checkEvery applies from each item's next check. Free; each item checked costs ${watchListCheckCredits} credit.`,
  category: 'enrichment',
  keywords: [
    'watch list',
    'pause',
    'resume',
    'unpause',
    'stop checking',
    'restart checks',
    'change schedule',
    'rename',
    'frequency',
    'threshold',
    'update watch',
  ],
  method: 'PATCH',
  path: '/v1/watch-lists/{watchListId}',
  input: z.strictObject({
    watchListId,
    name: z.string().trim().min(1).max(inputLimits.nameLength).optional().describe('New display name.'),
    checkEvery: checkEvery.optional(),
    headcountChangeThreshold: headcountChangeThreshold.nullable().optional(),
    digestEmail: digestEmail.nullable().optional().describe('Where the daily digest goes; null stops it.'),
    paused: z.boolean().optional().describe('true: stop the checks; false: resume them.'),
  }),
  output: watchListView,
  credits: {
    unit: 'watchListCheck',
    charged: 'later',
    heldToCreatingKey: true,
    rule: `Changing is free; each item checked later costs ${watchListCheckCredits} credit.`,
    worstCase: () => 0,
    example: 'Resuming a list of 1,000 items checked daily: up to 1,000 credits a day.',
  },
  rateLimitClass: 'standard',
  readOnly: false,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { watchListId: '1', paused: true },
  workflow: { before: ['getWatchList'], after: ['getWatchList'] },
});
