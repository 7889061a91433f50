import { rotateWebhookEndpointSecret } from './definition.js';
import * as endpoints from '../../../src/core/webhooks/endpoints.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(rotateWebhookEndpointSecret, async (input, { context, principal }) => {
  const rotated = await endpoints.rotateSecret(context.db, principal.accountId, input.webhookEndpointId);
  return {
    output: rotated,
    message: `Free. Until ${rotated.previousSecretExpiresAt} every delivery is signed with the new secret and the previous one; then with the new one only.`,
  };
});
