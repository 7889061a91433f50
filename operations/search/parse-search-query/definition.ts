import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { currentCompany } from '../../schemas/filters.js';

const count = z
  .object({
    count: z.number().int().nonnegative(),
    exact: z.boolean().describe('False when the count passed exactUpTo or took too long and is an estimate.'),
  })
  .describe('How many records the step finds, counted free of charge.');

export const parseSearchQuery = defineOperation({
  operationId: 'parseSearchQuery',
  title: 'Read a sentence into search filters',
  summary:
    'Turn a plain-language request ("Series B fintech companies in Germany with 50 to 200 employees") into companySearch and peopleSearch filters, with a free count; free.',
  description:
    "Reads one sentence into this service's own filters: companySearchParams (companySearch, companyCount, an audience), prospectSearchParams (peopleSearch, an audience) and the plan: companies, people, or companies then people (peopleSearch with currentCompanies, or createAudience with both). " +
    'It reads industries and trade names, places, funding stages and amounts, headcount, founding years, company flags, titles, seniority, job functions, tags, degrees and experience; in a sentence about people a place is where the people are, "headquartered in" puts it on the companies. ' +
    'interpretations says which words became which filter, notUnderstood what it could not read. Deterministic and free, count included.',
  category: 'search',
  keywords: [
    'plain language',
    'natural language',
    'sentence',
    'describe',
    'in words',
    'text to filters',
    'parse',
    'interpret',
    'understand',
    'translate',
    'query',
    'ask',
    'prompt',
    'free text',
    'filters from text',
    'build filters',
    'turn into filters',
    'job description',
    'ideal customer profile',
    'icp',
    'what i want',
    'english',
  ],
  method: 'POST',
  path: '/v1/search/parse',
  input: z.strictObject({
    text: z
      .string()
      .max(500)
      .trim()
      .min(1, 'expected a sentence describing the companies or people to find')
      .describe('The request in plain words, such as "VPs of engineering at fintech startups in Germany".'),
    count: z
      .boolean()
      .default(true)
      .describe('Count the matches of the first step (free). False answers without counting.'),
  }),
  output: z.object({
    text: z.string(),
    companySearchParams: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        'Company filters read from the sentence, in the schema of companySearch searchParams, when it names companies or the people are at companies.',
      ),
    prospectSearchParams: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('People filters read from the sentence, in the schema of peopleSearch searchParams.'),
    currentCompanies: z
      .array(currentCompany)
      .optional()
      .describe('People at these companies (domains in the sentence).'),
    plan: z.object({
      kind: z.enum(['companies', 'people', 'companiesThenPeople']),
      steps: z.array(z.object({ operationId: z.string(), does: z.string() })),
    }),
    interpretations: z.array(
      z.object({
        words: z.string().describe('The words of the sentence, as written.'),
        field: z.string().describe('The filter they became, such as companySearchParams.industriesV2.'),
        value: z.unknown(),
        note: z.string().optional(),
      }),
    ),
    notUnderstood: z.array(z.string()).describe('Words no filter took.'),
    unsupported: z
      .array(z.object({ words: z.string(), reason: z.string() }))
      .describe('Words understood that no filter of the service carries.'),
    count: z
      .object({ companies: count.optional(), people: count.optional(), exactUpTo: z.number().int() })
      .nullable()
      .describe(
        'Matches of the first step: companies when the plan starts with companies, people when it is people alone. Null when count is false.',
      ),
  }),
  credits: free('Free, count included: reading a sentence costs nothing; the searches it leads to charge as usual.'),
  rateLimitClass: 'search',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { text: 'Series B fintech companies in Germany with 50 to 200 employees' },
  workflow: {
    before: [],
    after: ['companySearch', 'peopleSearch', 'createAudience', 'createSavedSearch'],
  },
});
