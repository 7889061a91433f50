import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { cursor } from '../../schemas/common.js';
import { webhookDeliveryView, webhookEndpointId } from '../../schemas/webhooks.js';

export const listWebhookDeliveries = defineOperation({
  operationId: 'listWebhookDeliveries',
  title: "List a webhook endpoint's deliveries",
  summary:
    'The delivery log of a webhook endpoint: each event sent, its status, and every attempt with time, status code or error and duration.',
  description:
    'Pages through the events sent to the endpoint, newest first: type, webhook-id, pending / delivered / failed, the next attempt, and each attempt ' +
    "(time, the endpoint's status code or the error, duration, a short redacted excerpt of the answer). Filter by status to find the failed ones to resend. Free.",
  category: 'account',
  keywords: [
    'webhook',
    'deliveries',
    'delivery log',
    'attempts',
    'failed deliveries',
    'status code',
    'history',
    'retries',
    'debug webhook',
    'did it arrive',
    'what was sent',
    'responses',
  ],
  method: 'GET',
  path: '/v1/webhook-endpoints/{webhookEndpointId}/deliveries',
  input: z.strictObject({
    webhookEndpointId,
    status: z.enum(['pending', 'delivered', 'failed']).optional().describe('Only deliveries in this status.'),
    pageSize: z.coerce
      .number()
      .int()
      .min(1)
      .max(100)
      .default(25)
      .describe('Deliveries per page: default 25, at most 100.'),
    cursor,
  }),
  output: z.object({
    webhookEndpointId: z.string(),
    data: z.array(webhookDeliveryView),
    nextCursor: z.string().nullable(),
  }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { webhookEndpointId: '1', status: 'failed', pageSize: 25 },
  workflow: { before: ['listWebhookEndpoints'], after: ['resendWebhookDelivery'] },
});
