import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { audienceId } from '../../schemas/audiences.js';
import { exclusionListIds } from '../../schemas/common.js';
import { companySearchParams, peopleSearchParams } from '../../schemas/filters.js';

export const updateAudienceSearchParams = defineOperation({
  operationId: 'updateAudienceSearchParams',
  title: 'Set audience filters',
  summary: 'Store the company and prospect filters and caps of a DRAFT audience; step 2 of the audience workflow.',
  description:
    'Sets the filters an audience is built from: companySearchParams (same schema as companySearch, used when creationMethod is NORMAL), ' +
    'prospectSearchParams (same schema as peopleSearch), maxCompanies (default 1000) and maxProspects (default 10000). ' +
    'companyExclusionListIDs and prospectExclusionListIDs leave out what exclusion lists hold (companies already in a CRM, people already contacted): set them before building. ' +
    'Only while the audience is DRAFT; after a build, create a new audience to use other filters. Free.',
  category: 'audience',
  keywords: [
    'audience',
    'filters',
    'exclusion lists',
    'criteria',
    'search params',
    'set',
    'update',
    'configure',
    'define',
    'targeting',
    'icp',
    'ideal customer profile',
    'narrow',
    'restrict',
    'change criteria',
    'edit filters',
    'include',
    'apply',
    'titles',
    'caps',
    'max companies',
    'max prospects',
  ],
  method: 'PATCH',
  path: '/v1/audiences/{audienceId}/search-params',
  input: z.strictObject({
    audienceId,
    companySearchParams: companySearchParams.optional(),
    prospectSearchParams: peopleSearchParams.optional(),
    maxCompanies: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .default(1000)
      .describe('Cap on companies in the build (default 1000).'),
    maxProspects: z
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .default(10_000)
      .describe('Cap on prospects in the build (default 10000).'),
    companyExclusionListIDs: exclusionListIds(
      'Companies on these lists are left out of the build, and so are the people at them.',
    ),
    prospectExclusionListIDs: exclusionListIds('People on these prospect lists are left out of the build.'),
  }),
  output: z.object({
    audienceId: z.string(),
    audienceSearchLogicId: z.string(),
    companySearchParams: z.record(z.string(), z.unknown()).nullable(),
    prospectSearchParams: z.record(z.string(), z.unknown()).nullable(),
    maxCompanies: z.number().int(),
    maxProspects: z.number().int(),
    companyExclusionListIDs: z.array(z.string()),
    prospectExclusionListIDs: z.array(z.string()),
  }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: false,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: {
    audienceId: '1',
    companySearchParams: { industriesV2: ['software-development'], headquartersCountryCode: ['US'] },
    prospectSearchParams: { jobTitleV2: { included: ['VP of Sales'], excluded: [] } },
    maxCompanies: 100,
    maxProspects: 500,
  },
  workflow: { before: ['createAudience', 'listExclusionLists', 'companyCount'], after: ['buildAudience'] },
});
