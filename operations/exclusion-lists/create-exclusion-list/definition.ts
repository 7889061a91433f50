import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { inputLimits, profileUrl } from '../../schemas/common.js';
import { exclusionListSummary } from '../../schemas/exclusion-lists.js';
import { currentCompany } from '../../schemas/filters.js';

export const createExclusionList = defineOperation({
  operationId: 'createExclusionList',
  title: 'Create an exclusion list',
  summary: 'Save a list of companies or prospects to leave out of searches (for example existing customers).',
  description:
    'Creates an exclusion list of companies (identified like currentCompanies entries) or of prospects (by profile URL or slug). ' +
    'Entries are matched the way search matches (domain normalised, network slug or company URL, exact name, org ID; a profile URL or slug). ' +
    "Pass its exclusionListId in companyExclusionListIDs or prospectExclusionListIDs of a search, a count, a saved search or an audience's filters. " +
    'Entries that match nothing are kept and reported in unmatched. Add or remove entries later with addExclusionListEntries and removeExclusionListEntries. Free.',
  category: 'account',
  keywords: [
    'exclusion',
    'exclude',
    'suppression',
    'suppress',
    'blocklist',
    'blacklist',
    'do not contact',
    'customers',
    'skip',
    'remove',
    'dedupe',
    'list',
    'people',
    'dnc',
    'existing',
    'never contact',
    'customer list',
    'do not prospect',
    'skip in results',
    'upload customers',
    'new exclusion list',
  ],
  method: 'POST',
  path: '/v1/exclusion-lists',
  input: z
    .strictObject({
      name: z.string().max(inputLimits.nameLength).trim().min(1).describe('Display name.'),
      kind: z.enum(['companies', 'prospects']).describe('What the list holds.'),
      companies: z
        .array(currentCompany)
        .max(10_000)
        .optional()
        .describe('For kind companies: the companies to exclude.'),
      prospects: z
        .array(profileUrl)
        .max(10_000)
        .optional()
        .describe('For kind prospects: profile URLs or slugs of the people to exclude.'),
    })
    .refine((list) => (list.kind === 'companies' ? list.prospects === undefined : list.companies === undefined), {
      message: 'a companies list takes companies, a prospects list takes prospects',
      path: ['kind'],
    }),
  output: exclusionListSummary.extend({
    unmatched: z
      .array(z.number().int())
      .describe('Positions (0-based) of entries that matched nothing (kept all the same).'),
  }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: false,
  destructive: false,
  idempotent: false,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { name: 'Existing customers', kind: 'companies', companies: [{ domain: 'example.com' }] },
  workflow: {
    before: ['listExclusionLists'],
    after: ['addExclusionListEntries', 'companySearch', 'peopleSearch', 'updateAudienceSearchParams'],
  },
});
