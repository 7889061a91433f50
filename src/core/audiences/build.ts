import type pg from 'pg';
import { z } from 'zod';
import { peopleSearchParams } from '../../../operations/schemas/filters.js';
import { AppError } from '../../errors.js';
import { accountOf, defineJob, enqueue, type JobRun } from '../../job-queue/index.js';
import type { Database, Queryable } from '../../store/db.js';
import { charge } from '../credits.js';
import { companyConditions } from '../search/company-search.js';
import { peopleConditions } from '../search/people-search.js';
import { emitWebhookEvent } from '../webhooks/events.js';
import { audienceStatusView, buildRefused, storedFilters } from './audiences.js';
import { audienceColumns, findAudience, requireAudience, type AudienceRow } from './record.js';
import type { DbConfigDeps } from '../deps.js';

/**
 * Building an audience: `startBuild` moves it to BUILDING and queues the build job, which runs
 * three steps, each its own transaction and each safe to run again (a step
 * first deletes what an interrupted earlier attempt may have left):
 *
 * 1. companies: for NORMAL audiences, the companies the company filters select (the same SQL
 *    as companySearch, through `companyConditions`), first `maxCompanies` by id;
 * 2. prospects: the people the prospect filters select (the same SQL as peopleSearch, through
 *    `peopleConditions`), restricted for NORMAL audiences to people at the step-1 companies,
 *    first `maxProspects` by id;
 * 3. settle: in ONE transaction, charge 1 credit per company plus 1 per prospect (ledger
 *    idempotency key `audience-build:<id>`, so a re-run can never charge twice) and mark the
 *    audience NORMAL. If the balance cannot pay, nothing is charged, the members are removed
 *    and the audience ends FAILED with the amount needed in `failureReason`: the user did not
 *    get (and does not pay for) records the balance could not cover, and sees why.
 *
 * While BUILDING, numCompanies and numProspects report what has been found so far.
 */

export const buildCreditUnit = 'audienceBuildRecord';

export const buildJob = defineJob({
  kind: 'audience.build',
  payload: z.object({ audienceId: z.number().int().positive() }),
  maxAttempts: 5,
  run: (run, context: DbConfigDeps) => runBuild({ db: context.db, stepDelayMs: context.config.JOB_STEP_DELAY_MS }, run),
  exhausted: (job, _error, context: DbConfigDeps) =>
    failBuild(
      context.db,
      accountOf(job),
      job.payload.audienceId,
      'the build stopped after repeated internal errors; nothing was charged. Create a new audience to try again.',
    ),
});

/** DRAFT with filters → BUILDING, with the build job queued in the same transaction. */
export async function startBuild(db: Database, accountId: number, audienceId: string): Promise<AudienceRow> {
  const started = await db.transaction(async (tx) => {
    const audience = await requireAudience(tx, accountId, audienceId, true);
    if (audience.status !== 'DRAFT') throw buildRefused(audience);
    if (!audience.filters_set_at) {
      throw new AppError(
        'invalid_state',
        `Audience ${audience.id} has no filters yet: set them with updateAudienceSearchParams (PATCH /v1/audiences/${audience.id}/search-params), then build.`,
        { details: { status: audience.status } },
      );
    }
    // Filters stored before empty lists were refused: refused here, before anything runs or is charged.
    storedFilters(audience);
    const updated = await tx.query<AudienceRow>(
      `UPDATE audiences SET status = 'BUILDING', build_started_at = now() WHERE account_id = $1 AND id = $2 RETURNING ${audienceColumns}`,
      [accountId, audience.id],
    );
    await enqueue(tx, buildJob, { accountId, payload: { audienceId: audience.id } });
    return updated.rows[0] as AudienceRow;
  });
  return started;
}

export interface BuildDeps {
  db: Database;
  /** Test and demo aid: a pause after each step (JOB_STEP_DELAY_MS). */
  stepDelayMs: number;
}

