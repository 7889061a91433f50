import { findSimilarPeople } from './definition.js';
import { requestEntry } from '../../../src/core/credits.js';
import { findSimilarPeople as findPeopleLike } from '../../../src/core/lookalike/similar-people.js';
import { chargeForRecords } from '../../../src/core/metering.js';
import { substringTerms } from '../../../src/core/search/cost.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(findSimilarPeople, async (input, { context, principal, requestId, signal, ledgerKey }) => {
  const page = await context.db.catalogRead(
    signal,
    (db) => findPeopleLike(db, context.services.cursors, principal.accountId, input),
    {
      readsAccountData: Boolean(input.companyExclusionListIDs?.length || input.prospectExclusionListIDs?.length),
      costly: substringTerms({ people: input.searchParams }) > context.config.COSTLY_SEARCH_SUBSTRINGS,
    },
  );
  const creditsCharged = await chargeForRecords(
    context,
    principal,
    page.data.length,
    requestEntry({ requestId, ledgerKey }, findSimilarPeople.credits.unit, 'similar people'),
  );
  return { output: page, creditsCharged };
});
