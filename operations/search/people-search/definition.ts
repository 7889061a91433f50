import { z } from 'zod';
import { defineOperation } from '../../define.js';
import { cursor, exclusionListIds, pageSize } from '../../schemas/common.js';
import { currentCompany, peopleSearchParams } from '../../schemas/filters.js';
import { profileRecord } from '../../schemas/records.js';

export const peopleSearch = defineOperation({
  operationId: 'peopleSearch',
  title: 'Search people',
  summary:
    'Find professional profiles (prospects, leads, contacts) by job title, country, experience, tags, education or current company.',
  description:
    'Searches about 847 million professional profiles with filters combined by AND, one page at a time. ' +
    'jobTitleV2.included titles are OR-matched and excluded titles are always suppressed. Restrict to people at given ' +
    'companies with currentCompanies (domain, slug or URL, name, or numeric org ID). Charges 1 credit per profile returned. ' +
    'Detailed education and work history are filled only when asked, at the cost of latency and size.',
  category: 'search',
  keywords: [
    'people',
    'person',
    'persons',
    'prospect',
    'prospects',
    'lead',
    'leads',
    'contact',
    'contacts',
    'employee',
    'employees',
    'profile',
    'profiles',
    'candidate',
    'decision',
    'maker',
    'job',
    'title',
    'role',
    'who',
    'works',
    'staff',
    'find',
    'search',
    'vp',
    'director',
    'cto',
    'ceo',
    'engineer',
    'sales',
    'marketing',
    'executive',
    'founder',
    'founders',
    'head',
    'manager',
    'hire',
    'decision makers',
    'buyers',
    'stakeholders',
    'personas',
    'team',
    'talent',
    'alumni',
    'seniority',
    'department',
    'experience',
    'skills',
    'c-level',
    'in charge',
    'names',
    'working at',
  ],
  method: 'POST',
  path: '/v1/people-search',
  input: z.strictObject({
    searchParams: peopleSearchParams,
    currentCompanies: z
      .array(currentCompany)
      .max(1000)
      .optional()
      .describe('Restrict to people currently at any of these companies.'),
    prospectExclusionListIDs: exclusionListIds('People on these prospect exclusion lists are removed.'),
    companyExclusionListIDs: exclusionListIds(
      'People currently at companies on these company exclusion lists are removed.',
    ),
    pageSize,
    cursor,
  }),
  output: z.object({
    data: z.array(profileRecord),
    nextCursor: z.string().nullable().describe('Null when there are no more results.'),
  }),
  credits: {
    unit: 'getPersonFromDb',
    charged: 'now',
    rule: '1 credit per profile returned.',
    worstCase: (input) => input.pageSize ?? 25,
    example: 'A page of 25 profiles costs 25 credits; an empty page costs nothing.',
  },
  rateLimitClass: 'search',
  readOnly: true,
  destructive: false,
  idempotent: false,
  openWorld: false,
  confirmation: 'above-threshold',
  example: {
    searchParams: {
      jobTitleV2: { included: ['VP of Sales', 'Head of Sales'], excluded: ['Assistant'] },
      country3LetterCode: ['USA'],
    },
    currentCompanies: [{ domain: 'example.com' }],
    pageSize: 25,
  },
  workflow: {
    before: ['companySearch', 'getCreditBalance'],
    after: ['revealContactSync', 'liveEnrichPerson', 'createAudience'],
  },
});
