import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { cursor } from '../../schemas/common.js';
import { savedSearchId, savedSearchRunView } from '../../schemas/saved-searches.js';

export const listSavedSearchRuns = defineOperation({
  operationId: 'listSavedSearchRuns',
  title: "List a saved search's runs",
  summary: 'List the runs of a saved search, newest first, with how many new records each found and what it cost.',
  description:
    'Pages through the runs of a saved search (by hand or by schedule), newest first: status, matches, new records, credits charged. Free.',
  category: 'search',
  keywords: [
    'saved search',
    'runs',
    'history',
    'past runs',
    'results',
    'log',
    'previous',
    'when',
    'each run',
    'list',
    'executions',
    'run history',
    'when did it run',
    'timeline',
    'how often',
  ],
  method: 'GET',
  path: '/v1/saved-searches/{savedSearchId}/runs',
  input: z.strictObject({
    savedSearchId,
    pageSize: z.coerce.number().int().min(1).max(100).default(25).describe('Runs per page: default 25, at most 100.'),
    cursor,
  }),
  output: z.object({ data: z.array(savedSearchRunView), nextCursor: z.string().nullable() }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { savedSearchId: '1', pageSize: 25 },
  workflow: { before: ['getSavedSearch'], after: ['listSavedSearchRunRecords'] },
});
