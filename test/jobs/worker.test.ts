import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  defineJob,
  runAgainAfter,
  type AnyJobDefinition,
  type Job,
  type JobRun,
  type RunAgain,
} from '../../src/job-queue/define.js';
import { claimJob, enqueue, enqueueJob } from '../../src/job-queue/queue.js';
import { createLogger } from '../../src/log.js';
import { JobWorker, type WorkerOptions } from '../../src/worker/job-worker.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { waitFor } from '../audiences/helpers.js';

const anyPayload = z.record(z.string(), z.unknown());
type AnyPayload = z.infer<typeof anyPayload>;

/** A job kind for these tests: any object payload, no context. */
function testJob(
  kind: string,
  run: (run: JobRun<AnyPayload>) => Promise<void | RunAgain>,
  exhausted?: (job: Job<AnyPayload>, error: string) => Promise<void>,
): AnyJobDefinition<undefined> {
  return defineJob({ kind, payload: anyPayload, run, ...(exhausted ? { exhausted } : {}) });
}

/** The job table and worker on a real PostgreSQL database, without the HTTP service. */
describe('job queue and worker', () => {
  let database: TestDatabase;
  const workers: JobWorker<undefined>[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('empty');
  });
  beforeEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    await database.db.pool.query('DELETE FROM jobs');
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await database?.drop();
  });

  function worker(
    jobs: AnyJobDefinition<undefined>[],
    options: Partial<WorkerOptions<undefined>> = {},
  ): JobWorker<undefined> {
    const w = new JobWorker<undefined>({
      db: database.db,
      log: createLogger('silent'),
      jobs,
      context: undefined,
      concurrency: 2,
      pollIntervalMs: 20,
      leaseSeconds: 30,
      retryBaseMs: 20,
      ...options,
    });
    workers.push(w);
    w.start();
    return w;
  }

  const jobRows = async () =>
    (
      await database.db.pool.query<{
        id: number;
        status: string;
        attempts: number;
        last_error: string | null;
        progress: Record<string, unknown>;
      }>('SELECT id, status, attempts, last_error, progress FROM jobs ORDER BY id')
    ).rows;

  it('several workers share the queue and run each job exactly once', async () => {
    const runs: number[] = [];
    const count = testJob('count', async (run) => {
      runs.push(run.job.id);
      await new Promise((resolve) => setTimeout(resolve, 5));
    });
    for (let i = 0; i < 60; i += 1) await enqueueJob(database.db.pool, { kind: 'count' });
    worker([count], { concurrency: 3 });
    worker([count], { concurrency: 3 });
    worker([count], { concurrency: 3 });
    await waitFor('all jobs', async () => (await jobRows()).every((j) => j.status === 'succeeded'));
    expect(runs.length).toBe(60);
    expect(new Set(runs).size).toBe(60);
    expect((await jobRows()).every((j) => j.attempts === 1)).toBe(true);
  });

  it('claims with SKIP LOCKED: a job locked by one transaction is passed over, not waited for', async () => {
    const first = await enqueueJob(database.db.pool, { kind: 'k' });
    const second = await enqueueJob(database.db.pool, { kind: 'k' });
    const client = await database.db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT id FROM jobs WHERE id = $1 FOR UPDATE', [first]);
      const claimed = await claimJob(database.db.pool, 'w2', 30, ['k']);
      expect(claimed?.id).toBe(second);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
  });

  it('a job whose worker died is claimed again once its lease runs out', async () => {
    const id = await enqueueJob(database.db.pool, { kind: 'slow' });
    // A worker that claims and then never renews: a killed process.
    const dead = await claimJob(database.db.pool, 'dead-worker', 1, ['slow']);
    expect(dead?.id).toBe(id);
    expect(await claimJob(database.db.pool, 'other', 1, ['slow'])).toBeNull();
    const ran: number[] = [];
    worker([testJob('slow', async (run) => void ran.push(run.job.attempts))], { leaseSeconds: 1 });
    await waitFor('the reclaimed job', async () => (await jobRows())[0]?.status === 'succeeded', 10_000);
    expect(ran).toEqual([2]);
  });

  it('a running job keeps its lease by heartbeat, so a long job is not taken over', async () => {
    const id = await enqueueJob(database.db.pool, { kind: 'long' });
    let runs = 0;
    let finish: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const long = testJob('long', async () => {
      runs += 1;
      await finished;
    });
    const both = [worker([long], { leaseSeconds: 1 }), worker([long], { leaseSeconds: 1 })];
    try {
      const firstLease = await waitFor('the claim', async () => {
        const row = await database.db.pool.query<{ lease: string }>(
          `SELECT lease_expires_at::text AS lease FROM jobs WHERE id = $1 AND status = 'running'`,
          [id],
        );
        return row.rows[0]?.lease;
      });
      // The lease it was claimed with runs out: only the heartbeat holds it now, while both workers look for work.
      await waitFor('the first lease to run out', async () => {
        const now = await database.db.pool.query<{ past: boolean }>('SELECT now() > $1::timestamptz AS past', [
          firstLease,
        ]);
        return now.rows[0]?.past;
      });
      await Promise.all(both.map((w) => w.claimsAnswered(3)));
      expect(runs).toBe(1);
    } finally {
      finish();
    }
    await waitFor('the long job', async () => (await jobRows())[0]?.status === 'succeeded', 10_000);
    expect(runs).toBe(1);
  });

  it('retries a failing job with backoff and records the error; gives up after max attempts', async () => {
    let calls = 0;
    const exhausted: string[] = [];
    await enqueueJob(database.db.pool, { kind: 'flaky', payload: { n: 1 }, maxAttempts: 5 });
    await enqueueJob(database.db.pool, { kind: 'broken', maxAttempts: 3 });
    worker([
      testJob('flaky', async () => {
        calls += 1;
        if (calls < 3) throw new Error(`attempt ${calls} failed`);
      }),
      testJob(
        'broken',
        async () => {
          throw new Error('always broken');
        },
        async (job, error) => void exhausted.push(`${job.kind}: ${error}`),
      ),
    ]);
    await waitFor(
      'both jobs to settle',
      async () => (await jobRows()).every((j) => j.status === 'succeeded' || j.status === 'failed'),
      10_000,
    );
    const [flaky, broken] = await jobRows();
    expect(flaky).toMatchObject({ status: 'succeeded', attempts: 3, last_error: 'attempt 2 failed' });
    expect(broken).toMatchObject({ status: 'failed', attempts: 3, last_error: 'always broken' });
    expect(exhausted).toEqual(['broken: always broken']);
  });

  it('stop() interrupts a running job at its next checkpoint and hands it back without counting the attempt', async () => {
    await enqueueJob(database.db.pool, { kind: 'steps' });
    let started = false;
    const w = worker([
      testJob('steps', async (run) => {
        started = true;
        await run.progress({ step: 1 });
        // Until stopped: stop() aborts the signal, and the checkpoint hands the job back.
        if (!run.signal.aborted)
          await new Promise((resolve) => run.signal.addEventListener('abort', resolve, { once: true }));
        run.checkpoint();
        await run.progress({ step: 2 });
      }),
    ]);
    await waitFor('the job to start', async () => started);
    const stopping = Date.now();
    await w.stop();
    expect(Date.now() - stopping).toBeLessThan(2000);
    const [job] = await jobRows();
    expect(job).toMatchObject({ status: 'queued', attempts: 0, progress: { step: 1 } });

    const resumed: number[] = [];
    worker([testJob('steps', async (run) => void resumed.push(run.job.attempts))]);
    await waitFor('the job to finish elsewhere', async () => (await jobRows())[0]?.status === 'succeeded');
    expect(resumed).toEqual([1]);
  });

  it('a job that kept killing its process is given up instead of claimed forever', async () => {
    const id = await enqueueJob(database.db.pool, { kind: 'poison', maxAttempts: 2 });
    await claimJob(database.db.pool, 'crash-1', 1, ['poison']);
    await database.db.pool.query(`UPDATE jobs SET lease_expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    await claimJob(database.db.pool, 'crash-2', 1, ['poison']);
    await database.db.pool.query(`UPDATE jobs SET lease_expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    const given: number[] = [];
    let ran = false;
    worker([
      testJob(
        'poison',
        async () => void (ran = true),
        async (job) => void given.push(job.id),
      ),
    ]);
    await waitFor('the job to be given up', async () => (await jobRows())[0]?.status === 'failed');
    expect(ran).toBe(false);
    expect(given).toEqual([id]);
  });

  it("checks a payload against its kind's schema when enqueued: a bad one throws and adds nothing", async () => {
    const typed = defineJob({
      kind: 'typed',
      payload: z.object({ exportId: z.number().int().positive() }),
      run: async () => undefined,
    });
    const id = await enqueue(database.db.pool, typed, { accountId: 7, payload: { exportId: 12 } });
    const stored = await database.db.pool.query<{
      kind: string;
      account_id: number;
      payload: unknown;
      max_attempts: number;
    }>('SELECT kind, account_id, payload, max_attempts FROM jobs WHERE id = $1', [id]);
    expect(stored.rows[0]).toEqual({ kind: 'typed', account_id: 7, payload: { exportId: 12 }, max_attempts: 5 });
    await expect(
      enqueue(database.db.pool, typed, { accountId: 7, payload: { exportId: '12' as unknown as number } }),
    ).rejects.toThrow(/job typed: the payload does not match its schema \(exportId: /);
    expect(await jobRows()).toHaveLength(1);
  });

  it('hands `run` the payload parsed by its schema, and fails a job whose stored payload does not fit at once, without running it', async () => {
    const seen: Array<{ exportId: number; label: string }> = [];
    const typed = defineJob({
      kind: 'typed',
      payload: z.object({ exportId: z.number().int(), label: z.string().default('none') }),
      run: async (run) => void seen.push(run.job.payload),
      exhausted: async () => void seen.push({ exportId: -1, label: 'exhausted' }),
    });
    const good = await enqueueJob(database.db.pool, { kind: 'typed', payload: { exportId: 3 } });
    const bad = await enqueueJob(database.db.pool, { kind: 'typed', payload: { exportId: 'three' }, maxAttempts: 5 });
    worker([typed]);
    await waitFor('both jobs to settle', async () =>
      (await jobRows()).every((j) => j.status === 'succeeded' || j.status === 'failed'),
    );
    expect(seen).toEqual([{ exportId: 3, label: 'none' }]);
    const rows = await jobRows();
    expect(rows.find((j) => j.id === good)).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(rows.find((j) => j.id === bad)).toMatchObject({ status: 'failed', attempts: 1 });
    expect(rows.find((j) => j.id === bad)?.last_error).toMatch(
      /job typed: the payload does not match its schema \(exportId: /,
    );
  });

  it('puts a job that returns runAgainAfter back in the queue until then, without counting an attempt', async () => {
    const id = await enqueueJob(database.db.pool, { kind: 'later' });
    const runs: number[] = [];
    worker([
      testJob('later', async (run) => {
        runs.push(run.job.attempts);
        if (runs.length === 1) return runAgainAfter(60_000);
      }),
    ]);
    // The run is checked before the row is read: read the other way round, a row read while still queued
    // (before the claim) could meet a run that finished meanwhile, and the row would be caught mid-run.
    await waitFor('the first run', async () => runs.length === 1 && (await jobRows())[0]?.status === 'queued');
    const waiting = await database.db.pool.query<{ attempts: number; later: boolean }>(
      `SELECT attempts, run_after > now() + interval '50 seconds' AS later FROM jobs WHERE id = $1`,
      [id],
    );
    expect(waiting.rows[0]).toEqual({ attempts: 0, later: true });
    // Due now: it runs again, as its first counted attempt still.
    await database.db.pool.query('UPDATE jobs SET run_after = now() WHERE id = $1', [id]);
    await waitFor('the second run', async () => (await jobRows())[0]?.status === 'succeeded');
    expect(runs).toEqual([1, 1]);
  });
});
