import { z } from 'zod';
import { defineOperation } from '../../define.js';
import { exclusionListIds } from '../../schemas/common.js';
import { currentCompanies, peopleSearchParams } from '../../schemas/filters.js';
import { countOutput } from '../company-count/definition.js';

export const peopleCount = defineOperation({
  operationId: 'peopleCount',
  title: 'Count people',
  summary: 'Count the people (prospects, leads) matching people-search filters, before paying for profiles; 1 credit.',
  description:
    'Takes exactly the input of peopleSearch (searchParams, currentCompanies, prospectExclusionListIDs, companyExclusionListIDs) and answers how many profiles match, without returning them. ' +
    'Use it to size an audience or check a title filter before spending credits. Exact up to exactUpTo (1,000); larger counts, or counts that would take too long, ' +
    'are estimates marked exact: false. Costs 1 credit per call, even when the count is 0.',
  category: 'search',
  keywords: [
    'count',
    'how many',
    'number of',
    'total',
    'size',
    'sizing',
    'estimate',
    'volume',
    'prospects',
    'leads',
    'titles',
    'before spending',
    'preview',
    'reach',
    'tally',
    'audience size',
    'how many people',
    'pool',
    'universe',
    'how big',
    'ballpark',
    'approximate',
    'persona',
    'numbers only',
  ],
  method: 'POST',
  path: '/v1/people-search/count',
  input: z.strictObject({
    searchParams: peopleSearchParams,
    currentCompanies: currentCompanies('Count only people currently at any of these companies.'),
    prospectExclusionListIDs: exclusionListIds('People on these prospect exclusion lists are not counted.'),
    companyExclusionListIDs: exclusionListIds(
      'People currently at companies on these company exclusion lists are not counted.',
    ),
  }),
  output: countOutput,
  credits: {
    unit: 'peopleCount',
    charged: 'now',
    rule: '1 credit per request, whatever the count (0 included).',
    worstCase: () => 1,
    example: 'Counting VPs of Sales in the USA costs 1 credit, whether 12,000 or 0 match.',
  },
  rateLimitClass: 'search',
  readOnly: true,
  destructive: false,
  idempotent: false,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { searchParams: { jobTitleV2: { included: ['VP of Sales'], excluded: [] }, country3LetterCode: ['USA'] } },
  workflow: { before: ['companyCount'], after: ['peopleSearch', 'createAudience', 'createSavedSearch'] },
});
