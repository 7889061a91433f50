import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import {
  webhookDescription,
  webhookEndpointId,
  webhookEndpointView,
  webhookEventList,
  webhookUrl,
} from '../../schemas/webhooks.js';

export const updateWebhookEndpoint = defineOperation({
  operationId: 'updateWebhookEndpoint',
  title: 'Change a webhook endpoint',
  summary:
    "Change a webhook endpoint's URL, event types or description, or disable and enable it; what is not given stays.",
  description:
    'Changes only the fields given. disabled true stops deliveries: events are no longer sent to it and its pending deliveries end failed (resend them later with resendWebhookDelivery). ' +
    'disabled false enables it again, also after the service disabled it for failing. A new URL receives the next attempts. Free.',
  category: 'account',
  keywords: [
    'webhook',
    'endpoint',
    'update',
    'change url',
    'disable',
    'enable',
    're-enable',
    'pause deliveries',
    'event types',
    'edit webhook',
  ],
  method: 'PATCH',
  path: '/v1/webhook-endpoints/{webhookEndpointId}',
  input: z.strictObject({
    webhookEndpointId,
    url: webhookUrl.optional(),
    events: webhookEventList.optional(),
    description: webhookDescription.nullable().optional().describe('A note for people; null removes it.'),
    disabled: z.boolean().optional().describe('true stops deliveries to it; false enables it again.'),
  }),
  output: webhookEndpointView,
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: false,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { webhookEndpointId: '1', events: ['export.ready'], disabled: false },
  workflow: { before: ['getWebhookEndpoint'], after: ['testWebhookEndpoint'] },
});
