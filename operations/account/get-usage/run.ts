import { getUsage } from './definition.js';
import { usageReport, type UsageDimension } from '../../../src/core/usage.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(getUsage, async (input, { context, principal }) => ({
  output: await usageReport(context.db.pool, principal.accountId, {
    from: input.from,
    to: input.to,
    groupBy: input.groupBy?.split(',') as UsageDimension[] | undefined,
  }),
}));
