import { companyCount } from './definition.js';
import { chargeForRecords } from '../../../src/core/metering.js';
import { countCompanies, exactCountBound } from '../../../src/core/search/count.js';
import { substringTerms } from '../../../src/core/search/cost.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(companyCount, async (input, { context, principal, requestId, signal, ledgerKey }) => {
  const counted = await context.db.catalogRead(
    signal,
    (db) =>
      countCompanies(db, principal.accountId, input, {
        timeoutMs: context.config.SEARCH_STATEMENT_TIMEOUT_MS,
        signal,
      }),
    {
      readsAccountData: Boolean(input.companyExclusionListIDs?.length),
      costly: substringTerms({ company: input.searchParams }) > context.config.COSTLY_SEARCH_SUBSTRINGS,
    },
  );
  // Charged after the count, so a count refused or stopped costs nothing; a count of 0 costs its credit.
  const creditsCharged = await chargeForRecords(context, principal, 1, {
    unit: companyCount.credits.unit,
    reason: 'company count',
    reference: requestId,
    ...(ledgerKey ? { idempotencyKey: ledgerKey } : {}),
  });
  return { output: { ...counted, exactUpTo: exactCountBound }, creditsCharged };
});
