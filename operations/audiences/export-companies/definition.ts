import { z } from 'zod';
import { defineOperation } from '../../define.js';
import { audienceId, exportJob, exportOptions, exportStatusJob } from '../../schemas/audiences.js';

export const exportCompanies = defineOperation({
  operationId: 'exportCompanies',
  title: 'Export companies as CSV',
  summary:
    "Export a built audience's companies to a CSV file with a download link; last step of the audience workflow.",
  description:
    "Writes the audience's companies to a CSV file in the background. Read its link with getExportStatus, or give userEmail to have it mailed. " +
    "Free, subject to the account's monthly export quota; at most maxRowsAllowed rows per export.",
  category: 'audience',
  keywords: [
    'export',
    'download',
    'csv',
    'spreadsheet',
    'file',
    'companies',
    'accounts',
    'excel',
    'save',
    'crm',
    'company list',
    'account list',
    'xlsx',
    'google sheets',
    'hubspot',
    'salesforce',
    'import',
    'firms',
    'organizations',
  ],
  method: 'POST',
  path: '/v1/audiences/{audienceId}/export/companies',
  input: z.strictObject({
    audienceId,
    format: z.enum(['COMPANY_GENERIC_CSV']).default('COMPANY_GENERIC_CSV').describe('Standard company CSV.'),
    ...exportOptions,
  }),
  ...exportJob,
  example: { audienceId: '1', maxRowsToExport: 1000 },
  workflow: { before: ['getAudienceStatus'], after: ['getExportStatus'] },
  startsJob: exportStatusJob,
});
