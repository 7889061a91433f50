import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { webhookEndpointId, webhookEndpointView, webhookSecret } from '../../schemas/webhooks.js';

export const rotateWebhookEndpointSecret = defineOperation({
  operationId: 'rotateWebhookEndpointSecret',
  title: "Rotate a webhook endpoint's signing secret",
  summary: 'Issue a new signing secret; the previous one keeps signing beside it for 24 hours.',
  description:
    'Issues a new signing secret (whsec_..., shown only in this answer). For 24 hours every delivery carries two signatures in webhook-signature, ' +
    'one per secret, so the receiver can switch to the new secret without losing an event; then only the new one signs. ' +
    'Rotating again within the 24 hours ends the older secret at once. Free.',
  category: 'account',
  keywords: ['webhook', 'secret', 'rotate', 'signing secret', 'new secret', 'leaked', 'roll', 'whsec', 'signature key'],
  method: 'POST',
  path: '/v1/webhook-endpoints/{webhookEndpointId}/rotate-secret',
  input: z.strictObject({ webhookEndpointId }),
  output: webhookEndpointView.extend({ secret: webhookSecret }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: false,
  destructive: false,
  idempotent: false,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { webhookEndpointId: '1' },
  workflow: { before: ['getWebhookEndpoint'], after: ['testWebhookEndpoint'] },
});
