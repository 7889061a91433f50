import { z } from 'zod';
import { defineOperation, free } from '../../define.js';

export const listRegions = defineOperation({
  operationId: 'listRegions',
  title: 'List regions',
  summary:
    'List supported countries (two- and three-letter codes), their states and world regions, for location filters.',
  description:
    'Reference data for location filters: headquartersCountryCode takes the two-letter codes, country3LetterCode the three-letter codes, headquartersStateName the state names. Free.',
  category: 'account',
  keywords: [
    'regions',
    'region',
    'countries',
    'country',
    'codes',
    'iso',
    'states',
    'provinces',
    'geography',
    'locations',
    'enum',
    'reference',
    'country codes',
    'iso codes',
    'world regions',
    'geographies',
    'supported countries',
  ],
  method: 'GET',
  path: '/v1/enums/regions',
  aliasPaths: ['/v1/regions'],
  input: z.strictObject({}),
  output: z.object({
    countries: z.array(
      z.object({
        name: z.string(),
        code2: z.string(),
        code3: z.string(),
        region: z.string(),
        states: z.array(z.string()),
      }),
    ),
    regions: z.array(z.string()),
  }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: {},
  workflow: { before: [], after: ['companySearch', 'peopleSearch'] },
});
