import { updateWebhookEndpoint } from './definition.js';
import * as endpoints from '../../../src/core/webhooks/endpoints.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(updateWebhookEndpoint, async ({ webhookEndpointId, ...changes }, { context, principal }) => ({
  output: await endpoints.updateEndpoint(context, principal.accountId, webhookEndpointId, changes),
}));
