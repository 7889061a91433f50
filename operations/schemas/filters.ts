import { z } from 'zod';
import { inputLimits } from './common.js';
// The reference lists the catalog is made of: one definition for the data and the filters.
import { DEGREE_TYPES } from '../../reference/education.js';
import { alpha2FromAlpha3, alpha3FromAlpha2 } from '../../reference/iso-countries.js';
import { JOB_FUNCTION_NAMES, SENIORITY_LEVELS, TITLE_STOP_WORDS } from '../../reference/job-titles.js';
import { FUNDING_STAGES } from '../../reference/tags.js';

/**
 * Search filters shared by the searches and the audience operations. Sub-fields the spec
 * leaves open (date ranges, lastFundingUSD, education) follow the same `{min, max}` style.
 */

const numberRange = (what: string) =>
  z
    .strictObject({
      min: z.number().nonnegative().optional().describe(`Smallest ${what}, inclusive.`),
      max: z.number().nonnegative().optional().describe(`Largest ${what}, inclusive.`),
    })
    .refine((r) => r.min === undefined || r.max === undefined || r.min <= r.max, {
      message: 'min must not be greater than max',
      path: ['min'],
    });

// Year 0000 fits the pattern but not PostgreSQL's calendar (it has no year zero): refused here, by the field.
const isoDate = z.iso
  .date('expected a date as YYYY-MM-DD')
  .max(10)
  .refine((date) => !date.startsWith('0000-'), 'expected a date from 0001-01-01 to 9999-12-31 (there is no year 0000)');

const dateRange = (what: string) =>
  z
    .strictObject({
      min: isoDate.optional().describe(`Earliest ${what}, inclusive (YYYY-MM-DD).`),
      max: isoDate.optional().describe(`Latest ${what}, inclusive (YYYY-MM-DD).`),
    })
    .refine((r) => r.min === undefined || r.max === undefined || r.min <= r.max, {
      message: 'min must not be later than max',
      path: ['min'],
    });

/**
 * The one rule for lists that restrict a search to what they list (docs/concepts.md, "Lists that
 * never widen"): an empty one would match nothing, and read as "no filter" it would widen the
 * search to everything and charge for it, so it is refused, naming the field. Lists that remove
 * things (excluded titles, noneOf tags, exclusion lists) may be empty: they remove nothing; so may
 * jobTitleV2.included, whose default [] means any title.
 */
export const emptyRestriction = (item: string) =>
  `an empty list restricts to nothing; omit the field to search without it, or give at least one ${item}`;

/** A list that restricts to the things it lists: at least one (`item` names one in the refusal). */
const list = <Item extends z.ZodType>(item: Item, maxItems: number, what: string, one: string) =>
  z.array(item).min(1, emptyRestriction(one)).max(maxItems).describe(what);
/** A list that removes the things it lists, or one whose empty default means "no filter": it may be empty. */
const mayBeEmpty = <Item extends z.ZodType>(item: Item, maxItems: number, what: string) =>
  z.array(item).max(maxItems).describe(what);
const nonEmpty = (maxLength: number) => z.string().max(maxLength).trim().min(1, 'expected a non-empty string');

/** Exact values matched through an index (slugs, domains, tags): many may be given. */
const values = (what: string, one: string) =>
  list(nonEmpty(inputLimits.valueLength), inputLimits.valuesPerFilter, what, one);
/** Substrings compared against every candidate row: fewer and shorter, as each costs a scan. */
const substrings = (what: string, one: string) =>
  list(nonEmpty(inputLimits.substringLength), inputLimits.substringsPerFilter, what, one);
const removedValues = (what: string) =>
  mayBeEmpty(nonEmpty(inputLimits.valueLength), inputLimits.valuesPerFilter, what);

/**
 * A country code of the wrong length names the code the field wants when it is a real country
 * (`DE` where three letters are needed: DEU), from reference/iso-countries.
 */
export function countryCodeMessage(letters: 2 | 3, given: unknown): string {
  const expected = `expected an ISO 3166 ${letters === 2 ? 'two' : 'three'}-letter country code`;
  if (typeof given !== 'string') return expected;
  const other = letters === 3 ? alpha3FromAlpha2(given) : alpha2FromAlpha3(given);
  return other
    ? `${given}: expected a ${letters === 2 ? 'two' : 'three'}-letter code such as ${other}`
    : `${expected}, such as ${letters === 2 ? 'DE' : 'DEU'}`;
}

