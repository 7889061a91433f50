import type pg from 'pg';
import { z } from 'zod';
import { newRecordCredits } from '../../../operations/schemas/saved-searches.js';
import { AppError } from '../../errors.js';
import { storedCompanyParams, storedPeopleParams } from '../search/stored-filters.js';
import { accountOf, defineJob, enqueue, JobInterrupted, type JobRun } from '../../job-queue/index.js';
import type { Queryable } from '../../store/db.js';
import { enqueueMail } from '../audiences/mail.js';
import { charge } from '../credits.js';
import { emitWebhookEvent } from '../webhooks/events.js';
import { companyConditions } from '../search/company-search.js';
import { countCompanies, countPeople, isCountTimeout, type CountResult } from '../search/count.js';
import { peopleConditions } from '../search/people-search.js';
import type { SqlConditions } from '../search/sql.js';
import {
  findSavedSearch,
  nextAfter,
  queueScheduledRun,
  requireSavedSearch,
  scheduleJobKind,
  type SavedSearchRow,
} from './saved-searches.js';
import { findRun, runColumns, runView, type RunRow } from './run-rows.js';
import type { DbConfigDeps } from '../deps.js';

/**
 * Runs of a saved search. A run finds what matches the search now (counted as companyCount and
 * peopleCount count it) and takes, in catalog order, up to its `maxNewRecords` records that no
 * earlier run of the saved search delivered: those are its new records, charged 2 credits each.
 * A run that finds nothing new costs nothing.
 *
 * A run is a job in two steps, each its own transaction and each safe to run again:
 * 1. find: the new records are written as the run's candidates (undelivered), replacing any an
 *    interrupted attempt left;
 * 2. settle: in ONE transaction, charge for the candidates (ledger key `saved-search-run:<id>`),
 *    mark them delivered and the run DONE, and queue the mail. When the balance cannot pay, the
 *    run ends FAILED with the amount in `failureReason`, nothing is charged and nothing is
 *    delivered: the next run finds the same records new again.
 * A process killed anywhere leaves the run to the next claim of its job, which finishes it with
 * one charge. One run at a time per saved search (a unique index): two at once would take the
 * same records for new.
 */

export const savedSearchCreditUnit = 'savedSearchNewRecord';

export const savedSearchRunJob = defineJob({
  kind: 'saved-search.run',
  payload: z.object({ savedSearchId: z.number().int().positive(), runId: z.number().int().positive() }),
  maxAttempts: 5,
  run: (run, context: DbConfigDeps) => runSavedSearchJob(context, run),
  exhausted: (job, error, context: DbConfigDeps) =>
    failRun(
      context,
      accountOf(job),
      job.payload.runId,
      `the run stopped after repeated errors (${error.slice(0, 200)}); nothing was charged`,
    ),
});

/** Starts the run a schedule queued (saved-searches.ts queues it; see `scheduleJobKind`). */
export const scheduleJob = defineJob({
  ...scheduleJobKind,
  run: (run, context: DbConfigDeps) =>
    startScheduledRun(context, accountOf(run.job), run.job.payload.savedSearchId, run.job.payload.dueAt),
});

/** Starts a run by hand: queued as a job, charged when it completes. */
export async function startManualRun(
  context: DbConfigDeps,
  accountId: number,
  savedSearchId: string,
  maxNewRecords: number,
): Promise<RunRow> {
  const run = await context.db.transaction(async (tx) => {
    const search = await requireSavedSearch(tx, accountId, savedSearchId, true);
    // Filters stored before empty lists were refused: refused now, before a run is queued.
    await conditionsOf(tx, search);
    const active = await activeRun(tx, accountId, search.id);
    if (active) {
      throw new AppError(
        'invalid_state',
        `Run ${active.id} of saved search ${search.id} is still ${active.status}: poll getSavedSearchRun until it is DONE, then run again.`,
        { details: { runId: String(active.id), status: active.status } },
      );
    }
    return createRun(tx, search, 'manual', maxNewRecords);
  });
  return run;
}

