import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { savedSearchId, savedSearchRunView, savedSearchView } from '../../schemas/saved-searches.js';

export const getSavedSearch = defineOperation({
  operationId: 'getSavedSearch',
  title: 'Get a saved search',
  summary: 'Read one saved search: its filters, schedule, next run and its latest run.',
  description:
    'Returns the saved search with its filters, schedule, maxNewRecordsPerRun, userEmail, next scheduled run, and its latest run (or null). Free.',
  category: 'search',
  keywords: [
    'saved search',
    'get',
    'read',
    'details',
    'show',
    'one',
    'watch',
    'alert',
    'schedule',
    'next run',
    'settings',
    'configuration',
    'setup',
    'filters of',
    'next scheduled run',
    'inspect',
  ],
  method: 'GET',
  path: '/v1/saved-searches/{savedSearchId}',
  input: z.strictObject({ savedSearchId }),
  output: savedSearchView.extend({ latestRun: savedSearchRunView.nullable() }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { savedSearchId: '1' },
  workflow: { before: ['listSavedSearches'], after: ['updateSavedSearch', 'runSavedSearch', 'listSavedSearchRuns'] },
});
