import { AppError } from '../../errors.js';
import { findAccountRow, type Queryable } from '../../store/db.js';
import type { CursorCodec } from '../search/cursor.js';
import {
  companyColumns,
  profileColumns,
  toCompanyRecord,
  toProfileRecord,
  type CompanyRow,
  type ProfileRow,
} from '../search/records.js';
import { requireSavedSearch } from './saved-searches.js';

/** The runs of a saved search as stored, and what reads them: a run, the list, a run's records. Running them: runs.ts. */

export type RunStatus = 'QUEUED' | 'RUNNING' | 'DONE' | 'FAILED';

export interface RunRow {
  account_id: number;
  id: number;
  saved_search_id: number;
  trigger: 'manual' | 'schedule';
  status: RunStatus;
  max_new_records: number;
  matched: number | null;
  matched_exact: boolean | null;
  new_records: number | null;
  more_new: boolean | null;
  credits_charged: number;
  failure_reason: string | null;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
}

export const runColumns = `account_id, id, saved_search_id, trigger, status, max_new_records, matched, matched_exact, new_records, more_new,
  credits_charged, failure_reason, created_at, started_at, completed_at`;

export function runView(row: RunRow) {
  return {
    runId: String(row.id),
    savedSearchId: String(row.saved_search_id),
    trigger: row.trigger,
    status: row.status,
    maxNewRecords: row.max_new_records,
    matched: row.matched,
    matchedExact: row.matched_exact,
    newRecords: row.new_records,
    moreNew: row.more_new,
    creditsCharged: row.credits_charged,
    failureReason: row.failure_reason,
    createdAt: row.created_at.toISOString(),
    startedAt: row.started_at?.toISOString() ?? null,
    completedAt: row.completed_at?.toISOString() ?? null,
  };
}

export async function findRun(
  db: Queryable,
  accountId: number,
  runId: number,
  forUpdate = false,
): Promise<RunRow | null> {
  return findAccountRow<RunRow>(db, 'saved_search_runs', runColumns, accountId, runId, forUpdate);
}

export async function requireRun(
  db: Queryable,
  accountId: number,
  savedSearchId: string,
  runId: string,
): Promise<RunRow> {
  const search = await requireSavedSearch(db, accountId, savedSearchId);
  const run = await findRun(db, accountId, Number(runId));
  if (!run || run.saved_search_id !== search.id)
    throw new AppError('not_found', `Run ${runId} of saved search ${savedSearchId} not found.`);
  return run;
}

export async function listRuns(
  db: Queryable,
  cursors: CursorCodec,
  accountId: number,
  query: { savedSearchId: string; pageSize: number; cursor?: string | null | undefined },
): Promise<{ data: RunRow[]; nextCursor: string | null }> {
  const search = await requireSavedSearch(db, accountId, query.savedSearchId);
  const pages = cursors.scope(accountId, 'listSavedSearchRuns', { search: search.id });
  const before = pages.decode(query.cursor);
  const result = await db.query<RunRow>(
    `SELECT ${runColumns} FROM saved_search_runs WHERE account_id = $1 AND saved_search_id = $2 AND ($3::bigint = 0 OR id < $3)
      ORDER BY id DESC LIMIT $4`,
    [accountId, search.id, before, query.pageSize + 1],
  );
  const { rows, nextCursor } = pages.page(result.rows, query.pageSize, (row) => row.id);
  return { data: rows, nextCursor };
}

/**
 * A run's records, free (the run paid for them): with `onlyNew`, those it delivered; without,
 * the saved search's whole list as it stood after the run (what this run and the earlier ones
 * delivered), each marked new or not. In catalog order, cursor-paged.
 */
export async function listRunRecords(
  db: Queryable,
  cursors: CursorCodec,
  accountId: number,
  query: {
    savedSearchId: string;
    runId: string;
    onlyNew: boolean;
    pageSize: number;
    cursor?: string | null | undefined;
  },
) {
  const run = await requireRun(db, accountId, query.savedSearchId, query.runId);
  const search = await requireSavedSearch(db, accountId, query.savedSearchId);
  const pages = cursors.scope(accountId, 'listSavedSearchRunRecords', { run: run.id, onlyNew: query.onlyNew });
  const after = pages.decode(query.cursor);
  const params = [accountId, search.id, run.id, after, query.pageSize + 1, query.onlyNew];
  const which = `r.account_id = $1 AND r.saved_search_id = $2 AND r.delivered AND r.record_id > $4 AND (CASE WHEN $6::boolean THEN r.run_id = $3 ELSE r.run_id <= $3 END)`;
  type Row<T> = T & { run_id: number };
  const rows: Row<CompanyRow | ProfileRow>[] =
    search.kind === 'companies'
      ? (
          await db.query<Row<CompanyRow>>(
            `SELECT ${companyColumns}, r.run_id FROM saved_search_records r JOIN companies c ON c.id = r.record_id WHERE ${which} ORDER BY r.record_id LIMIT $5`,
            params,
          )
        ).rows
      : (
          await db.query<Row<ProfileRow>>(
            `SELECT ${profileColumns({})}, r.run_id FROM saved_search_records r JOIN people p ON p.id = r.record_id WHERE ${which} ORDER BY r.record_id LIMIT $5`,
            params,
          )
        ).rows;
  const { rows: page, nextCursor } = pages.page(rows, query.pageSize, (row) => row.id);
  return {
    runId: String(run.id),
    kind: search.kind,
    data: page.map((row) => ({
      isNew: row.run_id === run.id,
      company: search.kind === 'companies' ? toCompanyRecord(row as CompanyRow) : null,
      person: search.kind === 'people' ? toProfileRecord(row as ProfileRow, {}) : null,
    })),
    nextCursor,
  };
}
