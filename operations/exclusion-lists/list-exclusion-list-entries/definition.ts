import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { cursor, isoTimestamp } from '../../schemas/common.js';
import { exclusionListId, exclusionListKind } from '../../schemas/exclusion-lists.js';

export const listExclusionListEntries = defineOperation({
  operationId: 'listExclusionListEntries',
  title: "Read an exclusion list's entries",
  summary: 'Page through the entries of an exclusion list, each as it was given, with whether it matched a record.',
  description:
    'Returns the entries of one exclusion list in the order they were added, cursor-paged: a company reference (domain, networkSlugOrURL, name, networkOrgID) ' +
    'or a profile URL, whether it matched a catalog record and how many. onlyUnmatched=true lists only the entries that matched nothing. Free.',
  category: 'account',
  keywords: [
    'exclusion',
    'list',
    'entries',
    'items',
    'contents',
    'members',
    'read',
    'view',
    'unmatched',
    'suppression',
    'what is in',
    'browse',
    'what is on',
    'who is on',
    'entries of',
    'unmatched entries',
  ],
  method: 'GET',
  path: '/v1/exclusion-lists/{exclusionListId}/entries',
  input: z.strictObject({
    exclusionListId,
    onlyUnmatched: z
      .enum(['true', 'false'])
      .transform((v) => v === 'true')
      .optional()
      .describe('true: only entries that matched no record.'),
    pageSize: z.coerce
      .number()
      .int()
      .min(1)
      .max(1000)
      .default(100)
      .describe('Entries per page: default 100, at most 1000.'),
    cursor,
  }),
  output: z.object({
    exclusionListId: z.string(),
    kind: exclusionListKind,
    data: z.array(
      z.object({
        entryId: z.string(),
        company: z.record(z.string(), z.string()).nullable().describe('For a companies list: the reference as given.'),
        prospect: z.string().nullable().describe('For a prospects list: the profile URL or slug as given.'),
        matched: z.boolean(),
        matchedRecords: z.number().int(),
        addedAt: isoTimestamp,
      }),
    ),
    nextCursor: z.string().nullable(),
  }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { exclusionListId: '1', pageSize: 100 },
  workflow: { before: ['listExclusionLists'], after: ['removeExclusionListEntries', 'addExclusionListEntries'] },
});
