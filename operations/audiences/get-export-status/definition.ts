import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { audienceId } from '../../schemas/audiences.js';
import { isoTimestamp, resourceId } from '../../schemas/common.js';

export const getExportStatus = defineOperation({
  operationId: 'getExportStatus',
  title: 'Get export status and link',
  summary: "Read an export's status and, when READY, its signed download link.",
  description:
    "Returns the export's status (PENDING, RUNNING, READY, FAILED, or EXPIRED once its file was deleted after the retention period: export again), its row count, why it failed when it did, and when READY an absolute download link that expires. Free.",
  category: 'audience',
  keywords: [
    'export',
    'status',
    'download',
    'link',
    'url',
    'csv',
    'ready',
    'file',
    'get',
    'download link',
    'where is my file',
    'file ready',
    'grab the file',
    'expired',
    'signed url',
  ],
  method: 'GET',
  path: '/v1/audiences/{audienceId}/exports/{exportId}',
  input: z.strictObject({ audienceId, exportId: resourceId('exportId') }),
  output: z.object({
    exportId: z.string(),
    audienceId: z.string(),
    kind: z.enum(['companies', 'prospects']),
    status: z.enum(['PENDING', 'RUNNING', 'READY', 'FAILED', 'EXPIRED']),
    rows: z.number().int().nullable(),
    downloadUrl: z.string().nullable(),
    expiresAt: isoTimestamp.nullable(),
    createdAt: isoTimestamp,
    completedAt: isoTimestamp.nullable(),
    failureReason: z
      .string()
      .nullable()
      .describe('Why a FAILED export failed (its reserved quota was released), or why an EXPIRED one has no file.'),
  }),
  credits: free(),
  rateLimitClass: 'status',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  pollIntervalSeconds: 10,
  jobState: (output) =>
    output.status === 'READY'
      ? { state: 'done', message: `Export ready: ${output.rows ?? 0} rows.` }
      : output.status === 'FAILED' || output.status === 'EXPIRED'
        ? {
            state: 'failed',
            message: `The export is ${output.status}: ${output.failureReason ?? 'no reason recorded'}.`,
          }
        : { state: 'running', message: output.status === 'RUNNING' ? 'Writing the CSV file.' : 'Waiting to start.' },
  example: { audienceId: '1', exportId: '1' },
  workflow: { before: ['exportCompanies', 'exportProspects'], after: [] },
});
