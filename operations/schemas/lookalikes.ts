import { z } from 'zod';
import { inputLimits } from './common.js';

/** The seeds, the traits and the unresolved seeds of findSimilarCompanies and findSimilarPeople. */

const text = (maxLength: number, what: string) =>
  z.string().max(maxLength).trim().min(1, 'expected a non-empty string; omit the field instead').describe(what);

const catalogId = z
  .string()
  .max(19)
  .regex(/^[1-9][0-9]{0,18}$/, 'expected a catalog id: the last_sort_key of a record as search returns it')
  .describe('The last_sort_key of the record as search returns it.');

const exactlyOne =
  (keys: readonly string[]) =>
  (seed: Record<string, unknown>): boolean =>
    keys.filter((key) => seed[key] !== undefined).length === 1;

export const companySeeds = z
  .array(
    z
      .strictObject({
        domain: text(inputLimits.valueLength, 'Its domain, or any URL on it ("https://acme.com").').optional(),
        slug: text(inputLimits.identifierLength, 'Its professional-network slug, or its company URL.').optional(),
        id: catalogId.optional(),
      })
      .refine(exactlyOne(['domain', 'slug', 'id']), { message: 'give exactly one of domain, slug, id' }),
  )
  .min(1, 'expected at least one seed company')
  .max(100)
  .describe('The companies to look alike, 1 to 100, each by one of domain, slug or id.');

export const personSeeds = z
  .array(
    z
      .strictObject({
        profileUrl: text(inputLimits.identifierLength, 'Their profile URL on the professional network.').optional(),
        slug: text(inputLimits.identifierLength, 'Their profile slug.').optional(),
        id: catalogId.optional(),
      })
      .refine(exactlyOne(['profileUrl', 'slug', 'id']), { message: 'give exactly one of profileUrl, slug, id' }),
  )
  .min(1, 'expected at least one seed person')
  .max(100)
  .describe('The people to look alike, 1 to 100, each by one of profileUrl, slug or id.');

export const unresolvedSeeds = z
  .array(
    z.object({
      index: z.number().int().describe("The seed's position in seeds, from 0."),
      reason: z.string(),
    }),
  )
  .describe('Seeds that name no record of the catalog; the others are looked alike.');

export const similarity = z
  .number()
  .min(0)
  .max(1)
  .describe("The share of the seeds' traits this record shares, weighed: 1 shares them all.");

export const companyTraits = z.enum(['industry', 'industryGroup', 'sizeBand', 'country', 'stage', 'descriptionTerms']);
export const personTraits = z.enum([
  'titleWords',
  'seniority',
  'jobFunction',
  'industry',
  'industryGroup',
  'sizeBand',
  'country',
]);
