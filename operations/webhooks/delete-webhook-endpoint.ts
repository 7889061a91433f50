import { z } from 'zod';
import { defineOperation, free } from '../define.js';
import { webhookEndpointId } from '../schemas/webhooks.js';

export const deleteWebhookEndpoint = defineOperation({
  operationId: 'deleteWebhookEndpoint',
  title: 'Delete a webhook endpoint',
  summary: 'Delete a webhook endpoint with its delivery log; events are no longer sent to it.',
  description:
    'Deletes the webhook endpoint, its pending deliveries (no further attempt is made) and its delivery log. To stop deliveries for a while, disable it with updateWebhookEndpoint instead. Free.',
  category: 'account',
  keywords: ['webhook', 'endpoint', 'delete', 'remove', 'unregister', 'drop webhook', 'stop sending events'],
  method: 'DELETE',
  path: '/v1/webhook-endpoints/{webhookEndpointId}',
  input: z.strictObject({ webhookEndpointId }),
  output: z.object({ webhookEndpointId: z.string(), deleted: z.literal(true) }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: false,
  destructive: true,
  idempotent: false,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { webhookEndpointId: '1' },
  workflow: { before: ['listWebhookEndpoints'], after: [] },
});
