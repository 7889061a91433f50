import { setLowBalanceThreshold } from './definition.js';
import { setLowBalanceThreshold as storeThreshold } from '../../../src/core/webhooks/low-balance.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(setLowBalanceThreshold, async (input, { context, principal }) => ({
  output: await storeThreshold(context.db.pool, principal.accountId, input.lowBalanceThreshold),
}));
