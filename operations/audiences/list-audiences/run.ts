import { listAudiences } from './definition.js';
import * as audiences from '../../../src/core/audiences/audiences.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(listAudiences, async (input, { context, principal }) => ({
  output: await audiences.listAudiences(context.db.pool, context.services.cursors, principal.accountId, input),
}));
