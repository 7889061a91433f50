import { z } from 'zod';
import { defineOperation, free } from '../define.js';
import { inputLimits, profileUrl } from '../schemas/common.js';
import { currentCompany } from '../schemas/filters.js';

export const createExclusionList = defineOperation({
  operationId: 'createExclusionList',
  title: 'Create an exclusion list',
  summary: 'Save a list of companies or prospects to leave out of searches (for example existing customers).',
  description:
    'Creates an exclusion list of companies (identified like currentCompanies entries) or of prospects (by profile URL or slug). ' +
    'Pass its exclusionListId in companyExclusionListIDs or prospectExclusionListIDs of a search. Entries that match nothing are reported in unmatched. Free.',
  category: 'account',
  keywords: ['exclusion', 'exclude', 'suppression', 'suppress', 'blocklist', 'blacklist', 'do not contact', 'customers', 'skip', 'remove', 'dedupe', 'list', 'people', 'dnc', 'existing'],
  method: 'POST',
  path: '/v1/exclusion-lists',
  input: z
    .strictObject({
      name: z.string().max(inputLimits.nameLength).trim().min(1).describe('Display name.'),
      kind: z.enum(['companies', 'prospects']).describe('What the list holds.'),
      companies: z.array(currentCompany).max(10_000).optional().describe('For kind companies: the companies to exclude.'),
      prospects: z.array(profileUrl).max(10_000).optional().describe('For kind prospects: profile URLs or slugs of the people to exclude.'),
    })
    .refine((list) => (list.kind === 'companies' ? list.prospects === undefined : list.companies === undefined), {
      message: 'a companies list takes companies, a prospects list takes prospects',
      path: ['kind'],
    }),
  output: z.object({
    exclusionListId: z.string(),
    name: z.string(),
    kind: z.enum(['companies', 'prospects']),
    size: z.number().int().describe('Entries matched and stored.'),
    unmatched: z.array(z.number().int()).describe('Positions (0-based) of entries that matched nothing.'),
    createdAt: z.string(),
  }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: false,
  destructive: false,
  idempotent: false,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { name: 'Existing customers', kind: 'companies', companies: [{ domain: 'example.com' }] },
  workflow: { before: [], after: ['companySearch', 'peopleSearch'] },
});
