import { exportCompanies } from './definition.js';
import { requestExport } from '../../../src/core/audiences/exports.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(exportCompanies, async (input, { context, principal }) => ({
  output: await requestExport(context, principal.accountId, { ...input, kind: 'companies' }),
}));
