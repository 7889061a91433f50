import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { cursor, queryPageSize, resourceId } from '../../schemas/common.js';
import { contactResult } from '../reveal-contact-sync/definition.js';

export const pollBatchContactEnrichment = defineOperation({
  operationId: 'pollBatchContactEnrichment',
  title: 'Poll batch contact enrichment',
  summary:
    "Read a batch contact job's progress (overallStats) and a page of its results (pageResults) by taskId and cursor.",
  description:
    'Returns the job status, overallStats (profiles done, found, credits charged) and one page of pageResults in submission order; pass nextCursor for the next page. ' +
    'Poll about every 30 seconds while the job runs. Free.',
  category: 'contact',
  keywords: [
    'batch',
    'poll',
    'status',
    'progress',
    'results',
    'task',
    'job',
    'contacts',
    'emails',
    'phones',
    'check',
    'batch results',
    'task status',
    'job progress',
    'bulk results',
    'how far',
  ],
  method: 'GET',
  path: '/v1/contact-enrichment/batch/{taskId}',
  input: z.strictObject({ taskId: resourceId('taskId'), cursor, pageSize: queryPageSize }),
  output: z.object({
    taskId: z.string(),
    status: z.enum(['QUEUED', 'RUNNING', 'DONE', 'FAILED']),
    failureReason: z.string().nullable().describe('Why a FAILED job stopped (the balance ran out); null otherwise.'),
    overallStats: z.object({
      total: z.number().int(),
      processed: z.number().int(),
      found: z.number().int(),
      notFound: z.number().int(),
      creditsCharged: z.number().int(),
    }),
    pageResults: z.array(
      contactResult.extend({
        profileUrl: z.string(),
        status: z.enum(['PENDING', 'FOUND', 'NOT_FOUND']),
        creditsCharged: z.number().int(),
        reason: z
          .string()
          .nullable()
          .describe('Why an item is NOT_FOUND (or a repeat of an earlier item); null otherwise.'),
      }),
    ),
    nextCursor: z.string().nullable(),
  }),
  credits: free(),
  rateLimitClass: 'status',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  pollIntervalSeconds: 30,
  jobState: (output) => {
    const stats = output.overallStats;
    if (output.status === 'DONE')
      return {
        state: 'done',
        message: `Done: ${stats.found} of ${stats.total} profiles found, ${stats.creditsCharged} credits.`,
      };
    if (output.status === 'FAILED')
      return { state: 'failed', message: `The batch failed: ${output.failureReason ?? 'no reason recorded'}.` };
    return {
      state: 'running',
      message: `${stats.processed} of ${stats.total} profiles processed, ${stats.found} found.`,
    };
  },
  example: { taskId: '1' },
  workflow: { before: ['startBatchContactEnrichment'], after: [] },
});
