import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { cursor } from '../../schemas/common.js';
import { watchListKind, watchListView } from '../../schemas/watch-lists.js';

export const listWatchLists = defineOperation({
  operationId: 'listWatchLists',
  title: 'List watch lists',
  summary: "List the account's watch lists of tracked people and companies, newest first, with items and changes.",
  description:
    'Pages through the watch lists, newest first: each with its kind, schedule, whether it is paused (and why), its items, the next check and the changes found so far. Free.',
  category: 'enrichment',
  keywords: [
    'watch lists',
    'watchlists',
    'my watch lists',
    'tracked',
    'monitoring',
    'signals',
    'all watches',
    'show watch lists',
    'tracked lists',
  ],
  method: 'GET',
  path: '/v1/watch-lists',
  input: z.strictObject({
    kind: watchListKind.optional().describe('Only lists of this kind.'),
    pageSize: z.coerce.number().int().min(1).max(100).default(25).describe('Lists per page: default 25, at most 100.'),
    cursor,
  }),
  output: z.object({ data: z.array(watchListView), nextCursor: z.string().nullable() }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { pageSize: 25 },
  workflow: { before: [], after: ['getWatchList', 'listWatchListChanges'] },
});
