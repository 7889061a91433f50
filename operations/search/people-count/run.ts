import { peopleCount } from './definition.js';
import { chargeForRecords } from '../../../src/core/metering.js';
import { countPeople, exactCountBound } from '../../../src/core/search/count.js';
import { substringTerms } from '../../../src/core/search/cost.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(peopleCount, async (input, { context, principal, requestId, signal, ledgerKey }) => {
  const counted = await context.db.catalogRead(
    signal,
    (db) =>
      countPeople(db, principal.accountId, input, { timeoutMs: context.config.SEARCH_STATEMENT_TIMEOUT_MS, signal }),
    {
      readsAccountData: Boolean(input.companyExclusionListIDs?.length || input.prospectExclusionListIDs?.length),
      costly: substringTerms({ people: input.searchParams }) > context.config.COSTLY_SEARCH_SUBSTRINGS,
    },
  );
  const creditsCharged = await chargeForRecords(context, principal, 1, {
    unit: peopleCount.credits.unit,
    reason: 'people count',
    reference: requestId,
    ...(ledgerKey ? { idempotencyKey: ledgerKey } : {}),
  });
  return { output: { ...counted, exactUpTo: exactCountBound }, creditsCharged };
});
