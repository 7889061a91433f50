import { companySearch, peopleSearch } from '../../../operations/index.js';
import { requestEntry } from '../../core/credits.js';
import { chargeForRecords } from '../../core/metering.js';
import { searchCompanies } from '../../core/search/company-search.js';
import { substringTerms } from '../../core/search/cost.js';
import { searchPeople } from '../../core/search/people-search.js';
import { handle } from '../handler.js';

export const searchHandlers = [
  handle(companySearch, async (input, { context, principal, requestId, signal, ledgerKey }) => {
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
  }),
  handle(peopleSearch, async (input, { context, principal, requestId, signal, ledgerKey }) => {
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
  }),
];
