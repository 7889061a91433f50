import { liveEnrichPerson } from './definition.js';
import { liveFetchProfile } from '../../../src/core/contacts/live-fetch.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(liveEnrichPerson, async (input, { context, principal, requestId, ledgerKey, log }) => {
  const { creditsCharged, message, ...output } = await liveFetchProfile(
    context,
    principal,
    input,
    { requestId, ledgerKey },
    log,
  );
  return { output, creditsCharged, message };
});
