import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { webhookEndpointId, webhookEndpointView } from '../../schemas/webhooks.js';

export const getWebhookEndpoint = defineOperation({
  operationId: 'getWebhookEndpoint',
  title: 'Get a webhook endpoint',
  summary: 'Read one webhook endpoint by its id: its URL, its event types, and whether it is disabled or failing.',
  description:
    'Reads one webhook endpoint: its URL, event types, whether it is disabled (by the account, or by the service after its deliveries failed for days), ' +
    'since when deliveries fail, its last success, and until when a rotated-out secret still signs. The secret itself is not shown. Free.',
  category: 'account',
  keywords: [
    'webhook',
    'endpoint',
    'details',
    'callback url',
    'failing since',
    'show webhook',
    'settings',
    'config',
    'one webhook',
    'last success',
  ],
  method: 'GET',
  path: '/v1/webhook-endpoints/{webhookEndpointId}',
  input: z.strictObject({ webhookEndpointId }),
  output: webhookEndpointView,
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { webhookEndpointId: '1' },
  workflow: { before: ['listWebhookEndpoints'], after: ['updateWebhookEndpoint', 'listWebhookDeliveries'] },
});
