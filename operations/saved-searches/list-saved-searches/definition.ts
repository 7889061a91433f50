import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { cursor } from '../../schemas/common.js';
import { savedSearchView } from '../../schemas/saved-searches.js';

export const listSavedSearches = defineOperation({
  operationId: 'listSavedSearches',
  title: 'List saved searches',
  summary: "List the account's saved searches (watched searches, alerts) with their schedules, newest first.",
  description:
    'Pages through the saved searches of the account, newest first, with their filters, schedule, cap per run and next scheduled run. Free.',
  category: 'search',
  keywords: [
    'saved searches',
    'saved',
    'watches',
    'monitors',
    'alerts',
    'subscriptions',
    'my',
    'all',
    'schedules',
    'recurring',
    'list',
    'show',
    'my alerts',
    'trackers',
    'watching',
    'watchlist',
    'tracking',
  ],
  method: 'GET',
  path: '/v1/saved-searches',
  input: z.strictObject({
    pageSize: z.coerce
      .number()
      .int()
      .min(1)
      .max(100)
      .default(25)
      .describe('Saved searches per page: default 25, at most 100.'),
    cursor,
  }),
  output: z.object({ data: z.array(savedSearchView), nextCursor: z.string().nullable() }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { pageSize: 25 },
  workflow: { before: [], after: ['getSavedSearch', 'listSavedSearchRuns'] },
});
