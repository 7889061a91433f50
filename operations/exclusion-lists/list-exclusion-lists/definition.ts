import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { cursor } from '../../schemas/common.js';
import { exclusionListKind, exclusionListSummary } from '../../schemas/exclusion-lists.js';

export const listExclusionLists = defineOperation({
  operationId: 'listExclusionLists',
  title: 'List exclusion lists',
  summary: "List the account's exclusion (suppression, do-not-contact) lists with their sizes, newest first.",
  description:
    "Pages through the account's exclusion lists of companies and of prospects, newest first, each with its size (records excluded), entries and unmatched entries. " +
    'Use their ids in companyExclusionListIDs and prospectExclusionListIDs of searches, counts, saved searches and audience filters. Free.',
  category: 'account',
  keywords: [
    'exclusion',
    'exclusions',
    'lists',
    'suppression',
    'suppressions',
    'do not contact',
    'dnc',
    'my lists',
    'existing',
    'customers',
    'crm',
    'all',
    'show',
    'my blocklists',
    'suppression lists',
    'dnc lists',
    'blocklists',
  ],
  method: 'GET',
  path: '/v1/exclusion-lists',
  input: z.strictObject({
    kind: exclusionListKind.optional().describe('Only lists of this kind.'),
    pageSize: z.coerce.number().int().min(1).max(100).default(25).describe('Lists per page: default 25, at most 100.'),
    cursor,
  }),
  output: z.object({ data: z.array(exclusionListSummary), nextCursor: z.string().nullable() }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { pageSize: 25 },
  workflow: { before: [], after: ['listExclusionListEntries', 'companySearch', 'peopleSearch'] },
});
