import { z } from 'zod';
import { defineOperation } from '../../define.js';

export const locationTypeahead = defineOperation({
  operationId: 'locationTypeahead',
  title: 'Suggest locations',
  summary: 'Autocomplete cities, states and countries, each with the filter values that select it; 1 credit.',
  description:
    'Returns places whose name (or a word of it) starts with query, accents and case ignored: countries, then states, then cities. Each carries the ' +
    'filter values as the filters spell them: headquartersCountryCode and country3LetterCode for a country, headquartersStateName for a state, headquartersLocation for a city. ' +
    'Costs 1 credit per request.',
  category: 'search',
  keywords: [
    'typeahead',
    'autocomplete',
    'suggest',
    'location',
    'locations',
    'city',
    'cities',
    'state',
    'states',
    'province',
    'place',
    'places',
    'geo',
    'where',
    'spell',
    'spelling',
    'city names',
    'how to write',
    'geo lookup',
    'location values',
    'country code',
    'filter value',
  ],
  method: 'GET',
  path: '/v1/typeahead/locations',
  input: z.strictObject({
    query: z.string().trim().min(1, 'expected at least one character').max(100).describe('The start of a place name.'),
    kinds: z
      .string()
      .max(40)
      .regex(/^(city|state|country)(,(city|state|country))*$/, 'expected a comma list of city, state, country')
      .default('country,state,city')
      .describe('Which kinds of place, as a comma list: city, state, country (default all).'),
    limit: z.coerce.number().int().min(1).max(50).default(10).describe('Suggestions: default 10, at most 50.'),
  }),
  output: z.object({
    data: z.array(
      z.object({
        kind: z.enum(['country', 'state', 'city']),
        name: z.string(),
        label: z.string(),
        countryCode: z.string(),
        country3LetterCode: z.string().nullable(),
        state: z.string().nullable(),
        filters: z.object({
          headquartersCountryCode: z.array(z.string()).optional(),
          country3LetterCode: z.array(z.string()).optional(),
          headquartersStateName: z.array(z.string()).optional(),
          headquartersLocation: z.array(z.string()).optional(),
        }),
      }),
    ),
  }),
  credits: {
    unit: 'typeahead',
    charged: 'now',
    rule: '1 credit per request, whatever it finds.',
    worstCase: () => 1,
    example: 'Looking up "san fr" costs 1 credit.',
  },
  rateLimitClass: 'standard',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { query: 'san fr', kinds: 'city', limit: 5 },
  workflow: { before: [], after: ['companySearch', 'peopleSearch'] },
});
