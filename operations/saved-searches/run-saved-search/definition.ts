import { z } from 'zod';
import { defineOperation } from '../../define.js';
import {
  defaultMaxNewRecords,
  maxNewRecords,
  newRecordCredits,
  savedSearchId,
  savedSearchRunView,
} from '../../schemas/saved-searches.js';

export const runSavedSearch = defineOperation({
  operationId: 'runSavedSearch',
  title: 'Run a saved search now',
  summary:
    'Run a saved search now to find the records that are new since its earlier runs; charged per new record when it completes.',
  description:
    'Starts a run in the background and answers at once with its runId (QUEUED). The run delivers the matching records no earlier run delivered, ' +
    `up to maxNewRecords (default ${defaultMaxNewRecords}), at ${newRecordCredits} credits each, charged once when it completes; a run that finds nothing new costs nothing. ` +
    'Poll getSavedSearchRun, then read the records with listSavedSearchRunRecords (free). One run at a time per saved search.',
  category: 'search',
  keywords: [
    'saved search',
    'run',
    'execute',
    'refresh',
    'check now',
    'new matches',
    'whats new',
    'new since',
    'rerun',
    'trigger',
    'update results',
    'start',
    'check for new',
    'run it again',
    'immediately',
    'manual run',
    'right now',
  ],
  method: 'POST',
  path: '/v1/saved-searches/{savedSearchId}/runs',
  input: z.strictObject({
    savedSearchId,
    maxNewRecords: maxNewRecords('New records this run delivers at most').default(defaultMaxNewRecords),
  }),
  output: savedSearchRunView,
  credits: {
    unit: 'savedSearchNewRecord',
    charged: 'later',
    rule: `${newRecordCredits} credits per new record delivered, charged when the run completes; nothing when nothing is new.`,
    worstCase: (input) => newRecordCredits * (input.maxNewRecords ?? defaultMaxNewRecords),
    example: `A run that finds 7 new companies costs ${7 * newRecordCredits} credits; its worst case is ${newRecordCredits} × maxNewRecords; a run with nothing new costs 0.`,
  },
  rateLimitClass: 'heavy',
  readOnly: false,
  destructive: false,
  idempotent: false,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { savedSearchId: '1', maxNewRecords: 50 },
  workflow: { before: ['createSavedSearch', 'getSavedSearch'], after: ['getSavedSearchRun'] },
  startsJob: {
    statusOperationId: 'getSavedSearchRun',
    statusInput: (input, output) => ({ savedSearchId: input.savedSearchId, runId: output.runId }),
  },
});
