import { createWebhookEndpoint } from './definition.js';
import * as endpoints from '../../../src/core/webhooks/endpoints.js';
import { lowBalanceThreshold } from '../../../src/core/webhooks/low-balance.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(createWebhookEndpoint, async (input, { context, principal }) => {
  const created = await endpoints.createEndpoint(context, principal.accountId, input);
  const threshold = input.events.includes('credits.low')
    ? await lowBalanceThreshold(context.db.pool, principal.accountId)
    : 0;
  return {
    output: created,
    message:
      'Free. Keep the secret: it is shown only now, and verifies the webhook-signature of every delivery. Try it with testWebhookEndpoint.' +
      (threshold === null ? ' credits.low is sent once a threshold is set with setLowBalanceThreshold.' : ''),
  };
});
