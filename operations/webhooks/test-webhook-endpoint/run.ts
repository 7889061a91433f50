import { testWebhookEndpoint } from './definition.js';
import * as endpoints from '../../../src/core/webhooks/endpoints.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(testWebhookEndpoint, async (input, { context, principal }) => ({
  output: await endpoints.sendTestEvent(context.db, principal.accountId, input.webhookEndpointId, {
    manualDeliveriesPerHour: context.config.WEBHOOK_MANUAL_DELIVERIES_PER_HOUR,
  }),
  status: 202,
  message: 'Free. Queued: listWebhookDeliveries shows the attempt and the status code the endpoint answered.',
}));