export async function runBuild(deps: BuildDeps, run: JobRun<{ audienceId: number }>): Promise<void> {
  try {
    await buildSteps(deps, run);
  } catch (error) {
    // An exclusion list of its filters was deleted since they were set, or its stored filters no
    // longer fit the rules (an empty list from before they were refused): retrying cannot help.
    if (!(error instanceof AppError) || (error.code !== 'not_found' && error.code !== 'invalid_request')) throw error;
    await failBuild(
      deps.db,
      accountOf(run.job),
      run.job.payload.audienceId,
      error.code === 'not_found'
        ? `${error.message} Nothing was charged; create a new audience with lists that exist.`
        : error.message,
    );
  }
}

async function buildSteps(deps: BuildDeps, run: JobRun<{ audienceId: number }>): Promise<void> {
  const accountId = accountOf(run.job);
  const { audienceId } = run.job.payload;
  const audience = await findAudience(deps.db.pool, accountId, audienceId);
  // An earlier attempt already finished it (the process died between its commit and the job's
  // completion), or the audience was deleted while it was building.
  if (audience?.status !== 'BUILDING') return;
  const companies = await deps.db.transaction(async (tx) => {
    if (!(await stillBuilding(tx, accountId, audienceId))) return null;
    await removeMembers(tx, accountId, audienceId);
    if (audience.creation_method !== 'NORMAL') return 0;
    const selection = await companySelection(tx, accountId, audience);
    return insertMembers(
      tx,
      accountId,
      audienceId,
      `INSERT INTO audience_companies (account_id, audience_id, company_id)
       SELECT ${selection.sql.bind(accountId)}, ${selection.sql.bind(audienceId)}, c.id ${selection.from}`,
      selection.sql.params,
      'num_companies = $3, num_prospects = 0',
    );
  });
  if (companies === null) return;
  await run.progress({ step: 'companies', companies });
  await run.pause(deps.stepDelayMs);
  run.checkpoint();

  const prospects = await deps.db.transaction(async (tx) => {
    if (!(await stillBuilding(tx, accountId, audienceId))) return null;
    await tx.query('DELETE FROM audience_prospects WHERE account_id = $1 AND audience_id = $2', [
      accountId,
      audienceId,
    ]);
    if (audience.creation_method === 'NORMAL' && companies === 0) return 0;
    const selection = await prospectSelection(tx, accountId, audience, (sql) => {
      const account = sql.bind(accountId);
      const id = sql.bind(audienceId);
      return `SELECT ac.company_id FROM audience_companies ac WHERE ac.account_id = ${account} AND ac.audience_id = ${id}`;
    });
    if (!selection) return 0;
    const { sql } = selection;
    return insertMembers(
      tx,
      accountId,
      audienceId,
      `INSERT INTO audience_prospects (account_id, audience_id, person_id, company_id)
       SELECT ${sql.bind(accountId)}, ${sql.bind(audienceId)}, p.id, p.company_id ${selection.from}`,
      sql.params,
      'num_prospects = $3',
    );
  });
  if (prospects === null) return;
  await run.progress({ step: 'prospects', companies, prospects });
  await run.pause(deps.stepDelayMs);
  run.checkpoint();

  const settled = await settleBuild(deps.db, accountId, audienceId);
  await run.progress({ step: settled.status === 'NORMAL' ? 'done' : 'failed', companies, prospects });
}

type Conditions = NonNullable<Awaited<ReturnType<typeof peopleConditions>>>;

/** The companies step 1 takes: `FROM … ORDER BY … LIMIT` over the company filters, with the parameters in `sql`. */
async function companySelection(tx: Queryable, accountId: number, audience: AudienceRow) {
  const sql = await companyConditions(tx, accountId, {
    searchParams: storedFilters(audience).company ?? {},
    companyExclusionListIDs: audience.company_exclusion_list_ids.map(String),
  });
  return { sql, from: `FROM companies c ${sql.where()} ORDER BY c.id LIMIT ${sql.bind(audience.max_companies)}` };
}

