import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { webhookDeliveryId, webhookDeliveryView, webhookEndpointId } from '../../schemas/webhooks.js';

export const resendWebhookDelivery = defineOperation({
  operationId: 'resendWebhookDelivery',
  title: 'Resend a webhook delivery',
  summary: 'Send one event to the endpoint again now, with the same webhook-id, and retry it on the usual schedule.',
  description:
    'Sends the event of a delivery again, at once: the same body and webhook-id (so a receiver that already has it can tell), a fresh timestamp and signature, ' +
    'and, if it fails, the usual retries. A pending delivery is attempted now instead of at its next attempt. The endpoint must be enabled. Free.',
  category: 'account',
  keywords: [
    'webhook',
    'resend',
    'redeliver',
    'retry delivery',
    'replay event',
    'send again',
    'retry now',
    'once more',
  ],
  method: 'POST',
  path: '/v1/webhook-endpoints/{webhookEndpointId}/deliveries/{deliveryId}/resend',
  input: z.strictObject({ webhookEndpointId, deliveryId: webhookDeliveryId }),
  output: webhookDeliveryView,
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: false,
  destructive: false,
  idempotent: false,
  openWorld: true,
  confirmation: 'above-threshold',
  example: { webhookEndpointId: '1', deliveryId: '10' },
  workflow: { before: ['listWebhookDeliveries'], after: ['listWebhookDeliveries'] },
});
