import { exportProspects } from './definition.js';
import { requestExport } from '../../../src/core/audiences/exports.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(exportProspects, async (input, { context, principal }) => ({
  output: await requestExport(context, principal.accountId, { ...input, kind: 'prospects' }),
}));
