import { z } from 'zod';
import { defineOperation } from '../../define.js';
import { cursor, exclusionListIds, pageSize } from '../../schemas/common.js';
import { currentCompanies, peopleSearchParams } from '../../schemas/filters.js';
import { personSeeds, personTraits, similarity, unresolvedSeeds } from '../../schemas/lookalikes.js';
import { profileRecord } from '../../schemas/records.js';

export const findSimilarPeople = defineOperation({
  operationId: 'findSimilarPeople',
  title: 'Find similar people (lookalikes)',
  summary:
    'Find people like the ones given (a champion, the buyers who signed): same job function at companies like theirs, ranked by title words, seniority, company industry and size, country.',
  description:
    'Takes 1 to 100 seed people (profileUrl, slug or id) and answers people like them, most similar first, as peopleSearch returns profiles, with similarity (0 to 1) and sharedTraits. ' +
    "They are in the seeds' job functions at companies like the seeds' companies, or at currentCompanies (the same buyer at these accounts); excludeSeedCompanies leaves out the seeds' own. " +
    'Seeds are never returned; unresolvedSeeds lists those that name no one. 1 credit per profile returned. Page with nextCursor.',
  category: 'search',
  keywords: [
    'lookalike',
    'lookalikes',
    'look alike',
    'similar',
    'similar people',
    'similar to',
    'people like',
    'prospects like',
    'more like',
    'same role',
    'same buyer',
    'buyer persona',
    'champion',
    'counterparts',
    'peers',
    'equivalent',
    'find more',
  ],
  method: 'POST',
  path: '/v1/people/similar',
  input: z.strictObject({
    seeds: personSeeds,
    // A few of peopleSearch's filters: the seeds already say the title, function and kind of company.
    searchParams: peopleSearchParams
      .pick({
        country3LetterCode: true,
        seniority: true,
        yearsOfExperience: true,
        getDetailedEducation: true,
        getDetailedWorkExperience: true,
      })
      .prefault({})
      .describe("peopleSearch's country, seniority and experience filters, and its detail switches."),
    currentCompanies: currentCompanies(
      'Restrict to people currently at any of these companies (the same buyer at these accounts).',
    ),
    excludeSeedCompanies: z
      .boolean()
      .default(false)
      .describe("Leave out people at the seeds' own companies. Default false."),
    prospectExclusionListIDs: exclusionListIds('People on these prospect exclusion lists are removed.'),
    companyExclusionListIDs: exclusionListIds(
      'People currently at companies on these company exclusion lists are removed.',
    ),
    pageSize,
    cursor,
  }),
  output: z.object({
    data: z.array(profileRecord.extend({ similarity, sharedTraits: z.array(personTraits) })),
    nextCursor: z.string().nullable().describe('Null when there are no more results.'),
    unresolvedSeeds,
  }),
  credits: {
    unit: 'getPersonFromDb',
    charged: 'now',
    rule: '1 credit per profile returned, as peopleSearch.',
    worstCase: (input) => input.pageSize ?? 25,
    example: 'A page of 25 lookalike profiles costs 25 credits; an empty page costs nothing.',
  },
  rateLimitClass: 'search',
  readOnly: true,
  destructive: false,
  idempotent: false,
  openWorld: false,
  confirmation: 'above-threshold',
  example: {
    seeds: [{ profileUrl: 'https://network.example.com/in/jane-doe' }],
    currentCompanies: [{ domain: 'example.com' }],
    excludeSeedCompanies: true,
    pageSize: 25,
  },
  workflow: {
    before: ['matchPeople', 'peopleSearch', 'findSimilarCompanies'],
    after: ['revealContactSync', 'liveEnrichPerson', 'createAudience'],
  },
});