/** The schedule job's work: start the run due at `dueAt`, unless the schedule moved since; queue the next one. */
export async function startScheduledRun(
  context: DbConfigDeps,
  accountId: number,
  savedSearchId: number,
  dueAt: string,
): Promise<void> {
  await context.db.transaction(async (tx) => {
    const search = await findSavedSearch(tx, accountId, savedSearchId, true);
    if (!search || search.schedule === 'manual' || search.next_run_at?.toISOString() !== dueAt) return;
    // A run still going (a long manual one) covers this turn; the schedule goes on.
    if (!(await activeRun(tx, accountId, search.id)))
      await createRun(tx, search, 'schedule', search.max_new_records_per_run);
    await queueScheduledRun(tx, search, nextAfter(search.schedule, new Date(dueAt)));
  });
}

async function activeRun(tx: Queryable, accountId: number, savedSearchId: number): Promise<RunRow | null> {
  const result = await tx.query<RunRow>(
    `SELECT ${runColumns} FROM saved_search_runs WHERE account_id = $1 AND saved_search_id = $2 AND status IN ('QUEUED', 'RUNNING')`,
    [accountId, savedSearchId],
  );
  return result.rows[0] ?? null;
}

async function createRun(
  tx: pg.PoolClient,
  search: SavedSearchRow,
  trigger: 'manual' | 'schedule',
  maxNewRecords: number,
): Promise<RunRow> {
  const inserted = await tx.query<RunRow>(
    `INSERT INTO saved_search_runs (account_id, saved_search_id, trigger, max_new_records) VALUES ($1, $2, $3, $4) RETURNING ${runColumns}`,
    [search.account_id, search.id, trigger, maxNewRecords],
  );
  const run = inserted.rows[0] as RunRow;
  await enqueue(tx, savedSearchRunJob, {
    accountId: search.account_id,
    payload: { savedSearchId: search.id, runId: run.id },
  });
  return run;
}

const fixStored = 'Set the filters again with updateSavedSearch, listing at least one value in each list.';

/** The conditions of the saved search's query, on `c` or `p`, or null when it can match nothing. */
async function conditionsOf(db: Queryable, search: SavedSearchRow): Promise<SqlConditions | null> {
  const { query } = search;
  if (search.kind === 'companies') {
    return companyConditions(db, search.account_id, {
      searchParams: storedCompanyParams(query.searchParams, 'searchParams', fixStored),
      companyExclusionListIDs: query.companyExclusionListIDs,
    });
  }
  return peopleConditions(db, search.account_id, {
    searchParams: storedPeopleParams(query.searchParams, 'searchParams', fixStored),
    currentCompanies: query.currentCompanies,
    companyExclusionListIDs: query.companyExclusionListIDs,
    prospectExclusionListIDs: query.prospectExclusionListIDs,
  });
}

export async function runSavedSearchJob(
  context: DbConfigDeps,
  job: JobRun<{ savedSearchId: number; runId: number }>,
): Promise<void> {
  const accountId = accountOf(job.job);
  const { runId } = job.job.payload;
  const seen = await findRun(context.db.pool, accountId, runId);
  // Finished by an earlier attempt, or deleted with its saved search.
  if (!seen || seen.status === 'DONE' || seen.status === 'FAILED') return;
  await context.db.pool.query(
    `UPDATE saved_search_runs SET status = 'RUNNING', started_at = coalesce(started_at, now()) WHERE account_id = $1 AND id = $2 AND status = 'QUEUED'`,
    [accountId, runId],
  );

  let found: { candidates: number; more: boolean; matched: CountResult | null } | null;
  try {
    found = await findNewRecords(context, accountId, runId);
  } catch (error) {
    // An exclusion list of the search was deleted, or its stored filters no longer fit the rules
    // (an empty list from before they were refused): retrying cannot help.
    if (!(error instanceof AppError) || (error.code !== 'not_found' && error.code !== 'invalid_request')) throw error;
    await failRun(
      context,
      accountId,
      runId,
      error.code === 'not_found'
        ? `${error.message} Nothing was charged; update the saved search's lists.`
        : error.message,
    );
    return;
  }
  if (!found) return;
  await job.progress({ step: 'found', candidates: found.candidates });
  await job.pause(context.config.JOB_STEP_DELAY_MS);
  job.checkpoint();
  await settleRun(context, accountId, job.job.payload.savedSearchId, runId, found);
  await job.progress({ step: 'settled', candidates: found.candidates });
}

