import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { webhookEndpointId, webhookTestEventType } from '../../schemas/webhooks.js';

export const testWebhookEndpoint = defineOperation({
  operationId: 'testWebhookEndpoint',
  title: 'Send a test event to a webhook endpoint',
  summary: `Send a signed ${webhookTestEventType} event to one endpoint, to try it out before real events reach it.`,
  description:
    `Queues a ${webhookTestEventType} event for this endpoint only (whatever its event types), signed and retried like any other. ` +
    'The answer names the delivery; listWebhookDeliveries shows each attempt with the status code or error. A disabled endpoint is refused with invalid_state. Free.',
  category: 'account',
  keywords: ['webhook', 'test', 'ping endpoint', 'send test event', 'try out', 'sample event', 'verify setup'],
  method: 'POST',
  path: '/v1/webhook-endpoints/{webhookEndpointId}/test',
  input: z.strictObject({ webhookEndpointId }),
  output: z.object({
    webhookEndpointId: z.string(),
    deliveryId: z.string(),
    webhookId: z.string().describe('The webhook-id header the test event carries.'),
    status: z.literal('pending'),
  }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: false,
  destructive: false,
  idempotent: false,
  openWorld: true,
  confirmation: 'above-threshold',
  example: { webhookEndpointId: '1' },
  workflow: { before: ['createWebhookEndpoint'], after: ['listWebhookDeliveries'] },
});
