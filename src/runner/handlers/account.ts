import { createExclusionList, getCreditBalance, listIndustries, listRegions } from '../../../operations/index.js';
import { createExclusionList as storeExclusionList } from '../../core/exclusion-lists.js';
import { keyStanding } from '../../core/key-management.js';
import { balanceAndThreshold } from '../../core/webhooks/low-balance.js';
import { listIndustries as industryTaxonomy, listRegions as regionReference } from '../../../reference/index.js';
import { handle } from '../handler.js';

export const accountHandlers = [
  handle(getCreditBalance, async (_input, { context, principal }) => {
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
  }),
  handle(listRegions, async () => ({ output: regionReference() })),
  handle(listIndustries, async () => ({ output: { industries: industryTaxonomy() } })),
  handle(createExclusionList, async (input, { context, principal }) => ({
    output: await storeExclusionList(context.db, principal.accountId, input),
  })),
];
