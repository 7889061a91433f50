import type { z } from 'zod';
import type { Queryable } from '../store/db.js';
import { defaultMaxAttempts, parsePayload, type JobDefinition } from './define.js';
import type { JobRow, JobStatus } from './row.js';

/**
 * The job table. A job is claimed by one worker at a time with `FOR UPDATE SKIP LOCKED`
 * (so several processes on one PostgreSQL server share the queue without blocking each
 * other) and held under a lease that the worker renews while it runs. A worker that dies
 * stops renewing: once the lease runs out, the job is claimed again by whoever polls next.
 * Handlers therefore must be idempotent: each charge carries a ledger idempotency key and
 * each step records where it got to in the same transaction as its effects.
 */

export interface NewJob {
  kind: string;
  accountId?: number | null;
  payload?: Record<string, unknown>;
  maxAttempts?: number;
  /** Delay before the first attempt. */
  delayMs?: number;
}

/**
 * The channel on which a job is announced to the workers of every instance (LISTEN in
 * src/worker/job-worker.ts). PostgreSQL delivers a NOTIFY when its transaction commits, never
 * before (a worker woken by it finds the row) and never for a transaction that rolled back.
 */
export const jobsChannel = 'pds_jobs';

/**
 * Adds a job of a defined kind, its payload checked against the kind's schema (a payload that
 * does not fit is a bug: it throws, and the caller's transaction rolls back). Pass the
 * transaction that creates what the job works on, so both commit or neither; at the commit, the
 * idle workers of every instance are woken to claim it (`jobsChannel`), rather than at their next poll.
 */
export async function enqueue<Payload extends z.ZodType>(
  db: Queryable,
  definition: Pick<JobDefinition<Payload>, 'kind' | 'payload' | 'maxAttempts'>,
  job: { accountId: number | null; payload: z.input<Payload>; delayMs?: number },
): Promise<number> {
  const payload = parsePayload(definition, job.payload) as Record<string, unknown>;
  return enqueueJob(db, {
    kind: definition.kind,
    accountId: job.accountId,
    payload,
    maxAttempts: definition.maxAttempts ?? defaultMaxAttempts,
    ...(job.delayMs === undefined ? {} : { delayMs: job.delayMs }),
  });
}

/** Adds a row to the job table as given, unchecked: `enqueue` is the way for defined kinds; this is for the queue's own tests. */
export async function enqueueJob(db: Queryable, job: NewJob): Promise<number> {
  const result = await db.query<{ id: number }>(
    `INSERT INTO jobs (kind, account_id, payload, max_attempts, run_after)
     VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5::double precision / 1000))
     RETURNING id, pg_notify('${jobsChannel}', kind)`,
    [job.kind, job.accountId ?? null, JSON.stringify(job.payload ?? {}), job.maxAttempts ?? 5, job.delayMs ?? 0],
  );
  return (result.rows[0] as { id: number }).id;
}

/**
 * Claims the next job this worker can run: a queued job that is due, or a running job whose
 * lease has expired (its worker died). Counts the attempt.
 *
 * Fair across accounts: an account with `maxRunningPerAccount` jobs running (under live leases,
 * on any instance) gets no more until one ends, so one account's builds can never hold every
 * worker while another account's export waits; among the rest, accounts with fewer jobs running
 * go first. Only running jobs of the kinds being claimed count: a loop of its own (webhook
 * deliveries) neither takes from nor is held by the other's allowance. Two workers (processes)
 * claiming at the same instant may both pass the cap by one (the count is read, not locked); the
 * next claims see it. One worker's slots claim one at a time (JobWorker).
 */
export async function claimJob(
  db: Queryable,
  workerId: string,
  leaseSeconds: number,
  kinds: readonly string[],
  maxRunningPerAccount: number = Number.MAX_SAFE_INTEGER,
): Promise<JobRow | null> {
  const result = await db.query<JobRow>(
    `WITH busy AS (
       SELECT account_id, count(*) AS running FROM jobs
        WHERE status = 'running' AND lease_expires_at >= now() AND account_id IS NOT NULL AND kind = ANY($3::text[])
        GROUP BY account_id)
     UPDATE jobs SET status = 'running', locked_by = $1, attempts = attempts + 1,
            lease_expires_at = now() + make_interval(secs => $2), updated_at = now()
      WHERE id = (
        SELECT j.id FROM jobs j LEFT JOIN busy b ON b.account_id = j.account_id
         WHERE j.kind = ANY($3::text[])
           AND ((j.status = 'queued' AND j.run_after <= now()) OR (j.status = 'running' AND j.lease_expires_at < now()))
           AND coalesce(b.running, 0) < $4
         ORDER BY coalesce(b.running, 0), j.run_after, j.id
         LIMIT 1
         FOR UPDATE OF j SKIP LOCKED)
      RETURNING id, kind, account_id, payload, status, attempts, max_attempts, progress, last_error`,
    [workerId, leaseSeconds, kinds, maxRunningPerAccount],
  );
  return result.rows[0] ?? null;
}

/** Renews the lease; false when the job is no longer this worker's (its lease ran out and another took it). */
export async function renewLease(
  db: Queryable,
  jobId: number,
  workerId: string,
  leaseSeconds: number,
): Promise<boolean> {
  const result = await db.query(
    `UPDATE jobs SET lease_expires_at = now() + make_interval(secs => $3), updated_at = now()
      WHERE id = $1 AND locked_by = $2 AND status = 'running'`,
    [jobId, workerId, leaseSeconds],
  );
  return (result.rowCount ?? 0) > 0;
}

