import { z } from 'zod';
import { emailAddress, inputLimits, isoTimestamp, resourceId } from './common.js';

/** Watch lists: tracked people and companies checked on a schedule, and the changes found. */

export const watchListId = resourceId('watchListId').describe(
  'The watchListId returned by createWatchList (listWatchLists lists them).',
);

export const watchListKind = z
  .enum(['people', 'companies'])
  .describe(
    'What the list tracks: people (job, title, location) or companies (funding, headcount, headquarters, name).',
  );

export const checkEvery = z
  .enum(['day', 'week', 'month'])
  .describe('How often each item is checked through the live network source; each check of an item is charged.');

/** Credits per item checked: a live fetch at the watch-list rate. */
export const watchListCheckCredits = 1;
/** Items one call adds or removes at most, and a list holds at most. */
export const watchListItemsPerCall = 1000;
export const watchListItemsLimit = 100_000;
/** Headcount changes below this share (percent) of the last headcount are no change, unless the list sets its own. */
export const defaultHeadcountChangeThreshold = 10;

/** Checks of one item in a period of the schedule, at most (a month taken as 31 days). */
export const checksPerPeriod = {
  day: { day: 1, week: 7, month: 31 },
  week: { day: 1, week: 1, month: 5 },
  month: { day: 1, week: 1, month: 1 },
} as const;
export const estimatePeriod = z
  .enum(['day', 'week', 'month'])
  .default('month')
  .describe('The period the estimate covers (a month taken as 31 days).');

export const headcountChangeThreshold = z
  .number()
  .int()
  .min(1)
  .max(1000)
  .describe(
    `Companies only: a headcount change smaller than this percentage of the last headcount is not recorded (default ${defaultHeadcountChangeThreshold}).`,
  );

const identifier = z.string().trim().min(1).max(inputLimits.identifierLength);
const numericId = z.union([
  z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  z
    .string()
    .max(18)
    .regex(/^\d{1,18}$/),
]);

export const watchListItemInput = z
  .union([
    identifier.describe('A profile URL, company domain, slug or numeric id, by the kind of the list.'),
    z.strictObject({ profileUrl: identifier.describe('People: the profile URL on the professional network.') }),
    z.strictObject({ domain: identifier.describe('Companies: the website domain.') }),
    z.strictObject({ slug: identifier.describe('The network slug of the person or company.') }),
    z.strictObject({
      id: numericId.describe('The numeric id on the network (user or organisation id), or the catalog id.'),
    }),
  ])
  .describe(
    'People: {profileUrl}, {slug}, {id} or the bare string. Companies: {domain}, {slug}, {id} or the bare string.',
  );
export type WatchListItemInput = z.infer<typeof watchListItemInput>;

export const digestEmail = emailAddress.describe(
  "Mailed once a day (on the network clock) a digest of the changes found that day, when there are any; one of the account's own addresses.",
);

export const watchListView = z.object({
  watchListId: z.string(),
  name: z.string(),
  kind: watchListKind,
  checkEvery,
  headcountChangeThreshold: z.number().int().nullable(),
  paused: z.boolean(),
  pausedReason: z
    .string()
    .nullable()
    .describe('Why checks stopped by themselves (the balance could not pay); null when paused by hand or running.'),
  items: z.number().int(),
  awaitingFirstCheck: z
    .number()
    .int()
    .describe('Items whose first check is still to come (neither done nor failed yet); 0 once every item was checked.'),
  nextCheckAt: isoTimestamp
    .nullable()
    .describe('When the next item is due (on the network clock); null with no items.'),
  lastCheckAt: isoTimestamp.nullable(),
  changes: z.number().int().describe('Changes recorded so far.'),
  digestEmail: z.string().nullable().describe('Where the daily digest of changes is mailed; null: no digest.'),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
});

export const watchListItemView = z.object({
  itemId: z.string(),
  input: z.string().describe('The item as it was given.'),
  catalogId: z.string().describe('The person or company id in the catalog (as searches answer it).'),
  networkUrl: z.string().nullable(),
  lastCheckedAt: isoTimestamp.nullable(),
  nextCheckAt: isoTimestamp,
  failedChecks: z.number().int().describe('Checks in a row that failed (retried later; never a change).'),
  current: z.record(z.string(), z.unknown()).nullable().describe('What the last successful check saw; null before it.'),
});

export const personChangeKinds = ['job_changed', 'title_changed', 'location_changed'] as const;
export const companyChangeKinds = ['funding_raised', 'headcount_changed', 'moved', 'renamed'] as const;
export const changeKind = z.enum([...personChangeKinds, ...companyChangeKinds]);
export type ChangeKind = z.infer<typeof changeKind>;

export const watchListChange = z.object({
  changeId: z.string(),
  watchListId: z.string(),
  itemId: z.string(),
  item: z.object({ input: z.string(), catalogId: z.string(), networkUrl: z.string().nullable() }),
  kind: changeKind,
  before: z.unknown().describe('The value before (a company, a title, a location, a funding round, a headcount).'),
  after: z.unknown().describe('The value the check found.'),
  detectedAt: isoTimestamp.describe('When the check found it (on the network clock).'),
  checkId: z.string().describe('The check that found it.'),
});

const timestampInput = z.iso
  .datetime({ offset: true, message: 'expected an ISO 8601 time such as 2026-11-30T12:00:00Z' })
  .max(40)
  .refine((time) => !time.startsWith('0000-'), 'expected a time from the year 0001 on (there is no year 0000)');
export const changeFilters = {
  kind: changeKind.optional().describe('Only changes of this kind.'),
  detectedAfter: timestampInput.optional().describe('Only changes detected at or after this time (ISO 8601).'),
  detectedBefore: timestampInput.optional().describe('Only changes detected before this time (ISO 8601).'),
};