/** Step 1: the run's candidates, replacing what an interrupted attempt left. Null when the run is gone or over. */
async function findNewRecords(
  context: DbConfigDeps,
  accountId: number,
  runId: number,
): Promise<{ candidates: number; more: boolean; matched: CountResult | null } | null> {
  const stored = await context.db.transaction(async (tx) => {
    const run = await findRun(tx, accountId, runId, true);
    if (run?.status !== 'RUNNING') return null;
    const search = await findSavedSearch(tx, accountId, run.saved_search_id);
    if (!search) return null;
    await tx.query(
      'DELETE FROM saved_search_records WHERE account_id = $1 AND saved_search_id = $2 AND run_id = $3 AND NOT delivered',
      [accountId, search.id, runId],
    );
    const sql = await conditionsOf(tx, search);
    if (!sql) return { search, candidates: 0, more: false };
    const alias = search.kind === 'companies' ? 'c' : 'p';
    const account = sql.bind(accountId);
    const searchId = sql.bind(search.id);
    sql.add(
      `NOT EXISTS (SELECT 1 FROM saved_search_records r WHERE r.account_id = ${account} AND r.saved_search_id = ${searchId} AND r.record_id = ${alias}.id)`,
    );
    const result = await tx.query<{ found: number; inserted: number }>(
      `WITH found AS (
         SELECT ${alias}.id FROM ${search.kind === 'companies' ? 'companies c' : 'people p'} ${sql.where()}
          ORDER BY ${alias}.id LIMIT ${sql.bind(run.max_new_records + 1)}),
       inserted AS (
         INSERT INTO saved_search_records (account_id, saved_search_id, record_id, run_id)
         SELECT ${account}, ${searchId}, id, ${sql.bind(runId)} FROM found ORDER BY id LIMIT ${sql.bind(run.max_new_records)}
         RETURNING 1)
       SELECT (SELECT count(*) FROM found)::int AS found, (SELECT count(*) FROM inserted)::int AS inserted`,
      sql.params,
    );
    const counts = result.rows[0] as { found: number; inserted: number };
    return { search, candidates: counts.inserted, more: counts.found > counts.inserted };
  });
  if (!stored) return null;
  const matched = await countMatches(context, stored.search);
  return { candidates: stored.candidates, more: stored.more, matched };
}

/** What matches now, as the counts answer it; null when counting ran past its guard (the run goes on without it). */
async function countMatches(context: DbConfigDeps, search: SavedSearchRow): Promise<CountResult | null> {
  try {
    return await countFor(context, search);
  } catch (error) {
    if (isCountTimeout(error)) return null;
    throw error;
  }
}

async function countFor(context: DbConfigDeps, search: SavedSearchRow): Promise<CountResult> {
  const { query } = search;
  const options = { timeoutMs: context.config.SEARCH_STATEMENT_TIMEOUT_MS };
  if (search.kind === 'companies') {
    return countCompanies(
      context.db.pool,
      search.account_id,
      {
        searchParams: storedCompanyParams(query.searchParams, 'searchParams', fixStored),
        companyExclusionListIDs: query.companyExclusionListIDs,
      },
      options,
    );
  }
  return countPeople(
    context.db.pool,
    search.account_id,
    {
      searchParams: storedPeopleParams(query.searchParams, 'searchParams', fixStored),
      currentCompanies: query.currentCompanies,
      companyExclusionListIDs: query.companyExclusionListIDs,
      prospectExclusionListIDs: query.prospectExclusionListIDs,
    },
    options,
  );
}