export async function reportProgress(
  db: Queryable,
  jobId: number,
  workerId: string,
  progress: Record<string, unknown>,
): Promise<void> {
  await db.query(`UPDATE jobs SET progress = $3, updated_at = now() WHERE id = $1 AND locked_by = $2`, [
    jobId,
    workerId,
    JSON.stringify(progress),
  ]);
}

export async function completeJob(db: Queryable, jobId: number, workerId: string): Promise<void> {
  await db.query(
    `UPDATE jobs SET status = 'succeeded', locked_by = NULL, lease_expires_at = NULL, finished_at = now(), updated_at = now()
      WHERE id = $1 AND locked_by = $2`,
    [jobId, workerId],
  );
}

/** Puts the job back for a later attempt; returns false when it has no attempts left (then it is marked failed). */
export async function failAttempt(
  db: Queryable,
  jobId: number,
  workerId: string,
  error: string,
  retryDelayMs: number,
): Promise<boolean> {
  const result = await db.query<{ status: JobStatus }>(
    `UPDATE jobs SET
        status = CASE WHEN attempts < max_attempts THEN 'queued' ELSE 'failed' END,
        run_after = now() + make_interval(secs => $4::double precision / 1000),
        finished_at = CASE WHEN attempts < max_attempts THEN NULL ELSE now() END,
        locked_by = NULL, lease_expires_at = NULL, last_error = $3, updated_at = now()
      WHERE id = $1 AND locked_by = $2
      RETURNING status`,
    [jobId, workerId, error.slice(0, 2000), retryDelayMs],
  );
  return result.rows[0]?.status === 'queued';
}

/**
 * Hands a job back without counting the attempt: when the process stops (at once: the workers of
 * the other instances are woken to take it over), or when the job asked to run again later
 * (after `delayMs`).
 */
export async function releaseJob(db: Queryable, jobId: number, workerId: string, delayMs = 0): Promise<void> {
  const released = await db.query(
    `UPDATE jobs SET status = 'queued', attempts = greatest(attempts - 1, 0), locked_by = NULL, lease_expires_at = NULL,
            run_after = now() + make_interval(secs => $3::double precision / 1000), updated_at = now()
      WHERE id = $1 AND locked_by = $2`,
    [jobId, workerId, delayMs],
  );
  if (delayMs <= 0 && released.rowCount) await db.query('SELECT pg_notify($1, $2)', [jobsChannel, 'released']);
}

/** Fails a job at once, whatever attempts it has left (its payload cannot be read, or it kept killing its process). */
export async function failJob(db: Queryable, jobId: number, workerId: string, error: string): Promise<void> {
  await db.query(
    `UPDATE jobs SET status = 'failed', locked_by = NULL, lease_expires_at = NULL, finished_at = now(), updated_at = now(),
            last_error = coalesce($3, last_error)
      WHERE id = $1 AND locked_by = $2`,
    [jobId, workerId, error.slice(0, 2000)],
  );
}

/**
 * Cancels the queued and running jobs of a kind whose payload contains `payload` (a JSON
 * containment match), in the caller's transaction: they end `failed` with `reason`, and a running
 * one loses its lease at once, so its worker's heartbeat aborts it and it stops at its next
 * checkpoint; nothing that worker reports afterwards (completion, retry, hand-back) touches the
 * row, since those need the lease. Returns how many were cancelled.
 */
export async function cancelJobs(
  db: Queryable,
  kind: string,
  accountId: number,
  payload: Record<string, unknown>,
  reason: string,
): Promise<number> {
  const result = await db.query(
    `UPDATE jobs SET status = 'failed', last_error = $4, locked_by = NULL, lease_expires_at = NULL, finished_at = now(), updated_at = now()
      WHERE kind = $1 AND account_id = $2 AND payload @> $3::jsonb AND status IN ('queued', 'running')`,
    [kind, accountId, JSON.stringify(payload), reason.slice(0, 2000)],
  );
  return result.rowCount ?? 0;
}

/**
 * Makes the queued jobs of a kind whose payload contains `payload` due now (a job waiting to run
 * again later, when new work arrived for it), waking the workers at the commit. Returns how many
 * are queued or running: 0 means the caller has to enqueue one.
 */
export async function expediteJobs(
  db: Queryable,
  kind: string,
  accountId: number,
  payload: Record<string, unknown>,
): Promise<number> {
  const result = await db.query<{ active: number }>(
    `WITH active AS (
       SELECT id, status FROM jobs WHERE kind = $1 AND account_id = $2 AND payload @> $3::jsonb AND status IN ('queued', 'running')
     ), woken AS (
       UPDATE jobs SET run_after = now(), updated_at = now() WHERE id IN (SELECT id FROM active WHERE status = 'queued')
       RETURNING pg_notify('${jobsChannel}', kind)
     )
     SELECT (SELECT count(*) FROM active)::int AS active, (SELECT count(*) FROM woken)::int AS woken`,
    [kind, accountId, JSON.stringify(payload)],
  );
  return result.rows[0]?.active ?? 0;
}
