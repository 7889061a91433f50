import { matchCompanies } from './definition.js';
import { requestEntry } from '../../../src/core/credits.js';
import { matchCompanies as matchCompanyRows } from '../../../src/core/matching/match-companies.js';
import { chargeForRecords } from '../../../src/core/metering.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(matchCompanies, async (input, { context, principal, requestId, signal, ledgerKey }) => {
  const found = await context.db.catalogRead(signal, (db) => matchCompanyRows(db, input.rows));
  // A match below the caller's bar is not given, so it is not charged.
  const results = found.map((result) =>
    result.confidence >= input.minConfidence ? result : { ...result, match: null, runnersUp: [] },
  );
  const matched = results.filter((result) => result.match !== null).length;
  const creditsCharged = await chargeForRecords(
    context,
    principal,
    matched,
    requestEntry({ requestId, ledgerKey }, matchCompanies.credits.unit, 'company matching'),
  );
  return { output: { results, matched }, creditsCharged };
});
