import { z } from 'zod';
import { defineOperation } from '../../define.js';
import { cursor, exclusionListIds, pageSize } from '../../schemas/common.js';
import { companySearchParams } from '../../schemas/filters.js';
import { companySeeds, companyTraits, similarity, unresolvedSeeds } from '../../schemas/lookalikes.js';
import { companyRecord } from '../../schemas/records.js';

export const findSimilarCompanies = defineOperation({
  operationId: 'findSimilarCompanies',
  title: 'Find similar companies (lookalikes)',
  summary:
    'Find companies like the ones given (best customers, won deals): same industry group and size band, ranked by industry, size, country, funding stage and description words.',
  description:
    'Takes 1 to 100 seed companies, each by domain, slug or id (the last_sort_key of a record), and answers companies like them, most similar first, one page at a time: records as companySearch returns them, each with similarity (0 to 1) and sharedTraits (industry or industryGroup, sizeBand, country, stage, descriptionTerms). ' +
    "Results come from the seeds' industry groups and size bands; the seeds themselves are never returned. searchParams (companySearch's filters) and companyExclusionListIDs narrow them further. " +
    'A seed that names no company is listed in unresolvedSeeds and the others are used; when none resolves the call is refused. ' +
    'Charges 1 credit per company returned. Page with nextCursor, keeping seeds and filters identical.',
  category: 'search',
  keywords: [
    'lookalike',
    'lookalikes',
    'look alike',
    'look-alike',
    'similar',
    'similar companies',
    'similar to',
    'companies like',
    'like these',
    'more like',
    'best customers',
    'ideal customer profile',
    'icp',
    'seed accounts',
    'peers',
    'competitors',
    'expand',
    'find more',
  ],
  method: 'POST',
  path: '/v1/companies/similar',
  input: z.strictObject({
    seeds: companySeeds,
    searchParams: companySearchParams.prefault({}),
    pageSize,
    cursor,
    companyExclusionListIDs: exclusionListIds('Companies on these exclusion lists are removed from results.'),
  }),
  output: z.object({
    data: z.array(companyRecord.extend({ similarity, sharedTraits: z.array(companyTraits) })),
    nextCursor: z.string().nullable().describe('Null when there are no more results.'),
    unresolvedSeeds,
  }),
  credits: {
    unit: 'getCompanyFromDb',
    charged: 'now',
    rule: '1 credit per company returned, as companySearch.',
    worstCase: (input) => input.pageSize ?? 25,
    example: 'A page of 25 lookalikes costs 25 credits; an unresolved seed or an empty page costs nothing.',
  },
  rateLimitClass: 'search',
  readOnly: true,
  destructive: false,
  idempotent: false,
  openWorld: false,
  confirmation: 'above-threshold',
  example: {
    seeds: [{ domain: 'acme.com' }, { slug: 'globex' }],
    searchParams: { headquartersCountryCode: ['US', 'CA'] },
    pageSize: 25,
  },
  workflow: {
    before: ['matchCompanies', 'companySearch', 'getCreditBalance'],
    after: ['findSimilarPeople', 'peopleSearch', 'createAudience'],
  },
});
