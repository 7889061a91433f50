import { z } from 'zod';
import { defineOperation } from '../define.js';
import { cursor, exclusionListIds, pageSize } from '../schemas/common.js';
import { companySearchParams } from '../schemas/filters.js';
import { companyRecord } from '../schemas/records.js';

export const companySearch = defineOperation({
  operationId: 'companySearch',
  title: 'Search companies',
  summary: 'Find companies in the database by industry, location, headcount, funding, keywords and more.',
  description:
    'Searches about 47 million company records with filters combined by AND, one page at a time. ' +
    'Charges 1 credit per company returned, so use a small pageSize to explore. Page with the returned ' +
    'nextCursor and keep searchParams identical between pages (a cursor sent with other filters is refused with cursor_mismatch).',
  category: 'search',
  keywords: [
    'company', 'companies', 'organization', 'organisation', 'business', 'firm', 'account', 'accounts', 'find', 'search',
    'lookup', 'list', 'filter', 'industry', 'headcount', 'employees', 'funding', 'series', 'startup', 'headquarters',
    'location', 'country', 'domain', 'firmographic', 'tam', 'market', 'businesses', 'vendors', 'suppliers',
    'target accounts', 'lookalike', 'similar companies', 'brands', 'agencies', 'manufacturers', 'providers', 'sector',
    'vertical', 'revenue', 'raised', 'investors', 'founded', 'hq', 'prospecting',
  ],
  method: 'POST',
  path: '/v1/company-search',
  input: z.strictObject({
    searchParams: companySearchParams,
    pageSize,
    cursor,
    companyExclusionListIDs: exclusionListIds('Companies on these exclusion lists are removed from results.'),
  }),
  output: z.object({
    data: z.array(companyRecord),
    nextCursor: z.string().nullable().describe('Null when there are no more results.'),
  }),
  credits: {
    unit: 'getCompanyFromDb',
    charged: 'now',
    rule: '1 credit per company returned.',
    worstCase: (input) => input.pageSize ?? 25,
    example: 'A page of 25 companies costs 25 credits; a last page of 7 costs 7; an empty page costs nothing.',
  },
  rateLimitClass: 'search',
  readOnly: true,
  destructive: false,
  idempotent: false,
  openWorld: false,
  confirmation: 'above-threshold',
  example: {
    searchParams: { industriesV2: ['software-development'], headquartersCountryCode: ['US'], employeeCountV2: { min: 51, max: 500 } },
    pageSize: 25,
  },
  workflow: { before: ['listIndustries', 'listRegions', 'getCreditBalance'], after: ['peopleSearch', 'liveEnrichCompany', 'createAudience'] },
});
