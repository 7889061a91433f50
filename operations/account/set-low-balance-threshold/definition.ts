import { z } from 'zod';
import { defineOperation, free } from '../../define.js';

export const setLowBalanceThreshold = defineOperation({
  operationId: 'setLowBalanceThreshold',
  title: 'Set the low-balance threshold',
  summary:
    "Set the credit balance below which the account's webhook endpoints receive a credits.low event; null turns it off.",
  description:
    'Sets the threshold of the credits.low webhook event: when a charge takes the balance from at or above it to below it, every endpoint subscribed to credits.low receives the event, ' +
    'once per crossing (a top-up above the threshold arms it again). Setting it while the balance is already below sends nothing until the next crossing. ' +
    'null turns it off (the default). getCreditBalance shows it. Free.',
  category: 'account',
  keywords: ['low balance', 'threshold', 'credits low', 'minimum balance', 'warning level', 'running out', 'top up'],
  method: 'PUT',
  path: '/v1/credits/low-balance-threshold',
  input: z.strictObject({
    lowBalanceThreshold: z
      .number()
      .int()
      .min(1)
      .max(1_000_000_000_000)
      .nullable()
      .describe('Credits; null turns the credits.low event off.'),
  }),
  output: z.object({
    lowBalanceThreshold: z.number().int().nullable(),
    balance: z.number().int().nonnegative(),
    belowThreshold: z.boolean().describe('Whether the balance is below the threshold now.'),
  }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: false,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { lowBalanceThreshold: 1000 },
  workflow: { before: ['getCreditBalance'], after: ['createWebhookEndpoint'] },
});
