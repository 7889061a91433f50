import { listWebhookEndpoints } from './definition.js';
import * as endpoints from '../../../src/core/webhooks/endpoints.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(listWebhookEndpoints, async (_input, { context, principal }) => ({
  output: { data: await endpoints.listEndpoints(context.db.pool, principal.accountId) },
}));
