import { resendWebhookDelivery } from './definition.js';
import * as endpoints from '../../../src/core/webhooks/endpoints.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(resendWebhookDelivery, async (input, { context, principal }) => ({
  output: await endpoints.resendDelivery(context.db, principal.accountId, input.webhookEndpointId, input.deliveryId, {
    manualDeliveriesPerHour: context.config.WEBHOOK_MANUAL_DELIVERIES_PER_HOUR,
  }),
  status: 202,
}));
