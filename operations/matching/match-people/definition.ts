import { z } from 'zod';
import { defineOperation } from '../../define.js';
import { inputLimits } from '../../schemas/common.js';
import { profileRecord } from '../../schemas/records.js';
import { minConfidence } from '../match-companies/definition.js';

const text = (maxLength: number, what: string) =>
  z.string().max(maxLength).trim().min(1, 'expected a non-empty string; omit the field instead').describe(what);

const personRow = z
  .strictObject({
    name: text(inputLimits.nameLength, 'Full name, as written ("Bob Smith").').optional(),
    firstName: text(inputLimits.nameLength, 'Given name, instead of name.').optional(),
    lastName: text(inputLimits.nameLength, 'Family name, instead of name.').optional(),
    companyName: text(inputLimits.nameLength, 'Their company, by name (a legal form may be left on).').optional(),
    companyDomain: text(inputLimits.identifierLength, "Their company's domain, or any URL on it.").optional(),
    email: text(inputLimits.emailLength, 'A work or personal email.').optional(),
    profileUrl: text(inputLimits.identifierLength, 'Their professional-network profile URL, or the slug.').optional(),
    phone: text(40, 'A phone number, any format (confirms a candidate; finds none alone).').optional(),
    location: text(inputLimits.nameLength, 'Where they are: city, state or country (a hint).').optional(),
    title: text(inputLimits.substringLength, 'Their job title (a hint).').optional(),
  })
  .refine(
    (row) => Boolean(row.profileUrl || row.email || row.lastName || (row.name && row.name.trim().includes(' '))),
    {
      message: 'give a profileUrl, an email, or a full name (name with first and last, or lastName)',
    },
  );

export const matchPeople = defineOperation({
  operationId: 'matchPeople',
  title: 'Match people',
  summary:
    'Find the catalog profile of each row of loose identifiers (name, company, email, profile URL, phone, location, title); up to 100 rows.',
  description:
    'Takes rows as they come from a CRM or a spreadsheet, each with any of name (or firstName and lastName), companyName or companyDomain, email, profileUrl (or a slug) and phone, with location and title as hints. ' +
    'Answers one result per row, in order: index, match (a profile as peopleSearch returns it, or null), confidence (0 to 1), reasons and runnersUp. Nicknames, typos and people who moved on still match. ' +
    'Only matches at or above minConfidence (default 0.9) are returned and charged, 1 credit each. Up to 100 rows a call.',
  category: 'search',
  keywords: [
    'match people',
    'match contacts',
    'person matching',
    'resolve',
    'identify',
    'reconcile',
    'crm contacts',
    'spreadsheet',
    'lead matching',
    'entity resolution',
    'find the profile',
    'who is this',
    'dedupe contacts',
    'messy list',
    'link records',
  ],
  method: 'POST',
  path: '/v1/people/match',
  input: z.strictObject({
    rows: z.array(personRow).min(1, 'expected at least one row').max(100).describe('The rows to match, 1 to 100.'),
    minConfidence,
  }),
  output: z.object({
    results: z.array(
      z.object({
        index: z.number().int().describe("The row's position in rows, from 0."),
        match: profileRecord.nullable(),
        confidence: z.number().min(0).max(1),
        reasons: z.object({ agreed: z.array(z.string()), disagreed: z.array(z.string()) }),
        runnersUp: z.array(
          z.object({
            confidence: z.number(),
            match: z.object({
              first_name: z.string(),
              last_name: z.string(),
              company_name: z.string().nullable(),
              profile_url: z.string().nullable(),
            }),
          }),
        ),
      }),
    ),
    matched: z.number().int().describe('Rows matched at or above minConfidence (each charged 1 credit).'),
  }),
  credits: {
    unit: 'matchPerson',
    charged: 'now',
    rule: '1 credit per row matched at or above minConfidence; rows without a match are free.',
    worstCase: (input) => input.rows.length,
    example: '50 rows of which 44 match at 0.9 or more cost 44 credits.',
  },
  rateLimitClass: 'search',
  readOnly: true,
  destructive: false,
  idempotent: false,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { rows: [{ name: 'Bob Smith', companyDomain: 'acme.com', title: 'VP Sales' }] },
  workflow: { before: ['matchCompanies'], after: ['revealContactSync', 'createExclusionList'] },
});
