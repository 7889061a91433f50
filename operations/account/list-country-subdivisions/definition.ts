import { z } from 'zod';
import { defineOperation, free } from '../../define.js';

export const listCountrySubdivisions = defineOperation({
  operationId: 'listCountrySubdivisions',
  title: 'List country subdivisions',
  summary: 'List the ISO 3166-2 subdivisions (states, provinces, regions) of a country, or of all countries.',
  description:
    'Reference data: ISO 3166-2 codes (US-CA) and names (California) of subdivisions, for one country (countryCode, recommended) or all (several thousand). ' +
    'headquartersStateName takes the names; listRegions lists the states the catalog uses most. Free.',
  category: 'account',
  keywords: [
    'subdivisions',
    'states',
    'provinces',
    'regions',
    'counties',
    'iso 3166-2',
    'state codes',
    'country',
    'enum',
    'reference',
    'administrative',
    'states of a country',
    'regions of a country',
    'iso 3166-2 codes',
    'subdivision codes',
  ],
  method: 'GET',
  path: '/v1/enums/country-subdivisions',
  input: z.strictObject({
    countryCode: z
      .string()
      .max(2)
      .regex(/^[A-Za-z]{2}$/, 'expected an ISO 3166 two-letter country code')
      .optional()
      .describe("Only this country's subdivisions (ISO two-letter code)."),
  }),
  output: z.object({
    countryCode: z.string().nullable(),
    subdivisions: z.array(
      z.object({
        code: z.string(),
        name: z.string(),
        countryCode: z.string(),
        countryName: z.string().nullable(),
        parent: z.string().nullable(),
      }),
    ),
  }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { countryCode: 'US' },
  workflow: { before: ['listRegions'], after: ['companySearch'] },
});
