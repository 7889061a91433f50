import { z } from 'zod';
import {
  COMPANY_FLAG_SLUGS,
  DEGREE_TYPES,
  FUNDING_STAGES,
  PROFICIENCY_NAMES,
  PROSPECT_TAG_SLUGS,
  alpha3FromAlpha2,
  industryBySlug,
} from '../../../reference/index.js';

// Schemas of imported rows: field names are the API's record fields where the record has them.

const NUL = '\u0000';
const text = (max: number) =>
  z
    .string({ error: 'expected a string' })
    .trim()
    .max(max, { error: `longer than ${max} characters` })
    .refine((s) => !s.includes(NUL), { error: 'contains a NUL character' });
const requiredText = (max: number) => text(max).refine((s) => s.length > 0, { error: 'must not be empty' });
const stringList = (item: z.ZodType<string>, max = 100) =>
  z.array(item, { error: 'expected array of strings' }).max(max, { error: `more than ${max} entries` });

/** Numeric identifiers of the network arrive as numbers or as strings of digits. */
const numericId = z.union(
  [
    z.int().positive().max(Number.MAX_SAFE_INTEGER),
    z
      .string()
      .regex(/^\d{1,15}$/)
      .transform(Number),
  ],
  { error: 'expected a positive whole number' },
);
const rowId = z
  .int({ error: 'expected a positive whole number' })
  .positive({ error: 'expected a positive whole number' })
  .max(Number.MAX_SAFE_INTEGER);
const usd = z.number({ error: 'expected a number of US dollars' }).nonnegative().max(1e15).transform(Math.round);
const isoDate = z.iso.date({ error: 'expected a date as YYYY-MM-DD' });
/** Work history dates are often known to the month only. */
const monthOrDate = z
  .string({ error: 'expected a date as YYYY-MM-DD or YYYY-MM' })
  .regex(/^\d{4}-(0[1-9]|1[0-2])(-\d{2})?$/, { error: 'expected a date as YYYY-MM-DD or YYYY-MM' })
  .transform((s) => (s.length === 7 ? `${s}-01` : s))
  .pipe(isoDate);
const year = z.int({ error: 'expected a year' }).min(1900).max(2100);

const countryCode = z
  .string({ error: 'expected a 2-letter country code' })
  .trim()
  .transform((s) => s.toUpperCase())
  .refine((s) => alpha3FromAlpha2(s) !== undefined, { error: 'not an ISO 3166 2-letter country code' });

