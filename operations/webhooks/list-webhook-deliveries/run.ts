import { listWebhookDeliveries } from './definition.js';
import * as endpoints from '../../../src/core/webhooks/endpoints.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(listWebhookDeliveries, async (input, { context, principal }) => ({
  output: await endpoints.listDeliveries(context.db.pool, context.services.cursors, principal.accountId, input),
}));
