import { z } from 'zod';

/** Identifiers of account-owned resources are decimal strings. */
export const resourceId = (what: string) =>
  z.string().regex(/^[1-9][0-9]{0,17}$/, `expected the ${what} returned when it was created (a decimal string)`);

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
  .nullable()
  .optional()
  .describe('Null or omitted for the first page; then the nextCursor of the previous response, with identical filters.');

/** For GET operations the query string carries numbers as text. */
export const queryPageSize = z.coerce
  .number()
  .int()
  .min(1)
  .max(1000)
  .default(25)
  .describe('Records per page: default 25, at most 1000.');

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
  .describe('Full profile URL of the person on the professional network (a bare profile slug is accepted too).');
