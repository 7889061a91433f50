import { createExclusionList, getCreditBalance, listIndustries, listRegions } from '../../../operations/index.js';
import { getBalance } from '../../core/credits.js';
import { createExclusionList as storeExclusionList } from '../../core/exclusion-lists.js';
import { keyStanding } from '../../core/key-management.js';
import { listIndustries as industryTaxonomy, listRegions as regionReference } from '../../../reference/index.js';
import { handle } from '../handler.js';

export const accountHandlers = [
  handle(getCreditBalance, async (_input, { context, principal }) => {
    const monthly = context.config.FREE_PLAN_MONTHLY_CREDITS;
    const balance = await getBalance(context.db.pool, principal.accountId);
    return {
      output: {
        balance,
        plan: principal.plan,
        monthlyFreeCredits: principal.plan === 'free' ? monthly : 0,
        accountName: principal.accountName,
        ...(principal.key ? { key: await keyStanding(context.db.pool, principal.accountId, principal.key) } : {}),
      },
    };
  }),
  handle(listRegions, async () => ({ output: regionReference() })),
  handle(listIndustries, async () => ({ output: { industries: industryTaxonomy() } })),
  handle(createExclusionList, async (input, { context, principal }) => ({
    output: await storeExclusionList(context.db, principal.accountId, input),
  })),
];