/** Domains are stored bare and lower-case: "https://www.Acme.com/about" → "acme.com". */
const domain = z
  .string({ error: 'expected a string' })
  .trim()
  .transform((s) =>
    s
      .toLowerCase()
      .replace(/^[a-z]+:\/\//, '')
      .replace(/^www\./, '')
      .replace(/[/?#].*$/, '')
      .replace(/\.$/, ''),
  )
  .refine((s) => /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/.test(s), {
    error: 'not a domain name',
  });

const slug = z
  .string({ error: 'expected a string' })
  .trim()
  .transform((s) => s.replace(/^https?:\/\/[^/]+\/(company|in|school)\//i, '').replace(/\/+$/, ''))
  .refine((s) => /^[\p{L}\p{N}][\p{L}\p{N}_.%-]{0,199}$/u.test(s), { error: 'not a profile or company slug' });

const email = z
  .string({ error: 'expected a string' })
  .trim()
  .transform((s) => s.toLowerCase())
  .pipe(z.email({ error: 'not an email address' }));
const phone = z
  .string({ error: 'expected a string' })
  .transform((s) => s.replace(/[\s().-]/g, ''))
  .refine((s) => /^\+[1-9]\d{6,14}$/.test(s), { error: 'not a phone number in E.164 form (+ and 7 to 15 digits)' });

export const companyImportSchema = z.strictObject({
  id: rowId.optional(),
  preferred_name: requiredText(500),
  description: text(20_000).nullish(),
  domains: stringList(domain, 50).nullish(),
  network_primary_slug: slug.nullish(),
  network_org_id: numericId.nullish(),
  standard_industries: stringList(
    z.string({ error: 'expected a string' }).refine((s) => industryBySlug(s) !== undefined, {
      error: 'not an industry slug of the taxonomy (see GET /v1/enums/industries)',
    }),
    10,
  ).nullish(),
  employee_count_consensus: z
    .object(
      {
        min: z.int({ error: 'expected a whole number' }).nonnegative({ error: 'must not be negative' }),
        max: z.int({ error: 'expected a whole number' }).nonnegative({ error: 'must not be negative' }).nullish(),
      },
      { error: 'expected an object {min, max}' },
    )
    .refine((r) => r.max === null || r.max === undefined || r.min <= r.max, {
      error: 'min must not exceed max',
      path: ['min'],
    })
    .nullish(),
  location_consensus: z
    .object(
      {
        city: text(200).nullish(),
        country_code: countryCode,
        state_name: text(200).nullish(),
      },
      { error: 'expected an object {city, country_code, state_name?}' },
    )
    .nullish(),
  total_funding_consensus: z.object({ usd: usd.nullish() }, { error: 'expected an object {usd}' }).nullish(),
  last_funding_usd: usd.nullish(),
  last_funded_on: isoDate.nullish(),
  founded_on: isoDate.nullish(),
  stage: z.enum(FUNDING_STAGES, { error: `expected one of ${FUNDING_STAGES.join(', ')}` }).nullish(),
  special_flags: stringList(
    z.enum(COMPANY_FLAG_SLUGS as [string, ...string[]], { error: `expected one of ${COMPANY_FLAG_SLUGS.join(', ')}` }),
    20,
  ).nullish(),
  /** Present in records exported from the API; meaningless here and ignored. */
  last_sort_key: z.unknown().optional(),
});
export type CompanyImport = z.output<typeof companyImportSchema>;

const languageSchema = z.strictObject(
  {
    name: requiredText(100),
    proficiency_name: z.enum(PROFICIENCY_NAMES, { error: `expected one of ${PROFICIENCY_NAMES.join(', ')}` }).nullish(),
  },
  { error: 'expected an object {name, proficiency_name}' },
);

const educationSchema = z
  .strictObject(
    {
      school: requiredText(300),
      degree_type: z.enum(DEGREE_TYPES, { error: `expected one of ${DEGREE_TYPES.join(', ')}` }).nullish(),
      field_of_study: text(200).nullish(),
      start_year: year.nullish(),
      end_year: year.nullish(),
    },
    { error: 'expected an object {school, degree_type, field_of_study, start_year, end_year}' },
  )
  .refine((e) => e.start_year == null || e.end_year == null || e.start_year <= e.end_year, {
    error: 'start_year is after end_year',
    path: ['start_year'],
  });

const workExperienceSchema = z
  .strictObject(
    {
      company_name: requiredText(500),
      company_slug: slug.nullish(),
      company_domain: domain.nullish(),
      title: text(300).nullish(),
      start_date: monthOrDate.nullish(),
      end_date: monthOrDate.nullish(),
      is_current: z.boolean({ error: 'expected true or false' }).nullish(),
    },
    {
      error: 'expected an object {company_name, company_slug, company_domain, title, start_date, end_date, is_current}',
    },
  )
  .refine((w) => !w.start_date || !w.end_date || w.start_date <= w.end_date, {
    error: 'start_date is after end_date',
    path: ['start_date'],
  });

export const personImportSchema = z.strictObject({
  id: rowId.optional(),
  first_name: requiredText(200),
  last_name: requiredText(200),
  title: text(300).nullish(),
  headline: text(1000).nullish(),
  location: z
    .object(
      { city: text(200).nullish(), country_code: countryCode },
      { error: 'expected an object {city, country_code}' },
    )
    .nullish(),
  current_company: z
    .object(
      { name: text(500).nullish(), network_slug: slug.nullish(), domain: domain.nullish() },
      { error: 'expected an object {name, network_slug, domain}' },
    )
    .refine((c) => Boolean(c.name || c.network_slug || c.domain), { error: 'needs a name, network_slug or domain' })
    .nullish(),
  languages: z.array(languageSchema, { error: 'expected an array of {name, proficiency_name}' }).max(30).nullish(),
  years_experience: z.int({ error: 'expected a whole number of years' }).min(0).max(80).nullish(),
  tags: stringList(
    z.enum(PROSPECT_TAG_SLUGS as [string, ...string[]], { error: `expected one of ${PROSPECT_TAG_SLUGS.join(', ')}` }),
    30,
  ).nullish(),
  education: z.array(educationSchema, { error: 'expected an array of education entries' }).max(30).nullish(),
  work_experiences: z
    .array(workExperienceSchema, { error: 'expected an array of work experiences' })
    .max(100)
    .nullish(),
  network_slug: slug.nullish(),
  network_user_id: numericId.nullish(),
  contacts: z
    .strictObject(
      {
        work_emails: stringList(email, 20).nullish(),
        personal_emails: stringList(email, 20).nullish(),
        phones: stringList(phone, 20).nullish(),
      },
      { error: 'expected an object {work_emails, personal_emails, phones}' },
    )
    .nullish(),
  // Fields of API records that are views of the ones above; accepted and ignored.
  detailed_education: z.unknown().optional(),
  detailed_work_experiences: z.unknown().optional(),
});
export type PersonImport = z.output<typeof personImportSchema>;
