import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { changeFilters, watchListId } from '../../schemas/watch-lists.js';

export const countWatchListChanges = defineOperation({
  operationId: 'countWatchListChanges',
  title: 'Count the changes a watch list found',
  summary: 'How many changes a watch list found, in all and by kind, with the same kind and time filters as the list.',
  description:
    'Counts the changes listWatchListChanges would list, with the same filters: total and byKind (job_changed, title_changed, funding_raised, ...). Free.',
  category: 'enrichment',
  keywords: ['watch list', 'count', 'how many changes', 'number of job changes', 'tally', 'summary', 'totals'],
  method: 'GET',
  path: '/v1/watch-lists/{watchListId}/changes/count',
  input: z.strictObject({ watchListId, ...changeFilters }),
  output: z.object({
    watchListId: z.string(),
    total: z.number().int(),
    byKind: z.record(z.string(), z.number().int()).describe('Changes by kind; kinds with none are left out.'),
  }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { watchListId: '1', kind: 'job_changed' },
  workflow: { before: ['getWatchList'], after: ['listWatchListChanges'] },
});
