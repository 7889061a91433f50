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
    'Takes 1 to 100 seed companies (domain, slug or id) and answers companies like them, most similar first, as companySearch returns them, with similarity (0 to 1) and sharedTraits. ' +
    "Results share the seeds' industry groups and size bands; searchParams and companyExclusionListIDs narrow them. " +
    'Seeds are never returned; unresolvedSeeds lists those that name none. 1 credit per company returned. Page with nextCursor.',
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
    // The filters that narrow a likeness: the seeds already say the industry and the size.
    searchParams: companySearchParams
      .pick({
        keywords: true,
        headquartersCountryCode: true,
        headquartersStateName: true,
        headquartersLocation: true,
        totalFundingUSD: true,
        stage: true,
      })
      .prefault({})
      .describe("companySearch's keyword, headquarters, funding and stage filters."),
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