const titleStopWords = new Set(TITLE_STOP_WORDS);
/** Job titles, read as words: a title of stop words and punctuation alone would match nothing. */
const titles = (what: string) =>
  mayBeEmpty(
    nonEmpty(inputLimits.substringLength).refine(
      (title) =>
        title
          .toLowerCase()
          .split(/[^\p{L}\p{N}]+/u)
          .some((word) => word && !titleStopWords.has(word)),
      `expected a job title with a word in it; stop words (${TITLE_STOP_WORDS.join(', ')}) and punctuation alone match nothing`,
    ),
    inputLimits.substringsPerFilter,
    what,
  );
const SENIORITIES = SENIORITY_LEVELS.map((l) => l.level) as [string, ...string[]];
const JOB_FUNCTIONS = JOB_FUNCTION_NAMES.map((f) => f.jobFunction) as [string, ...string[]];
const countryCodes = (letters: 2 | 3, what: string) =>
  list(
    z
      .string()
      .max(64)
      .regex(letters === 2 ? /^[A-Za-z]{2}$/ : /^[A-Za-z]{3}$/, {
        error: (issue) => countryCodeMessage(letters, issue.input),
      })
      .transform((c) => c.toUpperCase()),
    300,
    what,
    'country code',
  );

export const companySearchParams = z
  .strictObject({
    keywords: list(
      nonEmpty(inputLimits.keywordLength),
      inputLimits.keywordsPerFilter,
      'Full-text terms over company descriptions; a company matches when its description contains any of them.',
      'keyword',
    ).optional(),
    nameLike: nonEmpty(inputLimits.substringLength)
      .describe('Partial, case-insensitive match on the company name.')
      .optional(),
    headquartersCountryCode: countryCodes(2, 'ISO two-letter country codes of the headquarters (any of).').optional(),
    headquartersStateName: values(
      'State or province names of the headquarters (any of, case-insensitive).',
      'state name',
    ).optional(),
    headquartersLocation: substrings(
      'Free-form locations ("Austin", "Texas, United States"); a company matches when its location contains any of them.',
      'location',
    ).optional(),
    employeeCountV2: numberRange('headcount')
      .describe('Headcount range: a company matches when its headcount range lies within it.')
      .optional(),
    totalFundingUSD: numberRange('total funding in USD').describe('Total funding raised, USD.').optional(),
    lastFundingUSD: numberRange('last round in USD')
      .describe('Amount of the most recent funding round, USD.')
      .optional(),
    lastFundedOn: dateRange('date of the last funding round')
      .describe('Date range of the most recent funding event.')
      .optional(),
    foundedOn: dateRange('founding date').describe('Date range of the founding date.').optional(),
    stage: list(z.enum(FUNDING_STAGES), FUNDING_STAGES.length, 'Funding stages (any of).', 'stage').optional(),
    industriesV2: values('Industry slugs from listIndustries (any of).', 'industry slug').optional(),
    domains: values('Company domains such as "acme.com" (any of).', 'domain').optional(),
    networkSlugs: values('Organisation slugs on the professional network (any of).', 'slug').optional(),
    tlds: list(
      z
        .string()
        .max(64)
        .regex(/^\.[a-z0-9.-]+$/i, 'expected a top-level domain with a leading dot, like ".io"')
        .transform((t) => t.toLowerCase()),
      inputLimits.valuesPerFilter,
      'Top-level domains with a leading dot, such as ".io" (any of).',
      'top-level domain',
    ).optional(),
    specialFlags: values('Special company flags such as HIGH_GROWTH or BOOTSTRAPPED (any of).', 'flag').optional(),
  })
  .describe('Company filters, all optional, combined with AND.');

