import { z } from 'zod';
import { isoTimestamp, resourceId } from './common.js';

export const exclusionListId = resourceId('exclusionListId').describe(
  'The exclusionListId returned when the list was created (listExclusionLists lists them).',
);
export const exclusionListKind = z.enum(['companies', 'prospects']);

export const exclusionListSummary = z.object({
  exclusionListId: z.string(),
  name: z.string(),
  kind: exclusionListKind,
  size: z.number().int().describe('Catalog records the list excludes (what its entries matched).'),
  entries: z.number().int().describe('Entries kept, matched or not.'),
  unmatchedEntries: z.number().int().describe('Entries that matched no record (kept, and excluding nothing).'),
  createdAt: isoTimestamp,
});
