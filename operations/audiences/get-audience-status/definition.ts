import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { audienceId, audienceSummary } from '../../schemas/audiences.js';

export const getAudienceStatus = defineOperation({
  operationId: 'getAudienceStatus',
  title: 'Get audience status',
  summary: "Poll an audience's status and counts until the build is NORMAL; step 4 of the audience workflow.",
  description:
    'Returns status (DRAFT, BUILDING, NORMAL, FAILED), numCompanies and numProspects. Poll every 30 to 60 seconds while BUILDING, never in a tight loop. ' +
    'On FAILED, create a new audience. Free.',
  category: 'audience',
  keywords: [
    'audience',
    'status',
    'poll',
    'progress',
    'state',
    'ready',
    'done',
    'check',
    'counts',
    'how many',
    'built',
    'far',
    'along',
    'finished',
    'wait',
    'built yet',
    'building',
    'is it ready',
    'eta',
    'still running',
    'stuck',
    'failed',
  ],
  method: 'GET',
  path: '/v1/audiences/{audienceId}',
  input: z.strictObject({ audienceId }),
  output: audienceSummary.extend({
    failureReason: z.string().nullable().describe('Why the build failed, when FAILED.'),
    builtAt: z.string().nullable(),
    buildWorstCaseCredits: z
      .number()
      .int()
      .nonnegative()
      .describe(
        'The most a build of its filters can charge: maxCompanies + maxProspects (maxProspects alone for START_FROM_PROSPECTS); 0 before filters are set.',
      ),
    buildExpectedCredits: z
      .number()
      .int()
      .nonnegative()
      .nullable()
      .describe(
        'While DRAFT with filters set: what a build would charge if it ran now (its own selection counted, 1 credit per company and per prospect; the data may change before it runs). Null in other states, or when counting takes longer than 2 seconds.',
      ),
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
    output.status === 'NORMAL'
      ? { state: 'done', message: `Built: ${output.numCompanies} companies, ${output.numProspects} prospects.` }
      : output.status === 'FAILED'
        ? { state: 'failed', message: `The build failed: ${output.failureReason ?? 'no reason recorded'}.` }
        : {
            state: 'running',
            message:
              output.status === 'BUILDING'
                ? `Building: ${output.numCompanies} companies, ${output.numProspects} prospects so far.`
                : 'Waiting for the build to start.',
          },
  example: { audienceId: '1' },
  workflow: {
    before: ['buildAudience'],
    after: ['estimateEnrichmentCost', 'exportCompanies', 'exportProspects', 'listAudienceProspects'],
  },
});
