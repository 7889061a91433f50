import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { profileUrl, resourceId } from '../../schemas/common.js';
import { exclusionListId, exclusionListSummary } from '../../schemas/exclusion-lists.js';
import { currentCompany } from '../../schemas/filters.js';

export const removeExclusionListEntries = defineOperation({
  operationId: 'removeExclusionListEntries',
  title: 'Remove entries from an exclusion list',
  summary:
    'Take entries off an exclusion list, by entryId or by the same company reference or profile URL, so those records are searchable again.',
  description:
    'Removes entries given by entryId (from listExclusionListEntries) or by reference (a company as given when added, written any way search accepts; a profile URL or slug). ' +
    'Records no remaining entry of the list matches are no longer excluded. notFound counts what was not in the list. Free.',
  category: 'account',
  keywords: [
    'exclusion',
    'remove',
    'delete',
    'take off',
    'unsuppress',
    'entries',
    'allow',
    'un-exclude',
    'drop',
    'list',
    'allow again',
    'show up again',
    'no longer a customer',
    'unblock',
    'whitelist',
  ],
  method: 'POST',
  path: '/v1/exclusion-lists/{exclusionListId}/entries/remove',
  input: z.strictObject({
    exclusionListId,
    entryIds: z.array(resourceId('entryId')).max(10_000).optional().describe('Entries by entryId.'),
    companies: z.array(currentCompany).max(10_000).optional().describe('For a companies list: entries by reference.'),
    prospects: z
      .array(profileUrl)
      .max(10_000)
      .optional()
      .describe('For a prospects list: entries by profile URL or slug.'),
  }),
  output: exclusionListSummary.extend({ removed: z.number().int(), notFound: z.number().int() }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: false,
  destructive: true,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { exclusionListId: '1', companies: [{ domain: 'example.com' }] },
  workflow: { before: ['listExclusionListEntries'], after: ['listExclusionLists'] },
});
