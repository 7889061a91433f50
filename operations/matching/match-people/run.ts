import { matchPeople } from './definition.js';
import { requestEntry } from '../../../src/core/credits.js';
import { matchPeople as matchPersonRows } from '../../../src/core/matching/match-people.js';
import { atConfidence } from '../../../src/core/matching/confidence.js';
import { chargeForRecords } from '../../../src/core/metering.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(matchPeople, async (input, { context, principal, requestId, signal, ledgerKey }) => {
  const found = await context.db.catalogRead(signal, (db) => matchPersonRows(db, input.rows));
  const { results, matched } = atConfidence(found, input.minConfidence);
  const creditsCharged = await chargeForRecords(
    context,
    principal,
    matched,
    requestEntry({ requestId, ledgerKey }, matchPeople.credits.unit, 'people matching'),
  );
  return { output: { results, matched }, creditsCharged };
});
