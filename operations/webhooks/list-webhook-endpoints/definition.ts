import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { webhookEndpointView } from '../../schemas/webhooks.js';

export const listWebhookEndpoints = defineOperation({
  operationId: 'listWebhookEndpoints',
  title: 'List webhook endpoints',
  summary: "List the account's webhook endpoints with their event types and whether they are disabled or failing.",
  description:
    "Lists the account's webhook endpoints, newest first: URL, event types, disabled or not (and why), since when deliveries fail. Secrets are not shown: " +
    'rotateWebhookEndpointSecret issues a new one. Free.',
  category: 'account',
  keywords: [
    'webhook',
    'webhooks',
    'endpoints',
    'callback urls',
    'registered',
    'my webhooks',
    'integrations',
    'all webhooks',
    'which webhooks',
    'every endpoint',
    'inventory',
  ],
  method: 'GET',
  path: '/v1/webhook-endpoints',
  input: z.strictObject({}),
  output: z.object({ data: z.array(webhookEndpointView) }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: {},
  workflow: { before: [], after: ['getWebhookEndpoint', 'listWebhookDeliveries'] },
});