/**
 * The people step 2 takes, or null when the prospect filters can match nobody. For NORMAL audiences
 * `companies` gives the subquery of the step-1 companies, written with the same parameters.
 */
async function prospectSelection(
  tx: Queryable,
  accountId: number,
  audience: AudienceRow,
  companies: (sql: Conditions) => string,
) {
  const sql = await peopleConditions(tx, accountId, {
    searchParams: storedFilters(audience).prospect ?? peopleSearchParams.parse({}),
    companyExclusionListIDs: audience.company_exclusion_list_ids.map(String),
    prospectExclusionListIDs: audience.prospect_exclusion_list_ids.map(String),
  });
  if (!sql) return null;
  if (audience.creation_method === 'NORMAL') sql.add(`p.company_id IN (${companies(sql)})`);
  return { sql, from: `FROM people p ${sql.where()} ORDER BY p.id LIMIT ${sql.bind(audience.max_prospects)}` };
}

export interface BuildEstimate {
  companies: number;
  prospects: number;
  credits: number;
}

/**
 * What building the audience now would find and charge: the build's own two selections, counted
 * and not kept, in one read-only transaction stopped after `budgetMs` (then null: the worst case
 * is all that is known). Null too when the audience is not DRAFT with filters set, or when the
 * build would refuse its filters.
 */
export async function estimateBuild(
  db: Database,
  accountId: number,
  audience: AudienceRow,
  budgetMs: number,
): Promise<BuildEstimate | null> {
  if (audience.status !== 'DRAFT' || !audience.filters_set_at) return null;
  try {
    return await db.transaction(async (tx) => {
      await tx.query('SET TRANSACTION READ ONLY');
      await tx.query(`SELECT set_config('statement_timeout', $1, true)`, [String(budgetMs)]);
      let companyIds: string[] = [];
      if (audience.creation_method === 'NORMAL') {
        const selection = await companySelection(tx, accountId, audience);
        const found = await tx.query<{ id: string }>(`SELECT c.id ${selection.from}`, selection.sql.params);
        companyIds = found.rows.map((row) => row.id);
        if (!companyIds.length) return { companies: 0, prospects: 0, credits: 0 };
      }
      const selection = await prospectSelection(
        tx,
        accountId,
        audience,
        (sql) => `SELECT unnest(${sql.bind(companyIds)}::bigint[])`,
      );
      const prospects = selection
        ? Number(
            (
              await tx.query<{ n: string }>(
                `SELECT count(*) AS n FROM (SELECT p.id ${selection.from}) chosen`,
                selection.sql.params,
              )
            ).rows[0]?.n ?? 0,
          )
        : 0;
      return { companies: companyIds.length, prospects, credits: companyIds.length + prospects };
    });
  } catch (error) {
    // Past its budget; or filters the build itself would refuse (stored before a rule, a deleted exclusion list),
    // which the build's own call says: the status answers without an estimate.
    if ((error as { code?: string }).code === '57014') return null;
    if (error instanceof AppError && (error.code === 'invalid_request' || error.code === 'not_found')) return null;
    throw error;
  }
}

/**
 * One step of a build: inserts the members its `insert` selects (capped there) and writes how many
 * on the audience (`counts` sets the columns, with that number as $3). Returns the number.
 */
async function insertMembers(
  tx: Queryable,
  accountId: number,
  audienceId: number,
  insert: string,
  params: unknown[],
  counts: string,
): Promise<number> {
  const inserted = await tx.query(insert, params);
  const count = inserted.rowCount ?? 0;
  await tx.query(`UPDATE audiences SET ${counts} WHERE account_id = $1 AND id = $2`, [accountId, audienceId, count]);
  return count;
}