export const peopleSearchParams = z
  .strictObject({
    jobTitleV2: z
      .strictObject({
        // [] is this field's own default ("no included titles", as it is stored when only excluded titles are
        // given), so it keeps that meaning rather than being refused.
        included: titles(
          'Titles to match (any of), as whole words in order: abbreviations and their words match alike ("VP Sales" is "Vice President of Sales").',
        ).default([]),
        excluded: titles('Titles always suppressed, in the same forms ("Sr" suppresses every "Senior ...").').default(
          [],
        ),
      })
      .describe('Current job title filter.')
      .optional(),
    country3LetterCode: countryCodes(3, 'ISO three-letter country codes of the person (any of).').optional(),
    seniority: z
      .array(z.enum(SENIORITIES))
      .min(1, emptyRestriction('seniority'))
      .max(SENIORITIES.length)
      .describe('Seniorities read from the current title (any of); listJobTitleTaxonomy lists them.')
      .optional(),
    jobFunction: z
      .array(z.enum(JOB_FUNCTIONS))
      .min(1, emptyRestriction('job function'))
      .max(JOB_FUNCTIONS.length)
      .describe('Job functions read from the current title (any of); listJobTitleTaxonomy lists them.')
      .optional(),
    yearsOfExperience: numberRange('years of experience')
      .describe('Total years of professional experience.')
      .optional(),
    tags: z
      .strictObject({
        anyOf: values('The person has at least one of these tags.', 'tag').optional(),
        allOf: values('The person has every one of these tags.', 'tag').optional(),
        noneOf: removedValues('The person has none of these tags.').optional(),
      })
      .describe('Structured prospect tags.')
      .optional(),
    education: z
      .strictObject({
        degreeTypes: list(
          z.enum(DEGREE_TYPES),
          DEGREE_TYPES.length,
          'Degree types (any of).',
          'degree type',
        ).optional(),
        schools: substrings('Institutions (any of, partial and case-insensitive).', 'school').optional(),
      })
      .describe('Education filter; both sub-filters given are combined with AND.')
      .optional(),
    getDetailedEducation: z.boolean().default(false).describe('Fill detailed_education (raises latency and size).'),
    getDetailedWorkExperience: z
      .boolean()
      .default(false)
      .describe('Fill detailed_work_experiences (raises latency and size).'),
  })
  .describe('People filters, all optional, combined with AND.');

export const currentCompany = z
  .strictObject({
    domain: nonEmpty(inputLimits.valueLength).optional(),
    networkSlugOrURL: nonEmpty(inputLimits.identifierLength).optional().describe('Company slug or full company URL.'),
    name: nonEmpty(inputLimits.nameLength).optional().describe('Exact company name, case-insensitive.'),
    networkOrgID: z
      .string()
      .max(20)
      .regex(/^[0-9]+$/, 'expected a numeric organisation ID as a string')
      .optional(),
  })
  .refine((c) => Object.values(c).some((v) => v !== undefined), {
    message: 'give at least one of domain, networkSlugOrURL, name, networkOrgID',
  })
  .describe('A company, by any combination of keys; all keys given must match the same company.');

/**
 * A company as companySearch returns it, so that one step's `output.data` can be the next step's
 * currentCompanies. It is matched by its most precise key (network_org_id, then
 * network_primary_slug, then its first domain, then preferred_name); the record's other fields
 * are ignored.
 */
const companyRecordReference = z
  .looseObject({
    network_org_id: z
      .string()
      .max(20)
      .regex(/^[0-9]+$/, 'expected a numeric organisation ID as a string')
      .nullable()
      .optional(),
    network_primary_slug: nonEmpty(inputLimits.identifierLength).nullable().optional(),
    domains: z.array(nonEmpty(inputLimits.valueLength)).max(inputLimits.valuesPerFilter).optional(),
    preferred_name: nonEmpty(inputLimits.nameLength).optional(),
  })
  .refine(
    (r) => Boolean(r.network_org_id || r.network_primary_slug || r.domains?.length || r.preferred_name),
    'a company record needs one of network_org_id, network_primary_slug, domains, preferred_name',
  )
  .transform((r): CurrentCompany => {
    if (r.network_org_id) return { networkOrgID: r.network_org_id };
    if (r.network_primary_slug) return { networkSlugOrURL: r.network_primary_slug };
    const domain = r.domains?.[0];
    return domain ? { domain } : { name: r.preferred_name as string };
  })
  .describe('A company record as companySearch returns it (its other fields are ignored).');

/** A currentCompanies entry: a reference by keys, or a company record from companySearch. */
export const currentCompanyEntry = z.union([currentCompany, companyRecordReference]);

/** currentCompanies of people search, people count and saved searches: one definition, at least one company. */
export const currentCompanies = (what: string) =>
  z
    .array(currentCompanyEntry)
    .min(1, emptyRestriction('company'))
    .max(1000)
    .optional()
    .describe(
      `${what} Each entry is a reference (domain, networkSlugOrURL, name, networkOrgID) or a company record as companySearch returns it.`,
    );

export type CompanySearchParams = z.infer<typeof companySearchParams>;
export type PeopleSearchParams = z.infer<typeof peopleSearchParams>;
export type CurrentCompany = z.infer<typeof currentCompany>;
