import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { profileUrl } from '../../schemas/common.js';
import { exclusionListId, exclusionListSummary } from '../../schemas/exclusion-lists.js';
import { currentCompany } from '../../schemas/filters.js';

export const addExclusionListEntries = defineOperation({
  operationId: 'addExclusionListEntries',
  title: 'Add entries to an exclusion list',
  summary:
    'Add companies or prospects to an existing exclusion list (a CRM sync, new customers); unmatched ones are kept and reported.',
  description:
    'Adds up to 10,000 entries to a list: companies (like currentCompanies entries) to a companies list, profile URLs or slugs to a prospects list. ' +
    'Entries are matched the way search matches; one that matches nothing is kept and reported in unmatched, one already in the list in duplicates. Free.',
  category: 'account',
  keywords: [
    'exclusion',
    'add',
    'append',
    'insert',
    'entries',
    'suppress',
    'exclude',
    'sync',
    'crm',
    'customers',
    'do not contact',
    'update list',
    'add domains',
    'add companies',
    'blocklist',
    'also exclude',
    'sync crm',
    'more entries',
  ],
  method: 'POST',
  path: '/v1/exclusion-lists/{exclusionListId}/entries',
  input: z.strictObject({
    exclusionListId,
    companies: z.array(currentCompany).max(10_000).optional().describe('For a companies list: the companies to add.'),
    prospects: z
      .array(profileUrl)
      .max(10_000)
      .optional()
      .describe('For a prospects list: profile URLs or slugs to add.'),
  }),
  output: exclusionListSummary.extend({
    added: z.number().int(),
    duplicates: z.array(z.number().int()).describe('Positions (0-based) of given entries already in the list.'),
    unmatched: z
      .array(z.number().int())
      .describe('Positions (0-based) of given entries that matched nothing (kept all the same).'),
  }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: false,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: {
    exclusionListId: '1',
    companies: [{ domain: 'example.com' }, { networkSlugOrURL: 'https://network.example.com/company/acme' }],
  },
  workflow: {
    before: ['createExclusionList', 'listExclusionLists'],
    after: ['listExclusionListEntries', 'companySearch', 'peopleSearch'],
  },
});
