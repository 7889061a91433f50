import { defineOperation, deleteById } from '../../define.js';
import { webhookEndpointId } from '../../schemas/webhooks.js';

export const deleteWebhookEndpoint = defineOperation({
  operationId: 'deleteWebhookEndpoint',
  title: 'Delete a webhook endpoint',
  summary: 'Delete a webhook endpoint with its delivery log; events are no longer sent to it.',
  description:
    'Deletes the webhook endpoint, its pending deliveries (no further attempt is made) and its delivery log. To stop deliveries for a while, disable it with updateWebhookEndpoint instead. Free.',
  category: 'account',
  keywords: ['webhook', 'endpoint', 'delete', 'remove', 'unregister', 'drop webhook', 'stop sending events'],
  ...deleteById('/v1/webhook-endpoints/{webhookEndpointId}', webhookEndpointId),
  workflow: { before: ['listWebhookEndpoints'], after: [] },
});
