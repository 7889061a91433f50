import { revealContactSync } from './definition.js';
import { revealSync } from '../../../src/core/contacts/reveal.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(revealContactSync, async (input, { context, principal, requestId, ledgerKey }) => {
  const { creditsCharged, ...output } = await revealSync(context, principal, input, { requestId, ledgerKey });
  return { output, creditsCharged };
});
