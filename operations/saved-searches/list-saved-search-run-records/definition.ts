import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { cursor, queryPageSize } from '../../schemas/common.js';
import { savedSearchId, savedSearchKind, savedSearchRecord, savedSearchRunId } from '../../schemas/saved-searches.js';

export const listSavedSearchRunRecords = defineOperation({
  operationId: 'listSavedSearchRunRecords',
  title: "Read a saved-search run's records",
  summary:
    'Page through the new records a saved-search run found (onlyNew), or the whole list as it stood after the run; free.',
  description:
    'With onlyNew=true (default): the records this run delivered. With onlyNew=false: every record this run and the earlier runs delivered, each marked isNew. ' +
    "Companies or people by the saved search's kind, in catalog order, cursor-paged. Free: the run paid for them.",
  category: 'search',
  keywords: [
    'saved search',
    'run',
    'records',
    'results',
    'new',
    'new records',
    'what is new',
    'matches',
    'found',
    'read',
    'page',
    'browse',
    'newcomers',
    'what did it find',
    'hits',
    'delivered',
    'latest run',
    'last run',
  ],
  method: 'GET',
  path: '/v1/saved-searches/{savedSearchId}/runs/{runId}/records',
  input: z.strictObject({
    savedSearchId,
    runId: savedSearchRunId,
    onlyNew: z
      .enum(['true', 'false'])
      .default('true')
      .transform((v) => v === 'true')
      .describe(
        'true (default): only the records this run delivered; false: the whole list as it stood after this run.',
      ),
    pageSize: queryPageSize,
    cursor,
  }),
  output: z.object({
    runId: z.string(),
    kind: savedSearchKind,
    data: z.array(savedSearchRecord),
    nextCursor: z.string().nullable(),
  }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { savedSearchId: '1', runId: '1', onlyNew: 'true', pageSize: 25 },
  workflow: { before: ['getSavedSearchRun'], after: ['createAudience', 'revealContactSync'] },
});
