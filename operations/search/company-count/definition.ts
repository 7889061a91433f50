import { z } from 'zod';
import { defineOperation } from '../../define.js';
import { exclusionListIds } from '../../schemas/common.js';
import { companySearchParams } from '../../schemas/filters.js';

export const countOutput = z.object({
  count: z
    .number()
    .int()
    .nonnegative()
    .describe('How many records match (exact when exact is true, else an estimate).'),
  exact: z
    .boolean()
    .describe(
      "True: counted one by one. False: the count passed exactUpTo, or counting took too long, and count is the database planner's estimate (never below exactUpTo + 1 when the bound was passed).",
    ),
  exactUpTo: z.number().int().describe('Counts up to this many are exact.'),
});

export const companyCount = defineOperation({
  operationId: 'companyCount',
  title: 'Count companies',
  summary: 'Count the companies matching company-search filters, to size a market before paying for records; 1 credit.',
  description:
    'Takes exactly the filters of companySearch (searchParams, companyExclusionListIDs) and answers how many companies match, without returning them. ' +
    'Use it to size a market or check filters before spending credits on companySearch or an audience build. ' +
    'Exact up to exactUpTo (1,000); larger counts, or counts that would take too long, are estimates marked exact: false. Costs 1 credit per call, even when the count is 0.',
  category: 'search',
  keywords: [
    'count',
    'how many',
    'number of',
    'total',
    'size',
    'market size',
    'tam',
    'sizing',
    'estimate',
    'volume',
    'companies',
    'company',
    'before spending',
    'preview',
    'quantity',
    'tally',
    'universe',
    'addressable market',
    'how big',
    'ballpark',
    'approximate',
    'numbers only',
    'before searching',
  ],
  method: 'POST',
  path: '/v1/company-count',
  input: z.strictObject({
    searchParams: companySearchParams,
    companyExclusionListIDs: exclusionListIds('Companies on these exclusion lists are not counted.'),
  }),
  output: countOutput,
  credits: {
    unit: 'companyCount',
    charged: 'now',
    rule: '1 credit per request, whatever the count (0 included).',
    worstCase: () => 1,
    example: 'A count of 48,000 US software companies costs 1 credit; so does a count of 0.',
  },
  rateLimitClass: 'search',
  readOnly: true,
  destructive: false,
  idempotent: false,
  openWorld: false,
  confirmation: 'above-threshold',
  example: {
    searchParams: {
      industriesV2: ['software-development'],
      headquartersCountryCode: ['US'],
      employeeCountV2: { min: 51, max: 500 },
    },
  },
  workflow: {
    before: ['listIndustries', 'listRegions'],
    after: ['companySearch', 'createAudience', 'createSavedSearch'],
  },
});
