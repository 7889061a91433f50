import { z } from 'zod';
import { defineOperation } from '../../define.js';

export const companyTypeahead = defineOperation({
  operationId: 'companyTypeahead',
  title: 'Suggest companies by name',
  summary:
    'Autocomplete company names from the first letters typed: id, name, domain, network slug and headcount range; 1 credit.',
  description:
    'Returns the companies whose name starts with query (case-insensitive), in name order, up to limit. Each suggestion has the domain and network slug to put ' +
    'in currentCompanies, domains or networkSlugs filters, or an exclusion list. Costs 1 credit per request, whatever it finds.',
  category: 'search',
  keywords: [
    'typeahead',
    'autocomplete',
    'auto-complete',
    'suggest',
    'suggestions',
    'as you type',
    'typing',
    'types',
    'complete',
    'lookup',
    'company name',
    'starts with',
    'prefix',
    'resolve',
    'which company',
    'picker',
    'dropdown',
    'domain of',
    'slug of',
    'name prefix',
    'complete the name',
    'match a name',
    'find the domain',
    'company id',
    'exact company',
  ],
  method: 'GET',
  path: '/v1/typeahead/companies',
  input: z.strictObject({
    query: z
      .string()
      .trim()
      .min(1, 'expected at least one character')
      .max(100)
      .describe('The start of a company name.'),
    limit: z.coerce.number().int().min(1).max(50).default(10).describe('Suggestions: default 10, at most 50.'),
  }),
  output: z.object({
    data: z.array(
      z.object({
        companyId: z.string(),
        name: z.string(),
        domain: z.string().nullable(),
        networkSlug: z.string().nullable(),
        employeeCount: z.object({ min: z.number().nullable(), max: z.number().nullable() }),
      }),
    ),
  }),
  credits: {
    unit: 'typeahead',
    charged: 'now',
    rule: '1 credit per request, whatever it finds.',
    worstCase: () => 1,
    example: 'Each keystroke sent costs 1 credit: debounce, and send 2 or more letters.',
  },
  rateLimitClass: 'standard',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { query: 'acme', limit: 10 },
  workflow: { before: [], after: ['peopleSearch', 'companySearch', 'addExclusionListEntries'] },
});
