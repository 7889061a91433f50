import { peopleSearch } from './definition.js';
import { requestEntry } from '../../../src/core/credits.js';
import { chargeForRecords } from '../../../src/core/metering.js';
import { substringTerms } from '../../../src/core/search/cost.js';
import { searchPeople } from '../../../src/core/search/people-search.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(peopleSearch, async (input, { context, principal, requestId, signal, ledgerKey }) => {
  const page = await context.db.catalogRead(
    signal,
    (db) => searchPeople(db, context.services.cursors, principal.accountId, input),
    {
      readsAccountData: Boolean(input.companyExclusionListIDs?.length || input.prospectExclusionListIDs?.length),
      costly: substringTerms({ people: input.searchParams }) > context.config.COSTLY_SEARCH_SUBSTRINGS,
    },
  );
  const creditsCharged = await chargeForRecords(
    context,
    principal,
    page.data.length,
    requestEntry({ requestId, ledgerKey }, peopleSearch.credits.unit, 'people search'),
  );
  return { output: page, creditsCharged };
});
