import { z } from 'zod';
// The reference lists the catalog is made of: one definition for the data and the filters.
import { DEGREE_TYPES } from '../../reference/education.js';
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

const isoDate = z.iso.date('expected a date as YYYY-MM-DD');

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

const terms = (what: string) => z.array(z.string().trim().min(1, 'expected a non-empty string')).max(500).describe(what);



export const companySearchParams = z
  .strictObject({
    keywords: terms('Full-text terms over company descriptions; a company matches when its description contains any of them.').optional(),
    nameLike: z.string().trim().min(1).describe('Partial, case-insensitive match on the company name.').optional(),
    headquartersCountryCode: z
      .array(z.string().regex(/^[A-Za-z]{2}$/, 'expected an ISO 3166 two-letter country code').transform((c) => c.toUpperCase()))
      .describe('ISO two-letter country codes of the headquarters (any of).')
      .optional(),
    headquartersStateName: terms('State or province names of the headquarters (any of, case-insensitive).').optional(),
    headquartersLocation: terms('Free-form locations ("Austin", "Texas, United States"); a company matches when its location contains any of them.').optional(),
    employeeCountV2: numberRange('headcount').describe('Headcount range: a company matches when its headcount range lies within it.').optional(),
    totalFundingUSD: numberRange('total funding in USD').describe('Total funding raised, USD.').optional(),
    lastFundingUSD: numberRange('last round in USD').describe('Amount of the most recent funding round, USD.').optional(),
    lastFundedOn: dateRange('date of the last funding round').describe('Date range of the most recent funding event.').optional(),
    foundedOn: dateRange('founding date').describe('Date range of the founding date.').optional(),
    stage: z.array(z.enum(FUNDING_STAGES)).describe('Funding stages (any of).').optional(),
    industriesV2: terms('Industry slugs from listIndustries (any of).').optional(),
    domains: terms('Company domains such as "acme.com" (any of).').optional(),
    networkSlugs: terms('Organisation slugs on the professional network (any of).').optional(),
    tlds: z
      .array(z.string().regex(/^\.[a-z0-9.-]+$/i, 'expected a top-level domain with a leading dot, like ".io"').transform((t) => t.toLowerCase()))
      .describe('Top-level domains with a leading dot, such as ".io" (any of).')
      .optional(),
    specialFlags: terms('Special company flags such as HIGH_GROWTH or BOOTSTRAPPED (any of).').optional(),
  })
  .describe('Company filters, all optional, combined with AND.');

export const peopleSearchParams = z
  .strictObject({
    jobTitleV2: z
      .strictObject({
        included: terms('Titles to match (any of, partial and case-insensitive).').default([]),
        excluded: terms('Titles always suppressed (partial and case-insensitive).').default([]),
      })
      .describe('Current job title filter.')
      .optional(),
    country3LetterCode: z
      .array(z.string().regex(/^[A-Za-z]{3}$/, 'expected an ISO 3166 three-letter country code').transform((c) => c.toUpperCase()))
      .describe('ISO three-letter country codes of the person (any of).')
      .optional(),
    yearsOfExperience: numberRange('years of experience').describe('Total years of professional experience.').optional(),
    tags: z
      .strictObject({
        anyOf: terms('The person has at least one of these tags.').optional(),
        allOf: terms('The person has every one of these tags.').optional(),
        noneOf: terms('The person has none of these tags.').optional(),
      })
      .describe('Structured prospect tags.')
      .optional(),
    education: z
      .strictObject({
        degreeTypes: z
          .array(z.enum(DEGREE_TYPES))
          .describe('Degree types (any of).')
          .optional(),
        schools: terms('Institutions (any of, partial and case-insensitive).').optional(),
      })
      .describe('Education filter; both sub-filters given are combined with AND.')
      .optional(),
    getDetailedEducation: z.boolean().default(false).describe('Fill detailed_education (raises latency and size).'),
    getDetailedWorkExperience: z.boolean().default(false).describe('Fill detailed_work_experiences (raises latency and size).'),
  })
  .describe('People filters, all optional, combined with AND.');

export const currentCompany = z
  .strictObject({
    domain: z.string().trim().min(1).optional(),
    networkSlugOrURL: z.string().trim().min(1).optional().describe('Company slug or full company URL.'),
    name: z.string().trim().min(1).optional().describe('Exact company name, case-insensitive.'),
    networkOrgID: z.string().regex(/^[0-9]+$/, 'expected a numeric organisation ID as a string').optional(),
  })
  .refine((c) => Object.values(c).some((v) => v !== undefined), {
    message: 'give at least one of domain, networkSlugOrURL, name, networkOrgID',
  })
  .describe('A company, by any combination of keys; all keys given must match the same company.');

export type CompanySearchParams = z.infer<typeof companySearchParams>;
export type PeopleSearchParams = z.infer<typeof peopleSearchParams>;
export type CurrentCompany = z.infer<typeof currentCompany>;
