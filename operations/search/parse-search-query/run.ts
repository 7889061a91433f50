import { parseSearchQuery } from './definition.js';
import { countFirstStep, readSearchQuery } from '../../../src/core/query-parser/read-search-query.js';
import { substringTerms } from '../../../src/core/search/cost.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(parseSearchQuery, async (input, { context, principal, signal }) => {
  const read = readSearchQuery(input.text);
  // Free: the count is part of reading the sentence, so that a person can see what it finds before paying.
  const count = input.count
    ? await context.db.catalogRead(
        signal,
        (db) =>
          countFirstStep(db, principal.accountId, read, {
            timeoutMs: context.config.SEARCH_STATEMENT_TIMEOUT_MS,
            signal,
          }),
        {
          costly:
            substringTerms({ company: read.companySearchParams, people: read.prospectSearchParams }) >
            context.config.COSTLY_SEARCH_SUBSTRINGS,
        },
      )
    : null;
  return { output: { ...read, count }, creditsCharged: 0 };
});
