import { validateEmail } from './definition.js';
import { validateEmailAddress } from '../../../src/core/contacts/email-check.js';
import { chargeForRecords } from '../../../src/core/metering.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(validateEmail, async (input, { context, principal, requestId, ledgerKey }) => {
  const verdict = await validateEmailAddress(context, input.email);
  const creditsCharged = await chargeForRecords(context, principal, 1, {
    unit: validateEmail.credits.unit,
    reason: 'email validation',
    reference: requestId,
    ...(ledgerKey ? { idempotencyKey: ledgerKey } : {}),
  });
  return { output: verdict, creditsCharged };
});
