import { listRequestLog } from './definition.js';
import { requestLogPage } from '../../../src/core/request-log.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(listRequestLog, async (input, { context, principal }) => ({
  output: await requestLogPage(context.db.pool, context.services.cursors, principal.accountId, input),
}));
