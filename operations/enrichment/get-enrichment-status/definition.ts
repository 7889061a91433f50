import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { audienceId, enrichmentSteps } from '../../schemas/audiences.js';
import { isoTimestamp } from '../../schemas/common.js';

export const getEnrichmentStatus = defineOperation({
  operationId: 'getEnrichmentStatus',
  title: 'Get enrichment status',
  summary: "Poll the progress of an audience's latest enrichment run until DONE; step 7 of the audience workflow.",
  description:
    `Returns the stage, progressPercent and the steps completed, running and remaining (${enrichmentSteps.join(', ')}). ` +
    'Complete when progressPercent is 100 or currentStage is DONE. Poll about every 30 seconds. Free.',
  category: 'enrichment',
  keywords: [
    'enrichment',
    'status',
    'progress',
    'poll',
    'done',
    'complete',
    'steps',
    'stage',
    'percent',
    'check',
    'which step',
    'eta',
    'stuck',
    'finished',
    'failed',
    'how far',
    'still running',
  ],
  method: 'GET',
  path: '/v1/audiences/{audienceId}/enrichment/status',
  input: z.strictObject({ audienceId }),
  output: z.object({
    enrichmentId: z.string(),
    status: z.enum(['NOT_STARTED', 'RUNNING', 'DONE', 'FAILED']),
    currentStage: z.string(),
    progressPercent: z.number().int().min(0).max(100),
    stepsCompleted: z.array(z.string()),
    currentStep: z.string().nullable(),
    stepsRemaining: z.array(z.string()),
    steps: z
      .array(
        z.object({
          name: z.string(),
          status: z.enum(['PENDING', 'RUNNING', 'COMPLETED', 'SKIPPED', 'FAILED']),
          startedAt: isoTimestamp.nullable(),
          completedAt: isoTimestamp.nullable(),
          done: z.number().int().describe('Records handled so far.'),
          total: z.number().int(),
          note: z.string().nullable(),
        }),
      )
      .describe('Each of the nine steps with its state and timing; SKIPPED steps were switched off by the request.'),
    estimatedCredits: z.number().int(),
    refundedCredits: z.number().int(),
    exportId: z
      .string()
      .nullable()
      .describe(
        'The CSV of the enriched prospects made for the completion mail (with userEmail); read it with getExportStatus.',
      ),
    failureReason: z.string().nullable(),
    createdAt: isoTimestamp,
    completedAt: isoTimestamp.nullable(),
  }),
  credits: free(),
  rateLimitClass: 'status',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  pollIntervalSeconds: 30,
  jobState: (output) =>
    output.status === 'DONE'
      ? { state: 'done', message: `Enrichment done: ${output.estimatedCredits - output.refundedCredits} credits used.` }
      : output.status === 'FAILED'
        ? { state: 'failed', message: `The enrichment failed: ${output.failureReason ?? 'no reason recorded'}.` }
        : {
            state: 'running',
            message: `Enrichment ${output.progressPercent}% done${output.currentStep ? `, at ${output.currentStep}` : ''}.`,
          },
  example: { audienceId: '1' },
  workflow: { before: ['triggerEnrichment'], after: ['exportProspects', 'listAudienceProspects'] },
});
