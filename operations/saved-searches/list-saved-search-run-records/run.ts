import { listSavedSearchRunRecords } from './definition.js';
import { listRunRecords } from '../../../src/core/saved-searches/run-rows.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(listSavedSearchRunRecords, async (input, { context, principal }) => ({
  output: await listRunRecords(context.db.pool, context.services.cursors, principal.accountId, input),
}));
