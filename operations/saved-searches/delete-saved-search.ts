import { z } from 'zod';
import { defineOperation, free } from '../define.js';
import { savedSearchId } from '../schemas/saved-searches.js';

export const deleteSavedSearch = defineOperation({
  operationId: 'deleteSavedSearch',
  title: 'Delete a saved search',
  summary: 'Delete a saved search with its runs and records; scheduled runs stop.',
  description:
    'Deletes the saved search, its runs and the records they delivered, and stops its schedule. A run in progress is cancelled and charges nothing. Free.',
  category: 'search',
  keywords: [
    'saved search',
    'delete',
    'remove',
    'unsubscribe',
    'stop watching',
    'cancel alert',
    'discard',
    'drop',
    'stop alerts',
    'stop notifications',
    'turn off',
    'kill',
    'no longer need',
  ],
  method: 'DELETE',
  path: '/v1/saved-searches/{savedSearchId}',
  input: z.strictObject({ savedSearchId }),
  output: z.object({ savedSearchId: z.string(), deleted: z.literal(true) }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: false,
  destructive: true,
  idempotent: false,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { savedSearchId: '1' },
  workflow: { before: ['listSavedSearches'], after: [] },
});
