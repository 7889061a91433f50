import { z } from 'zod';
import { defineOperation } from '../../define.js';
import { inputLimits } from '../../schemas/common.js';
import { companyRecord } from '../../schemas/records.js';

const text = (maxLength: number, what: string) =>
  z.string().max(maxLength).trim().min(1, 'expected a non-empty string; omit the field instead').describe(what);

const companyRow = z
  .strictObject({
    name: text(inputLimits.nameLength, 'The company name, with or without its legal form ("Acme GmbH").').optional(),
    domain: text(
      inputLimits.identifierLength,
      'Its domain, or any URL on it ("https://www.acme.com/about").',
    ).optional(),
    profileUrl: text(inputLimits.identifierLength, 'Its professional-network company URL, or the slug.').optional(),
    location: text(inputLimits.nameLength, 'Where it is: a city, state or country, as written.').optional(),
  })
  .refine((row) => Boolean(row.name || row.domain || row.profileUrl), {
    message: 'give at least one of name, domain, profileUrl',
  });

export const minConfidence = z
  .number()
  .min(0)
  .max(1)
  .default(0.9)
  .describe('Matches below this confidence are answered as null and not charged. Default 0.9.');

const reasons = z.object({
  agreed: z.array(z.string()).describe('Fields of the row that agree with the match.'),
  disagreed: z.array(z.string()).describe('Fields of the row that disagree with it.'),
});

export const matchCompanies = defineOperation({
  operationId: 'matchCompanies',
  title: 'Match companies',
  summary:
    'Find the catalog company of each row of loose identifiers (a name, a domain or URL, a profile URL, a location); up to 100 rows.',
  description:
    'Takes rows as they come from a CRM or a spreadsheet, each with any of name (with or without a legal form such as GmbH), domain (or any URL on it), profileUrl (or a slug) and location. ' +
    'Answers one result per row, in order: index, match (a company as companySearch returns it, or null), confidence (0 to 1), reasons and runnersUp. Typos, missing fields and URLs still match; two equally likely companies lower the confidence. ' +
    'Only matches at or above minConfidence (default 0.9) are returned and charged, 1 credit each. Up to 100 rows a call.',
  category: 'search',
  keywords: [
    'match',
    'matching',
    'resolve',
    'identify',
    'reconcile',
    'dedupe',
    'crm rows',
    'spreadsheet',
    'account matching',
    'company matching',
    'entity resolution',
    'lookup',
    'find the company',
    'which company is this',
    'clean up',
    'messy list',
    'map accounts',
    'link records',
  ],
  method: 'POST',
  path: '/v1/companies/match',
  input: z.strictObject({
    rows: z.array(companyRow).min(1, 'expected at least one row').max(100).describe('The rows to match, 1 to 100.'),
    minConfidence,
  }),
  output: z.object({
    results: z.array(
      z.object({
        index: z.number().int().describe("The row's position in rows, from 0."),
        match: companyRecord.nullable(),
        confidence: z.number().min(0).max(1),
        reasons,
        runnersUp: z.array(
          z.object({
            confidence: z.number(),
            match: z.object({
              preferred_name: z.string(),
              domains: z.array(z.string()),
              network_primary_slug: z.string().nullable(),
            }),
          }),
        ),
      }),
    ),
    matched: z.number().int().describe('Rows matched at or above minConfidence (each charged 1 credit).'),
  }),
  credits: {
    unit: 'matchCompany',
    charged: 'now',
    rule: '1 credit per row matched at or above minConfidence; rows without a match are free.',
    worstCase: (input) => input.rows.length,
    example: '100 rows of which 87 match at 0.9 or more cost 87 credits.',
  },
  rateLimitClass: 'search',
  readOnly: true,
  destructive: false,
  idempotent: false,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { rows: [{ name: 'Acme GmbH', domain: 'https://www.acme.com', location: 'Berlin, Germany' }] },
  workflow: { before: [], after: ['matchPeople', 'peopleSearch', 'createExclusionList'] },
});