/** Step 2: charge, deliver and finish in one transaction; on a short balance, FAILED with nothing charged or delivered. */
async function settleRun(
  context: DbConfigDeps,
  accountId: number,
  savedSearchId: number,
  runId: number,
  found: { more: boolean; matched: CountResult | null },
): Promise<void> {
  let credits = 0;
  try {
    await context.db.transaction(async (tx) => {
      // The saved search first, then the run, in the order its deletion locks them: a deletion
      // then comes wholly before this (nothing charged) or wholly after.
      const search = await findSavedSearch(tx, accountId, savedSearchId, true);
      if (!search) throw new JobInterrupted('the saved search was deleted');
      const run = await findRun(tx, accountId, runId, true);
      if (run?.status !== 'RUNNING') return;
      const candidates = await tx.query<{ record_id: number }>(
        `UPDATE saved_search_records SET delivered = true WHERE account_id = $1 AND saved_search_id = $2 AND run_id = $3 AND NOT delivered
         RETURNING record_id`,
        [accountId, search.id, runId],
      );
      const newRecords = candidates.rowCount ?? 0;
      credits = newRecords * newRecordCredits;
      await charge(tx, accountId, credits, {
        unit: savedSearchCreditUnit,
        reason: `saved search ${search.id} run ${runId}: ${newRecords} new records`,
        reference: `saved-search-run:${runId}`,
        idempotencyKey: `saved-search-run:${runId}`,
      });
      const done = await tx.query<RunRow>(
        `UPDATE saved_search_runs SET status = 'DONE', matched = $3, matched_exact = $4, new_records = $5, more_new = $6, credits_charged = $7,
                completed_at = now()
          WHERE account_id = $1 AND id = $2 RETURNING ${runColumns}`,
        [accountId, runId, found.matched?.count ?? null, found.matched?.exact ?? null, newRecords, found.more, credits],
      );
      if (newRecords > 0) {
        await emitWebhookEvent(tx, accountId, 'saved_search.new_matches', {
          ...runView(done.rows[0] as RunRow),
          savedSearchName: search.name,
        });
      }
      if (!search.user_email || newRecords === 0) return;
      await enqueueMail(tx, accountId, {
        to: search.user_email,
        // Caller text (the saved search's name) stays out of the subject.
        subject: `Your saved search ${search.id} found ${newRecords} new ${search.kind === 'companies' ? 'companies' : 'people'}`,
        template: {
          kind: 'saved-search-new',
          savedSearchId: search.id,
          savedSearchName: search.name,
          runId,
          newRecords,
          moreNew: found.more,
          lines: await describeRecords(tx, search, runId, 50),
          creditsCharged: credits,
        },
      });
    });
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'insufficient_credits') throw error;
    const balance = (error.details?.balance as number | undefined) ?? 0;
    await failRun(
      context,
      accountId,
      runId,
      `insufficient credits: the run found ${credits / newRecordCredits} new records, which cost ${credits} credits, and the balance was ${balance}. ` +
        'Nothing was charged or delivered; the next run finds them again. Add credits, or lower maxNewRecords.',
    );
  }
}

/** QUEUED or RUNNING → FAILED, its undelivered candidates dropped, nothing charged. */
export async function failRun(context: DbConfigDeps, accountId: number, runId: number, reason: string): Promise<void> {
  await context.db.transaction(async (tx) => {
    const run = await findRun(tx, accountId, runId, true);
    if (!run || (run.status !== 'QUEUED' && run.status !== 'RUNNING')) return;
    await tx.query(
      'DELETE FROM saved_search_records WHERE account_id = $1 AND saved_search_id = $2 AND run_id = $3 AND NOT delivered',
      [accountId, run.saved_search_id, runId],
    );
    const failed = await tx.query<RunRow>(
      `UPDATE saved_search_runs SET status = 'FAILED', failure_reason = $3, completed_at = now() WHERE account_id = $1 AND id = $2
       RETURNING ${runColumns}`,
      [accountId, runId, reason],
    );
    const search = await findSavedSearch(tx, accountId, run.saved_search_id);
    await emitWebhookEvent(tx, accountId, 'saved_search.run.failed', {
      ...runView(failed.rows[0] as RunRow),
      savedSearchName: search?.name ?? null,
    });
  });
}

/** One line per new record of the run, for the mail: a company's name and domain, a person's name, title and company. */
async function describeRecords(tx: Queryable, search: SavedSearchRow, runId: number, limit: number): Promise<string[]> {
  const result =
    search.kind === 'companies'
      ? await tx.query<{ line: string }>(
          `SELECT c.preferred_name || coalesce(' (' || c.domains[1] || ')', '') AS line
             FROM saved_search_records r JOIN companies c ON c.id = r.record_id
            WHERE r.account_id = $1 AND r.saved_search_id = $2 AND r.run_id = $3 ORDER BY r.record_id LIMIT $4`,
          [search.account_id, search.id, runId, limit],
        )
      : await tx.query<{ line: string }>(
          `SELECT p.first_name || ' ' || p.last_name || coalesce(', ' || nullif(p.title, ''), '') || coalesce(' at ' || p.company_name, '') AS line
             FROM saved_search_records r JOIN people p ON p.id = r.record_id
            WHERE r.account_id = $1 AND r.saved_search_id = $2 AND r.run_id = $3 ORDER BY r.record_id LIMIT $4`,
          [search.account_id, search.id, runId, limit],
        );
  return result.rows.map((r) => r.line);
}
