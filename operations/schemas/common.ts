import addressparser from 'nodemailer/lib/addressparser';
import { z } from 'zod';

/**
 * Bounds on what a caller may send. Every string and list of every input is bounded, so that no
 * request (free ones included) can make the database compare a megabyte against every row; the
 * bounds reach REST validation, OpenAPI and the MCP schemas from here.
 */
export const inputLimits = {
  /** A substring compared against every candidate row (titles, schools, locations, names). */
  substringLength: 100,
  substringsPerFilter: 100,
  /** An exact value matched through an index (domains, slugs, industries, tags). */
  valueLength: 255,
  valuesPerFilter: 1000,
  /** Full-text terms over descriptions. */
  keywordLength: 100,
  keywordsPerFilter: 100,
  /** Profile and company URLs or slugs, identifiers for live fetches. */
  identifierLength: 500,
  /** Exclusion lists named by one request. */
  listsPerRequest: 100,
  cursorLength: 1024,
  nameLength: 200,
  emailLength: 254,
} as const;

/** Identifiers of account-owned resources are decimal strings. */
export const resourceId = (what: string) =>
  z
    .string()
    .max(18, `expected the ${what} returned when it was created (a decimal string)`)
    .regex(/^[1-9][0-9]{0,17}$/, `expected the ${what} returned when it was created (a decimal string)`);

/** Exclusion lists to leave out of a search or build. */
export const exclusionListIds = (description: string) =>
  z.array(resourceId('exclusion list ID')).max(inputLimits.listsPerRequest).optional().describe(description);

export const pageSize = z
  .number()
  .int()
  .min(1)
  .max(1000)
  .default(25)
  .describe('Records per page: default 25, at most 1000. Each record returned costs its credit.');

export const cursor = z
  .string()
  .min(1)
  .max(inputLimits.cursorLength)
  .nullable()
  .optional()
  .describe(
    'Null or omitted for the first page; then the nextCursor of the previous response, with identical filters.',
  );

/** For GET operations the query string carries numbers as text. */
export const queryPageSize = z.coerce
  .number()
  .int()
  .min(1)
  .max(1000)
  .default(25)
  .describe('Records per page: default 25, at most 1000.');

/**
 * How the mailer reads an address field (nodemailer's own parser, which the mailer runs on `to`): null when it reads
 * exactly the one address given; else what it would send to instead. An address is checked with it wherever one is taken
 * for mail, so that what is validated is what is mailed.
 */
export function mailerRewrite(value: string): string | null {
  const read = addressparser(value, { flatten: true });
  const only = read.length === 1 ? read[0] : undefined;
  if (only && only.name === '' && only.address === value) return null;
  return read.map((a) => (a.name ? `"${a.name}" <${a.address}>` : a.address)).join(', ') || 'nobody';
}

/** A caller's email address, for mails the service sends. */
export const emailAddress = z
  .email('expected an email address')
  .max(inputLimits.emailLength)
  .refine((value) => mailerRewrite(value) === null, 'expected one plain email address, as the mailer reads it');

export const isoTimestamp = z.string().describe('ISO 8601 UTC timestamp with milliseconds.');

export const chargeInfo = z.object({
  method: z.enum(['free', 'charging-later', 'charged-now']),
  message: z.string().optional(),
  creditsCharged: z.number().int().nonnegative().optional(),
});

export const enrichmentType = z
  .strictObject({
    getWorkEmails: z.boolean().default(false).describe('Reveal work emails.'),
    getPersonalEmails: z.boolean().default(false).describe('Reveal personal emails.'),
    getPhoneNumbers: z.boolean().default(false).describe('Reveal phone numbers.'),
  })
  .describe('Which contact types to reveal.');

export const profileUrl = z
  .string()
  .min(1)
  .max(inputLimits.identifierLength)
  .describe('Full profile URL of the person on the professional network (a bare profile slug is accepted too).');
