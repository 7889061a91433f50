import { z } from 'zod';
import { defineOperation, free } from '../../define.js';

const isoDay = z.iso
  .date('expected a date as YYYY-MM-DD')
  .max(10)
  .refine((date) => !date.startsWith('0000-'), 'expected a date from 0001-01-01 to 9999-12-31 (there is no year 0000)');

const usageKey = z
  .object({
    keyId: z.string().describe('The id of the API key.'),
    name: z.string().nullable().describe('The name given to the key in the dashboard.'),
    prefix: z.string().nullable().describe('The first characters of the key, to recognise it by (never the key).'),
  })
  .nullable()
  .describe(
    'The API key that made the charges; null: no key (an assistant signed in with OAuth, or a background job).',
  );

const operationId = z
  .string()
  .nullable()
  .describe('The operation, as it is called (peopleSearch); null for movements of no operation.');
const unit = z.string().describe('The metered unit the ledger charged (getPersonFromDb).');

export const getUsage = defineOperation({
  operationId: 'getUsage',
  title: 'Get credit usage',
  summary: 'Credits the account spent over a range of days: per day, per operation and per API key.',
  description:
    'Reads the credit ledger: the credits charged from `from` to `to` (UTC days, both included; by default the last 30 days, today included; at most 366 days), ' +
    'as totals per day (every day of the range, zeros too), per operation (as it is called, with its metered unit beside it) and per API key (its name and prefix, never the key). ' +
    'groupBy (a comma-separated list of day, operation and key) adds rows broken down by those together, e.g. "day,key". ' +
    'Only charges count: grants, purchases and refunds are in the ledger of the dashboard. For single calls see listRequestLog; for the balance, getCreditBalance. Free.',
  category: 'account',
  keywords: [
    'usage',
    'spend',
    'spending',
    'spent',
    'consumption',
    'credits used',
    'credit usage',
    'usage report',
    'by day',
    'per day',
    'daily',
    'by operation',
    'by key',
    'per key',
    'history',
    'billing',
    'costs',
    'statement',
    'analytics',
    'how much',
    'usage breakdown',
    'credits spent',
    'cost per operation',
    'invoicing',
  ],
  method: 'GET',
  path: '/v1/usage',
  input: z.strictObject({
    from: isoDay.optional().describe('First day, included (YYYY-MM-DD, UTC); default 29 days before to.'),
    to: isoDay.optional().describe('Last day, included (YYYY-MM-DD, UTC); default today.'),
    groupBy: z
      .string()
      .max(30)
      .regex(
        /^(day|operation|key)(,(day|operation|key))*$/,
        'expected day, operation or key, or several of them separated by commas (day,key)',
      )
      .optional()
      .describe('Add rows broken down by these together: day, operation, key, comma-separated (day,operation).'),
  }),
  output: z.object({
    from: z.string().describe('First day of the range (YYYY-MM-DD).'),
    to: z.string().describe('Last day of the range (YYYY-MM-DD).'),
    total: z.number().int().nonnegative().describe('Credits spent in the range.'),
    byDay: z.array(z.object({ day: z.string(), credits: z.number().int().nonnegative() })),
    byOperation: z.array(z.object({ operationId, unit, credits: z.number().int().nonnegative() })),
    byKey: z.array(z.object({ key: usageKey, credits: z.number().int().nonnegative() })),
    groupBy: z.array(z.enum(['day', 'operation', 'key'])).nullable(),
    rows: z
      .array(
        z.object({
          day: z.string().optional(),
          operationId: operationId.optional(),
          unit: unit.optional(),
          key: usageKey.optional(),
          credits: z.number().int().nonnegative(),
        }),
      )
      .nullable()
      .describe('The credits per combination of groupBy; null without groupBy.'),
  }),
  credits: free(),
  rateLimitClass: 'status',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { from: '2026-11-01', to: '2026-11-30', groupBy: 'day,operation' },
  workflow: { before: [], after: ['listRequestLog', 'getCreditBalance'] },
});
