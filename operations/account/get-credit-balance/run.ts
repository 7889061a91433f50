import { getCreditBalance } from './definition.js';
import { keyStanding } from '../../../src/core/api-keys.js';
import { balanceAndThreshold } from '../../../src/core/webhooks/low-balance.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(getCreditBalance, async (_input, { context, principal }) => {
  const monthly = context.config.FREE_PLAN_MONTHLY_CREDITS;
  const { balance, lowBalanceThreshold } = await balanceAndThreshold(context.db.pool, principal.accountId);
  return {
    output: {
      balance,
      plan: principal.plan,
      monthlyFreeCredits: principal.plan === 'free' ? monthly : 0,
      accountName: principal.accountName,
      ...(principal.key ? { key: await keyStanding(context.db.pool, principal.accountId, principal.key) } : {}),
      lowBalanceThreshold,
    },
  };
});
