import type pg from 'pg';
import { z } from 'zod';
import {
  currentCompany,
  type CompanySearchParams,
  type CurrentCompany,
  type PeopleSearchParams,
} from '../../../operations/schemas/filters.js';
import { AppError } from '../../errors.js';
import { cancelJobs, enqueue } from '../../job-queue/index.js';
import type { Database, Queryable } from '../../store/db.js';
import { requireExclusionLists } from '../exclusion-lists.js';
import { storedCompanyParams, storedPeopleParams } from '../search/stored-filters.js';
import { requireMailRecipient } from '../mail-recipients.js';
import type { CursorCodec } from '../search/cursor.js';
import type { DbConfigDeps } from '../deps.js';

/**
 * Saved searches that watch for new matches. A saved search is a company or people search (the
 * same filters, currentCompanies and exclusion lists as companySearch and peopleSearch) with a
 * schedule: `manual` runs only when asked (runSavedSearch), `daily` and `weekly` also run by
 * themselves, the first time one period after the schedule was set. The runs are in runs.ts.
 *
 * The schedule lives on the durable job table: each scheduled saved search has one
 * `saved-search.schedule` job queued for its next run, carrying the time it is for; the job starts
 * the run, moves `next_run_at` on by one period and queues the job for that, in one transaction.
 * A change of schedule moves `next_run_at` and queues a job for the new time: a job left for the
 * old time finds `next_run_at` moved and does nothing. So a restart, a retried job or several
 * instances never start a scheduled run twice.
 */

export type SavedSearchKind = 'companies' | 'people';
export type Schedule = 'manual' | 'daily' | 'weekly';

const periodMs: Record<Exclude<Schedule, 'manual'>, number> = { daily: 24 * 3600_000, weekly: 7 * 24 * 3600_000 };

/** What a saved search runs, as stored in `saved_searches.query`. */
export const storedQuery = z.object({
  searchParams: z.record(z.string(), z.unknown()),
  currentCompanies: z.array(currentCompany).default([]),
  companyExclusionListIDs: z.array(z.string()).default([]),
  prospectExclusionListIDs: z.array(z.string()).default([]),
});
export type StoredQuery = z.infer<typeof storedQuery>;

