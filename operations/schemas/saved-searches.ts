import { z } from 'zod';
import { emailAddress, exclusionListIds, isoTimestamp, resourceId } from './common.js';
import { companySearchParams, currentCompanies, peopleSearchParams } from './filters.js';
import { companyRecord, profileRecord } from './records.js';

/** Saved searches that watch for new matches: the schemas their operations share. */

export const savedSearchId = resourceId('savedSearchId').describe('The savedSearchId returned by createSavedSearch.');
export const savedSearchRunId = resourceId('runId').describe(
  'The runId returned by runSavedSearch or listed by listSavedSearchRuns.',
);

export const savedSearchKind = z
  .enum(['companies', 'people'])
  .describe('What the search finds: companies (companySearch filters) or people (peopleSearch filters).');
export const schedule = z
  .enum(['manual', 'daily', 'weekly'])
  .describe(
    'manual: runs only when runSavedSearch is called; daily or weekly: also runs by itself, first one period after it is set.',
  );

/** Most new records one run may deliver (and charge for): the worst case of a run is twice this. */
export const maxNewRecordsLimit = 1000;
export const defaultMaxNewRecords = 100;
export const newRecordCredits = 2;

/** Scheduled runs a saved search can make in a month (31 days): every day, or in five different weeks. */
export const runsPerMonth = { manual: 0, daily: 31, weekly: 5 } as const;

/** The most a schedule can charge in a month, delivering its cap of new records at every run. */
export function monthlyCredits(scheduleName: keyof typeof runsPerMonth, maxPerRun: number): number {
  return runsPerMonth[scheduleName] * newRecordCredits * maxPerRun;
}

export const maxNewRecords = (what: string) =>
  z
    .number()
    .int()
    .min(1)
    .max(maxNewRecordsLimit)
    .describe(`${what} (at most ${maxNewRecordsLimit}); each costs ${newRecordCredits} credits.`);

/** The search a saved search runs: the filters of its kind, and what else that search takes. */
export const savedSearchQueryFields = {
  companySearchParams: companySearchParams.optional().describe('For kind companies: the companySearch filters.'),
  peopleSearchParams: peopleSearchParams.optional().describe('For kind people: the peopleSearch filters.'),
  currentCompanies: currentCompanies('For kind people: only people currently at these companies.'),
  companyExclusionListIDs: exclusionListIds(
    'Leave out companies on these lists (for people: people at those companies).',
  ),
  prospectExclusionListIDs: exclusionListIds('For kind people: leave out people on these prospect lists.'),
};

export const savedSearchView = z.object({
  savedSearchId: z.string(),
  name: z.string(),
  kind: savedSearchKind,
  searchParams: z.record(z.string(), z.unknown()).describe('The filters, as stored.'),
  currentCompanies: z.array(z.record(z.string(), z.unknown())),
  companyExclusionListIDs: z.array(z.string()),
  prospectExclusionListIDs: z.array(z.string()),
  schedule,
  maxNewRecordsPerRun: z.number().int(),
  userEmail: z.string().nullable(),
  nextRunAt: isoTimestamp.nullable().describe('When the next scheduled run starts; null when manual.'),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
});

export const savedSearchRunView = z.object({
  runId: z.string(),
  savedSearchId: z.string(),
  trigger: z.enum(['manual', 'schedule']),
  status: z.enum(['QUEUED', 'RUNNING', 'DONE', 'FAILED']),
  maxNewRecords: z.number().int(),
  matched: z.number().int().nullable().describe('Records matching the search when it ran (see matchedExact).'),
  matchedExact: z
    .boolean()
    .nullable()
    .describe('False when matched is an estimate (as companyCount and peopleCount say).'),
  newRecords: z
    .number()
    .int()
    .nullable()
    .describe('Records no earlier run of this saved search delivered, delivered and charged by this run.'),
  moreNew: z
    .boolean()
    .nullable()
    .describe('True when more new records matched than maxNewRecords: the next run takes them.'),
  creditsCharged: z.number().int(),
  failureReason: z.string().nullable(),
  createdAt: isoTimestamp,
  startedAt: isoTimestamp.nullable(),
  completedAt: isoTimestamp.nullable(),
});

export const savedSearchRecord = z.object({
  isNew: z.boolean().describe('Delivered by this run (true) or by an earlier one (false).'),
  company: companyRecord.nullable(),
  person: profileRecord.nullable(),
});

export const userEmailField = emailAddress
  .optional()
  .describe("Mailed a list of what is new after each run that finds something; one of the account's own addresses.");
