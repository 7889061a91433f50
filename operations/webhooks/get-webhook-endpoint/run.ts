import { getWebhookEndpoint } from './definition.js';
import * as endpoints from '../../../src/core/webhooks/endpoints.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(getWebhookEndpoint, async (input, { context, principal }) => ({
  output: endpoints.endpointView(
    await endpoints.requireEndpoint(context.db.pool, principal.accountId, input.webhookEndpointId),
  ),
}));