export interface SavedSearchRow {
  account_id: number;
  id: number;
  name: string;
  kind: SavedSearchKind;
  query: StoredQuery;
  schedule: Schedule;
  max_new_records_per_run: number;
  user_email: string | null;
  next_run_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const savedSearchColumns =
  'account_id, id, name, kind, query, schedule, max_new_records_per_run, user_email, next_run_at, created_at, updated_at';

export interface SavedSearchQueryInput {
  companySearchParams?: CompanySearchParams | undefined;
  peopleSearchParams?: PeopleSearchParams | undefined;
  /** null (an update's way to remove the restriction) is stored as no companies. */
  currentCompanies?: CurrentCompany[] | null | undefined;
  companyExclusionListIDs?: string[] | undefined;
  prospectExclusionListIDs?: string[] | undefined;
}

export interface CreateSavedSearchInput extends SavedSearchQueryInput {
  name: string;
  kind: SavedSearchKind;
  schedule: Schedule;
  maxNewRecordsPerRun: number;
  userEmail?: string | undefined;
}

/**
 * The schedule job's kind and payload: enough to queue and cancel it here. Its work, starting a
 * run, is defined beside the runs (`scheduleJob` in runs.ts), which read saved searches from here.
 */
export const scheduleJobKind = {
  kind: 'saved-search.schedule',
  payload: z.object({ savedSearchId: z.number().int().positive(), dueAt: z.string() }),
  maxAttempts: 10,
};

export function viewOf(row: SavedSearchRow) {
  return {
    savedSearchId: String(row.id),
    name: row.name,
    kind: row.kind,
    searchParams: row.query.searchParams,
    currentCompanies: row.query.currentCompanies as Array<Record<string, unknown>>,
    companyExclusionListIDs: row.query.companyExclusionListIDs,
    prospectExclusionListIDs: row.query.prospectExclusionListIDs,
    schedule: row.schedule,
    maxNewRecordsPerRun: row.max_new_records_per_run,
    userEmail: row.user_email,
    nextRunAt: row.next_run_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export async function createSavedSearch(
  context: DbConfigDeps,
  accountId: number,
  input: CreateSavedSearchInput,
): Promise<SavedSearchRow> {
  const query = queryOf(input.kind, input);
  await requireMailRecipient(context.db.pool, accountId, input.userEmail, {
    anyRecipient: context.config.MAIL_ANY_RECIPIENT,
  });
  const created = await context.db.transaction(async (tx) => {
    await requireListsOf(tx, accountId, input.kind, query);
    const inserted = await tx.query<SavedSearchRow>(
      `INSERT INTO saved_searches (account_id, name, kind, query, schedule, max_new_records_per_run, user_email)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${savedSearchColumns}`,
      [
        accountId,
        input.name,
        input.kind,
        JSON.stringify(query),
        input.schedule,
        input.maxNewRecordsPerRun,
        input.userEmail ?? null,
      ],
    );
    return scheduleNext(tx, inserted.rows[0] as SavedSearchRow);
  });
  return created;
}

export interface UpdateSavedSearchInput extends SavedSearchQueryInput {
  name?: string | undefined;
  schedule?: Schedule | undefined;
  maxNewRecordsPerRun?: number | undefined;
  userEmail?: string | null | undefined;
}

/**
 * Changes what is given and keeps the rest. New filters replace the old ones whole (with their
 * currentCompanies and lists); records earlier runs delivered stay delivered, so a run after the
 * change charges only for records no run delivered before.
 */
export async function updateSavedSearch(
  context: DbConfigDeps,
  accountId: number,
  savedSearchId: string,
  input: UpdateSavedSearchInput,
): Promise<SavedSearchRow> {
  if (input.userEmail)
    await requireMailRecipient(context.db.pool, accountId, input.userEmail, {
      anyRecipient: context.config.MAIL_ANY_RECIPIENT,
    });
  const updated = await context.db.transaction(async (tx) => {
    const current = await requireSavedSearch(tx, accountId, savedSearchId, true);
    const filtersGiven =
      input.companySearchParams !== undefined ||
      input.peopleSearchParams !== undefined ||
      input.currentCompanies !== undefined ||
      input.companyExclusionListIDs !== undefined ||
      input.prospectExclusionListIDs !== undefined;
    const query = filtersGiven ? queryOf(current.kind, withKindFilters(current, input)) : current.query;
    if (filtersGiven) await requireListsOf(tx, accountId, current.kind, query);
    const schedule = input.schedule ?? current.schedule;
    const result = await tx.query<SavedSearchRow>(
      `UPDATE saved_searches SET name = $3, query = $4, schedule = $5, max_new_records_per_run = $6, user_email = $7, updated_at = now()
        WHERE account_id = $1 AND id = $2 RETURNING ${savedSearchColumns}`,
      [
        accountId,
        current.id,
        input.name ?? current.name,
        JSON.stringify(query),
        schedule,
        input.maxNewRecordsPerRun ?? current.max_new_records_per_run,
        input.userEmail === undefined ? current.user_email : input.userEmail,
      ],
    );
    const row = result.rows[0] as SavedSearchRow;
    return schedule === current.schedule ? row : scheduleNext(tx, row);
  });
  return updated;
}

/** Filters of an update: the kind's filters may be left out when only lists or companies change. */
function withKindFilters(current: SavedSearchRow, input: SavedSearchQueryInput): SavedSearchQueryInput {
  const fix = 'Give the filters again in this update, listing at least one value in each list.';
  return {
    ...(current.kind === 'companies'
      ? {
          companySearchParams:
            input.companySearchParams ?? storedCompanyParams(current.query.searchParams, 'companySearchParams', fix),
          peopleSearchParams: input.peopleSearchParams,
        }
      : {
          peopleSearchParams:
            input.peopleSearchParams ?? storedPeopleParams(current.query.searchParams, 'peopleSearchParams', fix),
          companySearchParams: input.companySearchParams,
        }),
    currentCompanies: input.currentCompanies === null ? [] : (input.currentCompanies ?? current.query.currentCompanies),
    companyExclusionListIDs: input.companyExclusionListIDs ?? current.query.companyExclusionListIDs,
    prospectExclusionListIDs: input.prospectExclusionListIDs ?? current.query.prospectExclusionListIDs,
  };
}

/** Sets the next scheduled run one period from now (none when manual) and queues its job. */
async function scheduleNext(tx: pg.PoolClient, row: SavedSearchRow): Promise<SavedSearchRow> {
  if (row.schedule === 'manual') {
    const cleared = await tx.query<SavedSearchRow>(
      `UPDATE saved_searches SET next_run_at = NULL WHERE account_id = $1 AND id = $2 RETURNING ${savedSearchColumns}`,
      [row.account_id, row.id],
    );
    return cleared.rows[0] as SavedSearchRow;
  }
  const next = new Date(Date.now() + periodMs[row.schedule]);
  return queueScheduledRun(tx, row, next);
}

/** Records `next` as the next run and queues the schedule job for it. */
export async function queueScheduledRun(tx: pg.PoolClient, row: SavedSearchRow, next: Date): Promise<SavedSearchRow> {
  // Stored at millisecond precision, so the job's copy of the time compares equal to it.
  const updated = await tx.query<SavedSearchRow>(
    `UPDATE saved_searches SET next_run_at = $3 WHERE account_id = $1 AND id = $2 RETURNING ${savedSearchColumns}`,
    [row.account_id, row.id, next.toISOString()],
  );
  await enqueue(tx, scheduleJobKind, {
    accountId: row.account_id,
    payload: { savedSearchId: row.id, dueAt: next.toISOString() },
    delayMs: Math.max(0, next.getTime() - Date.now()),
  });
  return updated.rows[0] as SavedSearchRow;
}

/** The run after `dueAt` by the schedule: one period on, and never in the past (a service that was down does not run a backlog). */
export function nextAfter(schedule: Exclude<Schedule, 'manual'>, dueAt: Date, now = new Date()): Date {
  let next = dueAt.getTime() + periodMs[schedule];
  while (next <= now.getTime()) next += periodMs[schedule];
  return new Date(next);
}

export async function requireSavedSearch(
  db: Queryable,
  accountId: number,
  savedSearchId: string | number,
  forUpdate = false,
): Promise<SavedSearchRow> {
  const row = await findSavedSearch(db, accountId, savedSearchId, forUpdate);
  if (!row) throw new AppError('not_found', `Saved search ${savedSearchId} not found. listSavedSearches lists yours.`);
  return row;
}

export async function findSavedSearch(
  db: Queryable,
  accountId: number,
  savedSearchId: string | number,
  forUpdate = false,
): Promise<SavedSearchRow | null> {
  const result = await db.query<SavedSearchRow>(
    `SELECT ${savedSearchColumns} FROM saved_searches WHERE account_id = $1 AND id = $2 ${forUpdate ? 'FOR UPDATE' : ''}`,
    [accountId, Number(savedSearchId)],
  );
  return result.rows[0] ?? null;
}

export async function listSavedSearches(
  db: Queryable,
  cursors: CursorCodec,
  accountId: number,
  query: { pageSize: number; cursor?: string | null | undefined },
): Promise<{ data: SavedSearchRow[]; nextCursor: string | null }> {
  const pages = cursors.scope(accountId, 'listSavedSearches', { accountId });
  const before = pages.decode(query.cursor);
  const result = await db.query<SavedSearchRow>(
    `SELECT ${savedSearchColumns} FROM saved_searches WHERE account_id = $1 AND ($2::bigint = 0 OR id < $2) ORDER BY id DESC LIMIT $3`,
    [accountId, before, query.pageSize + 1],
  );
  const { rows, nextCursor } = pages.page(result.rows, query.pageSize, (row) => row.id);
  return { data: rows, nextCursor };
}

/** Deletes the saved search, its runs and records; a queued or running run is cancelled (nothing it found is charged). */
export async function deleteSavedSearch(
  db: Database,
  accountId: number,
  savedSearchId: string,
): Promise<{ savedSearchId: string; deleted: true }> {
  return db.transaction(async (tx) => {
    const row = await requireSavedSearch(tx, accountId, savedSearchId, true);
    const reason = `cancelled: saved search ${row.id} was deleted`;
    await cancelJobs(tx, 'saved-search.run', accountId, { savedSearchId: row.id }, reason);
    await cancelJobs(tx, scheduleJobKind.kind, accountId, { savedSearchId: row.id }, reason);
    await tx.query('DELETE FROM saved_search_records WHERE account_id = $1 AND saved_search_id = $2', [
      accountId,
      row.id,
    ]);
    await tx.query('DELETE FROM saved_search_runs WHERE account_id = $1 AND saved_search_id = $2', [accountId, row.id]);
    await tx.query('DELETE FROM saved_searches WHERE account_id = $1 AND id = $2', [accountId, row.id]);
    return { savedSearchId: String(row.id), deleted: true as const };
  });
}

/** The stored query of a saved search of `kind`, from the operation's fields; 400 naming the field that does not fit the kind. */
function queryOf(kind: SavedSearchKind, input: SavedSearchQueryInput): StoredQuery {
  const refuse = (field: string, message: string): never => {
    throw new AppError('invalid_request', `Invalid request: ${field}: ${message}`, {
      details: { issues: [{ field, message }] },
    });
  };
  if (kind === 'companies') {
    if (input.peopleSearchParams !== undefined)
      refuse('peopleSearchParams', 'a companies saved search takes companySearchParams');
    if (input.currentCompanies?.length) refuse('currentCompanies', 'only people saved searches take currentCompanies');
    if (input.prospectExclusionListIDs?.length)
      refuse('prospectExclusionListIDs', 'only people saved searches take prospect lists');
    if (input.companySearchParams === undefined)
      refuse('companySearchParams', 'required for a companies saved search ({} matches every company)');
  } else {
    if (input.companySearchParams !== undefined)
      refuse('companySearchParams', 'a people saved search takes peopleSearchParams');
    if (input.peopleSearchParams === undefined) refuse('peopleSearchParams', 'required for a people saved search');
  }
  return {
    searchParams: (kind === 'companies' ? input.companySearchParams : input.peopleSearchParams) as Record<
      string,
      unknown
    >,
    currentCompanies: input.currentCompanies ?? [],
    companyExclusionListIDs: input.companyExclusionListIDs ?? [],
    prospectExclusionListIDs: input.prospectExclusionListIDs ?? [],
  };
}

async function requireListsOf(
  db: Queryable,
  accountId: number,
  kind: SavedSearchKind,
  query: StoredQuery,
): Promise<void> {
  await requireExclusionLists(db, accountId, query.companyExclusionListIDs, 'companies', 'companyExclusionListIDs');
  if (kind === 'people')
    await requireExclusionLists(db, accountId, query.prospectExclusionListIDs, 'prospects', 'prospectExclusionListIDs');
}
