import { z } from 'zod';
import { defineOperation, free } from '../define.js';

export const getCreditBalance = defineOperation({
  operationId: 'getCreditBalance',
  title: 'Get credit balance',
  summary: "Read the credit balance and plan of the API key's account.",
  description:
    'Returns the current credit balance and the plan. Check it before large jobs (searches of many pages, audience builds, enrichments). Free.',
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
