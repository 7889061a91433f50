import { z } from 'zod';
import { defineOperation } from '../../define.js';
import { audienceId, exportJob, exportOptions, exportStatusJob } from '../../schemas/audiences.js';

export const exportProspects = defineOperation({
  operationId: 'exportProspects',
  title: 'Export prospects as CSV',
  summary:
    "Export a built (and optionally enriched) audience's prospects to a CSV file with a download link; last step of the audience workflow.",
  description:
    "Writes the audience's prospects, with any emails and phones found by enrichment, to a CSV file in the background. " +
    'onlyWithContacts keeps only prospects with at least one email or phone. Read the link with getExportStatus, or give userEmail. ' +
    'Free, subject to the monthly export quota; at most maxRowsAllowed rows per export.',
  category: 'audience',
  keywords: [
    'export',
    'download',
    'csv',
    'spreadsheet',
    'file',
    'prospects',
    'people',
    'leads',
    'contacts',
    'excel',
    'crm',
    'xlsx',
    'google sheets',
    'hubspot',
    'salesforce',
    'outreach',
    'sequencer',
    'mail merge',
    'with emails',
  ],
  method: 'POST',
  path: '/v1/audiences/{audienceId}/export/prospects',
  input: z.strictObject({
    audienceId,
    format: z.enum(['PROSPECT_GENERIC_CSV']).default('PROSPECT_GENERIC_CSV').describe('Standard prospect CSV.'),
    onlyWithContacts: z.boolean().default(false).describe('Only prospects with at least one email or phone found.'),
    ...exportOptions,
  }),
  ...exportJob,
  example: { audienceId: '1', onlyWithContacts: true },
  workflow: { before: ['getEnrichmentStatus', 'getAudienceStatus'], after: ['getExportStatus'] },
  startsJob: exportStatusJob,
});
