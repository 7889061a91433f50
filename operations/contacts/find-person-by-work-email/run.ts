import { findPersonByWorkEmail } from './definition.js';
import { findPersonByWorkEmail as lookUpWorkEmail } from '../../../src/core/contacts/email-check.js';
import { chargeForRecords } from '../../../src/core/metering.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(
  findPersonByWorkEmail,
  async (input, { context, principal, requestId, signal, ledgerKey }) => {
    const person = await context.db.catalogRead(signal, (db) => lookUpWorkEmail(db, input.email));
    const creditsCharged = await chargeForRecords(context, principal, person ? 2 : 0, {
      unit: findPersonByWorkEmail.credits.unit,
      reason: 'person by work email',
      reference: requestId,
      ...(ledgerKey ? { idempotencyKey: ledgerKey } : {}),
    });
    return { output: { email: input.email, found: person !== null, person }, creditsCharged };
  },
);
