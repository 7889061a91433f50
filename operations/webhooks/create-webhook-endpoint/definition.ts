import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import {
  webhookDescription,
  webhookEndpointView,
  webhookEventList,
  webhookSecret,
  webhookUrl,
} from '../../schemas/webhooks.js';

export const createWebhookEndpoint = defineOperation({
  operationId: 'createWebhookEndpoint',
  title: 'Create a webhook endpoint',
  summary:
    'Register an https URL that receives signed webhook events when long-running work ends or credits run low, instead of polling.',
  description:
    'Registers a webhook endpoint: the service POSTs each event of the chosen types to the URL as JSON { type, timestamp, data }, signed per the Standard Webhooks specification ' +
    '(webhook-id, webhook-timestamp, webhook-signature headers). Answers the endpoint and its signing secret (whsec_...), shown only here and on rotation. ' +
    'A delivery that is not answered 2xx within 10 seconds is retried with backoff over about three days; redirects are not followed. ' +
    'The URL must be https on a public address. For scripts and back ends; an agent without a public URL keeps polling the status operations. Free.',
  category: 'account',
  keywords: [
    'webhook',
    'webhooks',
    'endpoint',
    'callback url',
    'register',
    'subscribe events',
    'push',
    'instead of polling',
    'signed events',
    'http post',
    'receiver',
    'integration',
    'event subscription',
  ],
  method: 'POST',
  path: '/v1/webhook-endpoints',
  input: z.strictObject({
    url: webhookUrl,
    events: webhookEventList,
    description: webhookDescription.optional(),
  }),
  output: webhookEndpointView.extend({ secret: webhookSecret }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: false,
  destructive: false,
  idempotent: false,
  openWorld: false,
  confirmation: 'above-threshold',
  example: {
    url: 'https://hooks.example.com/prospecting',
    events: ['audience.build.completed', 'export.ready'],
    description: 'CRM sync',
  },
  workflow: { before: [], after: ['testWebhookEndpoint', 'listWebhookDeliveries'] },
});
