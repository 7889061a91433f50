import {
  liveEnrichCompany,
  liveEnrichPerson,
  pollBatchContactEnrichment,
  revealContactSingle,
  revealContactSync,
  startBatchContactEnrichment,
} from '../../../operations/index.js';
import { pollBatch, startBatch } from '../../core/contacts/batch.js';
import { liveFetchCompany, liveFetchProfile } from '../../core/contacts/live-fetch.js';
import { revealSingle, revealSync } from '../../core/contacts/reveal.js';
import { handle } from '../handler.js';

export const contactHandlers = [
  handle(revealContactSync, async (input, { context, principal, requestId, ledgerKey }) => {
    const { creditsCharged, ...output } = await revealSync(context, principal, input, { requestId, ledgerKey });
    return { output, creditsCharged };
  }),
  handle(revealContactSingle, async (input, { context, principal, requestId, ledgerKey }) => {
    const { creditsCharged, ...output } = await revealSingle(context, principal, input, { requestId, ledgerKey });
    return { output, creditsCharged };
  }),
  handle(startBatchContactEnrichment, async (input, { context, principal }) => {
    const output = await startBatch(context, principal, input);
    return {
      output,
      status: 202,
      message: `Charged per profile and type found as each profile completes, at most ${output.maxCredits} credits. Poll pollBatchContactEnrichment about every 30 seconds.`,
    };
  }),
  handle(pollBatchContactEnrichment, async (input, { context, principal }) => ({
    output: await pollBatch(context, principal, input),
  })),
  handle(liveEnrichCompany, async (input, { context, principal, requestId, ledgerKey, log }) => {
    const { creditsCharged, message, ...output } = await liveFetchCompany(
      context,
      principal,
      input,
      { requestId, ledgerKey },
      log,
    );
    return { output, creditsCharged, message };
  }),
  handle(liveEnrichPerson, async (input, { context, principal, requestId, ledgerKey, log }) => {
    const { creditsCharged, message, ...output } = await liveFetchProfile(
      context,
      principal,
      input,
      { requestId, ledgerKey },
      log,
    );
    return { output, creditsCharged, message };
  }),
];
