import { z } from 'zod';
import { defineOperation, free } from '../../define.js';

export const getCreditBalance = defineOperation({
  operationId: 'getCreditBalance',
  title: 'Get credit balance',
  summary: "Read the credit balance and plan of the API key's account.",
  description:
    'Returns the current credit balance and the plan. Check it before large jobs (searches of many pages, audience builds, enrichments). ' +
    'Called with an API key, it also tells what that key may do: read-only, and its daily credit cap with what it spent today and when the cap resets. Free.',
  category: 'account',
  keywords: [
    'credits',
    'credit',
    'balance',
    'remaining',
    'left',
    'quota',
    'plan',
    'billing',
    'usage',
    'account',
    'wallet',
    'budget',
    'how many',
    'org',
    'money left',
    'remaining credits',
    'allowance',
    'subscription',
    'out of credits',
    'spent',
  ],
  method: 'GET',
  path: '/v1/credits',
  aliasPaths: ['/v1/get-org-credits'],
  input: z.strictObject({}),
  output: z.object({
    balance: z.number().int().nonnegative().describe('Credits available now.'),
    plan: z.string().describe('free, pro, enterprise or demo.'),
    monthlyFreeCredits: z
      .number()
      .int()
      .nonnegative()
      .describe('Credits granted each calendar month on the free plan (0 on paid plans).'),
    accountName: z.string(),
    key: z
      .object({
        name: z.string().nullable().describe('The name given to the key in the dashboard.'),
        readOnly: z.boolean().describe('true: the key runs only operations that are free and change nothing.'),
        dailyCreditCap: z
          .number()
          .int()
          .positive()
          .nullable()
          .describe('Most credits the key may spend per UTC day; null: no cap.'),
        spentToday: z.number().int().nonnegative().describe('Credits the key spent today (UTC).'),
        remainingToday: z.number().int().nonnegative().nullable().describe('What the cap leaves today; null: no cap.'),
        capResetsAt: z.string().describe('When the day ends for the cap: the next midnight UTC.'),
      })
      .optional()
      .describe('The API key of this request and its restrictions; absent when the caller signed in with OAuth.'),
    lowBalanceThreshold: z
      .number()
      .int()
      .nullable()
      .describe(
        'Below this balance, webhook endpoints subscribed to credits.low are told (setLowBalanceThreshold); null: off.',
      ),
  }),
  credits: free(),
  rateLimitClass: 'status',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: {},
  workflow: { before: [], after: ['companySearch', 'peopleSearch', 'estimateEnrichmentCost'] },
});