/** Charges and marks NORMAL in one transaction; on a short balance, FAILED and nothing charged. */
async function settleBuild(
  db: Database,
  accountId: number,
  audienceId: number,
): Promise<{ status: 'NORMAL' | 'FAILED' | 'unchanged' }> {
  let counts = { companies: 0, prospects: 0 };
  try {
    return await db.transaction(async (tx) => {
      const audience = await findAudience(tx, accountId, audienceId, true);
      if (audience?.status !== 'BUILDING') return { status: 'unchanged' as const };
      counts = await memberCounts(tx, accountId, audienceId);
      const total = counts.companies + counts.prospects;
      await charge(tx, accountId, total, {
        unit: buildCreditUnit,
        reason: `audience ${audienceId} build: ${counts.companies} companies + ${counts.prospects} prospects`,
        reference: `audience:${audienceId}`,
        idempotencyKey: `audience-build:${audienceId}`,
      });
      const built = await tx.query<AudienceRow>(
        `UPDATE audiences SET status = 'NORMAL', num_companies = $3, num_prospects = $4, build_credits = $5, built_at = now()
          WHERE account_id = $1 AND id = $2 RETURNING ${audienceColumns}`,
        [accountId, audienceId, counts.companies, counts.prospects, total],
      );
      await emitWebhookEvent(
        tx,
        accountId,
        'audience.build.completed',
        audienceStatusView(built.rows[0] as AudienceRow),
      );
      return { status: 'NORMAL' as const };
    });
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'insufficient_credits') throw error;
    const total = counts.companies + counts.prospects;
    const balance = (error.details?.balance as number | undefined) ?? 0;
    await failBuild(
      db,
      accountId,
      audienceId,
      `insufficient credits: the build found ${counts.companies} companies and ${counts.prospects} prospects, which cost ${total} credits, ` +
        `and the balance was ${balance}. Nothing was charged. Add credits, or lower maxCompanies/maxProspects, in a new audience.`,
    );
    return { status: 'FAILED' };
  }
}

/** BUILDING → FAILED, members removed, nothing charged. No effect on an audience that is not BUILDING. */
export async function failBuild(db: Database, accountId: number, audienceId: number, reason: string): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await stillBuilding(tx, accountId, audienceId))) return;
    await removeMembers(tx, accountId, audienceId);
    const failed = await tx.query<AudienceRow>(
      `UPDATE audiences SET status = 'FAILED', failure_reason = $3, num_companies = 0, num_prospects = 0 WHERE account_id = $1 AND id = $2
       RETURNING ${audienceColumns}`,
      [accountId, audienceId, reason],
    );
    await emitWebhookEvent(tx, accountId, 'audience.build.failed', audienceStatusView(failed.rows[0] as AudienceRow));
  });
}

/** Empties the audience: its prospects, then its companies (a rebuild starts from nothing, a failed build keeps nothing). */
async function removeMembers(tx: Queryable, accountId: number, audienceId: number): Promise<void> {
  await tx.query('DELETE FROM audience_prospects WHERE account_id = $1 AND audience_id = $2', [accountId, audienceId]);
  await tx.query('DELETE FROM audience_companies WHERE account_id = $1 AND audience_id = $2', [accountId, audienceId]);
}

/** Locks the audience for the rest of the transaction and tells whether it is still BUILDING. */
async function stillBuilding(tx: pg.PoolClient, accountId: number, audienceId: number): Promise<boolean> {
  const row = await findAudience(tx, accountId, audienceId, true);
  return row?.status === 'BUILDING';
}

async function memberCounts(
  tx: pg.PoolClient,
  accountId: number,
  audienceId: number,
): Promise<{ companies: number; prospects: number }> {
  const result = await tx.query<{ companies: number; prospects: number }>(
    `SELECT (SELECT count(*)::int FROM audience_companies WHERE account_id = $1 AND audience_id = $2) AS companies,
            (SELECT count(*)::int FROM audience_prospects WHERE account_id = $1 AND audience_id = $2) AS prospects`,
    [accountId, audienceId],
  );
  return result.rows[0] as { companies: number; prospects: number };
}
