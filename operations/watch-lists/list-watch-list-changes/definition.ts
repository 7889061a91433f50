import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { cursor, queryPageSize } from '../../schemas/common.js';
import { changeFilters, watchListChange, watchListId } from '../../schemas/watch-lists.js';

export const listWatchListChanges = defineOperation({
  operationId: 'listWatchListChanges',
  title: 'List the changes a watch list found',
  summary:
    'Job changes, new titles and moves of tracked people; funding rounds, headcount changes, moves and renames of tracked companies; newest first.',
  description:
    'Pages through the changes the checks of a watch list found, newest first, by kind and time: each with the item, kind, before, after, detectedAt and the checkId of the check that found it. ' +
    'The same records are sent as webhook events (person.job_changed, person.title_changed, company.funding_raised, company.headcount_changed, company.moved). Free.',
  category: 'enrichment',
  keywords: [
    'watch list',
    'changes',
    'signals',
    'job changes',
    'who changed jobs',
    'new titles',
    'funding rounds',
    'raised',
    'headcount changes',
    'moved',
    'alerts',
    'triggers',
    'what changed',
  ],
  method: 'GET',
  path: '/v1/watch-lists/{watchListId}/changes',
  input: z.strictObject({ watchListId, ...changeFilters, pageSize: queryPageSize, cursor }),
  output: z.object({ data: z.array(watchListChange), nextCursor: z.string().nullable() }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { watchListId: '1', kind: 'job_changed', pageSize: 25 },
  workflow: { before: ['getWatchList'], after: ['countWatchListChanges', 'liveEnrichPerson'] },
});
