import { liveEnrichCompany } from './definition.js';
import { liveFetchCompany } from '../../../src/core/contacts/live-fetch.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(liveEnrichCompany, async (input, { context, principal, requestId, ledgerKey, log }) => {
  const { creditsCharged, message, ...output } = await liveFetchCompany(
    context,
    principal,
    input,
    { requestId, ledgerKey },
    log,
  );
  return { output, creditsCharged, message };
});
