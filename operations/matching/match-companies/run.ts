import { matchCompanies } from './definition.js';
import { requestEntry } from '../../../src/core/credits.js';
import { matchCompanies as matchCompanyRows } from '../../../src/core/matching/match-companies.js';
import { atConfidence } from '../../../src/core/matching/confidence.js';
import { chargeForRecords } from '../../../src/core/metering.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(matchCompanies, async (input, { context, principal, requestId, signal, ledgerKey }) => {
  const found = await context.db.catalogRead(signal, (db) => matchCompanyRows(db, input.rows));
  const { results, matched } = atConfidence(found, input.minConfidence);
  const creditsCharged = await chargeForRecords(
    context,
    principal,
    matched,
    requestEntry({ requestId, ledgerKey }, matchCompanies.credits.unit, 'company matching'),
  );
  return { output: { results, matched }, creditsCharged };
});
