import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { savedSearchId, savedSearchRunId, savedSearchRunView } from '../../schemas/saved-searches.js';

export const getSavedSearchRun = defineOperation({
  operationId: 'getSavedSearchRun',
  title: "Get a saved-search run's status",
  summary:
    'Poll one run of a saved search until it is DONE or FAILED: is it finished, how many new records, what it cost.',
  description:
    "Returns the run's status (QUEUED, RUNNING, DONE, FAILED), the matches, the new records it delivered, whether more were left for the next run, the credits charged " +
    'and why it failed when it did. Poll about every 10 seconds while QUEUED or RUNNING. Free.',
  category: 'search',
  keywords: [
    'saved search',
    'run',
    'status',
    'poll',
    'progress',
    'done',
    'finished',
    'ready',
    'did it fail',
    'is it done',
    'check',
    'state',
    'run status',
    'still running',
    'how many new',
    'queued',
    'failed',
  ],
  method: 'GET',
  path: '/v1/saved-searches/{savedSearchId}/runs/{runId}',
  input: z.strictObject({ savedSearchId, runId: savedSearchRunId }),
  output: savedSearchRunView,
  credits: free(),
  rateLimitClass: 'status',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  pollIntervalSeconds: 10,
  jobState: (output) =>
    output.status === 'DONE'
      ? { state: 'done', message: `Run done: ${output.newRecords ?? 0} new records, ${output.creditsCharged} credits.` }
      : output.status === 'FAILED'
        ? { state: 'failed', message: `The run failed: ${output.failureReason ?? 'no reason recorded'}.` }
        : {
            state: 'running',
            message: output.status === 'RUNNING' ? 'Searching for new records.' : 'Waiting to start.',
          },
  example: { savedSearchId: '1', runId: '1' },
  workflow: { before: ['runSavedSearch'], after: ['listSavedSearchRunRecords'] },
});
