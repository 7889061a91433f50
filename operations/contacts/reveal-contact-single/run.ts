import { revealContactSingle } from './definition.js';
import { revealSingle } from '../../../src/core/contacts/reveal.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(revealContactSingle, async (input, { context, principal, requestId, ledgerKey }) => {
  const { creditsCharged, ...output } = await revealSingle(context, principal, input, { requestId, ledgerKey });
  return { output, creditsCharged };
});
