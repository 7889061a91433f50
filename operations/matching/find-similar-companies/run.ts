import { findSimilarCompanies } from './definition.js';
import { requestEntry } from '../../../src/core/credits.js';
import { findSimilarCompanies as findCompaniesLike } from '../../../src/core/lookalike/similar-companies.js';
import { chargeForRecords } from '../../../src/core/metering.js';
import { substringTerms } from '../../../src/core/search/cost.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(findSimilarCompanies, async (input, { context, principal, requestId, signal, ledgerKey }) => {
  const page = await context.db.catalogRead(
    signal,
    (db) => findCompaniesLike(db, context.services.cursors, principal.accountId, input),
    {
      readsAccountData: Boolean(input.companyExclusionListIDs?.length),
      costly: substringTerms({ company: input.searchParams }) > context.config.COSTLY_SEARCH_SUBSTRINGS,
    },
  );
  const creditsCharged = await chargeForRecords(
    context,
    principal,
    page.data.length,
    requestEntry({ requestId, ledgerKey }, findSimilarCompanies.credits.unit, 'similar companies'),
  );
  return { output: page, creditsCharged };
});
