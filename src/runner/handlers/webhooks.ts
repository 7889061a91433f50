import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  resendWebhookDelivery,
  rotateWebhookEndpointSecret,
  setLowBalanceThreshold,
  testWebhookEndpoint,
  updateWebhookEndpoint,
} from '../../../operations/index.js';
import * as endpoints from '../../core/webhooks/endpoints.js';
import { lowBalanceThreshold, setLowBalanceThreshold as storeThreshold } from '../../core/webhooks/low-balance.js';
import { handle } from '../handler.js';

export const webhookHandlers = [
  handle(createWebhookEndpoint, async (input, { context, principal }) => {
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
  }),
  handle(listWebhookEndpoints, async (_input, { context, principal }) => ({
    output: { data: await endpoints.listEndpoints(context.db.pool, principal.accountId) },
  })),
  handle(getWebhookEndpoint, async (input, { context, principal }) => ({
    output: endpoints.endpointView(
      await endpoints.requireEndpoint(context.db.pool, principal.accountId, input.webhookEndpointId),
    ),
  })),
  handle(updateWebhookEndpoint, async ({ webhookEndpointId, ...changes }, { context, principal }) => ({
    output: await endpoints.updateEndpoint(context, principal.accountId, webhookEndpointId, changes),
  })),
  handle(deleteWebhookEndpoint, async (input, { context, principal }) => ({
    output: await endpoints.deleteEndpoint(context.db, principal.accountId, input.webhookEndpointId),
  })),
  handle(rotateWebhookEndpointSecret, async (input, { context, principal }) => {
    const rotated = await endpoints.rotateSecret(context.db, principal.accountId, input.webhookEndpointId);
    return {
      output: rotated,
      message: `Free. Until ${rotated.previousSecretExpiresAt} every delivery is signed with the new secret and the previous one; then with the new one only.`,
    };
  }),
  handle(testWebhookEndpoint, async (input, { context, principal }) => ({
    output: await endpoints.sendTestEvent(context.db, principal.accountId, input.webhookEndpointId, {
      manualDeliveriesPerHour: context.config.WEBHOOK_MANUAL_DELIVERIES_PER_HOUR,
    }),
    status: 202,
    message: 'Free. Queued: listWebhookDeliveries shows the attempt and the status code the endpoint answered.',
  })),
  handle(listWebhookDeliveries, async (input, { context, principal }) => ({
    output: await endpoints.listDeliveries(context.db.pool, context.services.cursors, principal.accountId, input),
  })),
  handle(resendWebhookDelivery, async (input, { context, principal }) => ({
    output: await endpoints.resendDelivery(context.db, principal.accountId, input.webhookEndpointId, input.deliveryId, {
      manualDeliveriesPerHour: context.config.WEBHOOK_MANUAL_DELIVERIES_PER_HOUR,
    }),
    status: 202,
  })),
  handle(setLowBalanceThreshold, async (input, { context, principal }) => ({
    output: await storeThreshold(context.db.pool, principal.accountId, input.lowBalanceThreshold),
  })),
];
