import { getExportStatus } from './definition.js';
import { exportStatus } from '../../../src/core/audiences/exports.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(getExportStatus, async (input, { context, principal }) => ({
  output: await exportStatus(context, principal.accountId, input.audienceId, input.exportId),
}));
