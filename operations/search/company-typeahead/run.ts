import { companyTypeahead } from './definition.js';
import { chargeForRecords } from '../../../src/core/metering.js';
import { suggestCompanies } from '../../../src/core/typeahead.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(companyTypeahead, async (input, { context, principal, requestId, signal }) => {
  const data = await context.db.catalogRead(signal, (db) => suggestCompanies(db, input.query, input.limit));
  const creditsCharged = await chargeForRecords(context, principal, 1, {
    unit: companyTypeahead.credits.unit,
    reason: 'company typeahead',
    reference: requestId,
  });
  return { output: { data }, creditsCharged };
});
