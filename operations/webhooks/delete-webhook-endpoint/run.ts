import { deleteWebhookEndpoint } from './definition.js';
import * as endpoints from '../../../src/core/webhooks/endpoints.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(deleteWebhookEndpoint, async (input, { context, principal }) => ({
  output: await endpoints.deleteEndpoint(context.db, principal.accountId, input.webhookEndpointId),
}));
