import { pollBatchContactEnrichment } from './definition.js';
import { pollBatch } from '../../../src/core/contacts/batch.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(pollBatchContactEnrichment, async (input, { context, principal }) => ({
  output: await pollBatch(context, principal, input),
}));
