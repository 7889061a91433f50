import { companySearch } from './definition.js';
import { requestEntry } from '../../../src/core/credits.js';
import { chargeForRecords } from '../../../src/core/metering.js';
import { searchCompanies } from '../../../src/core/search/company-search.js';
import { substringTerms } from '../../../src/core/search/cost.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(companySearch, async (input, { context, principal, requestId, signal, ledgerKey }) => {
  const page = await context.db.catalogRead(
    signal,
    (db) => searchCompanies(db, context.services.cursors, principal.accountId, input),
    {
      readsAccountData: Boolean(input.companyExclusionListIDs?.length),
      costly: substringTerms({ company: input.searchParams }) > context.config.COSTLY_SEARCH_SUBSTRINGS,
    },
  );
  const creditsCharged = await chargeForRecords(
    context,
    principal,
    page.data.length,
    requestEntry({ requestId, ledgerKey }, companySearch.credits.unit, 'company search'),
  );
  return { output: page, creditsCharged };
});
