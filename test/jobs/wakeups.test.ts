import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob, type AnyJobDefinition } from '../../src/job-queue/define.js';
import { enqueueJob } from '../../src/job-queue/queue.js';
import { createLogger } from '../../src/log.js';
import { openDatabase, type Database } from '../../src/store/db.js';
import { JobWorker } from '../../src/worker/job-worker.js';
import { waitFor } from '../audiences/helpers.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

/**
 * Job wake-ups across instances: each worker here has pools and a session of its own, as a
 * process of its own would, and polls only once an hour, so a job it runs within the test was
 * announced to it (LISTEN/NOTIFY), not found by polling.
 */
describe('job wake-ups across instances', () => {
  let database: TestDatabase;
  const instances: Array<{ db: Database; worker: JobWorker<undefined> }> = [];
  const ran: Array<{ id: number; workerId: string }> = [];
  const started: Array<{ workerId: string; finish: () => void }> = [];

  const jobs: AnyJobDefinition<undefined>[] = [
    defineJob({
      kind: 'quick',
      payload: z.object({}),
      run: async (run) => {
        ran.push({ id: run.job.id, workerId: run.workerId });
      },
    }),
    defineJob({
      kind: 'held',
      payload: z.object({}),
      run: async (run) => {
        // Runs until its worker stops (which hands it back), or until the test lets it finish.
        await new Promise<void>((resolve) => {
          started.push({ workerId: run.workerId, finish: resolve });
          run.signal.addEventListener('abort', () => resolve(), { once: true });
        });
        run.checkpoint();
        ran.push({ id: run.job.id, workerId: run.workerId });
      },
    }),
  ];

  async function startInstance(): Promise<JobWorker<undefined>> {
    const db = openDatabase(database.connectionString, 3);
    const worker = new JobWorker<undefined>({
      db,
      log: createLogger('silent'),
      jobs,
      context: undefined,
      concurrency: 1,
      pollIntervalMs: 3_600_000,
      leaseSeconds: 30,
      retryBaseMs: 20,
    });
    worker.start();
    instances.push({ db, worker });
    await waitFor('the worker listening', async () => worker.listening);
    return worker;
  }

  async function stopAll(): Promise<void> {
    for (const { db, worker } of instances.splice(0)) {
      await worker.stop();
      await db.close();
    }
  }

  const statusOf = async (id: number) =>
    (await database.db.pool.query<{ status: string }>('SELECT status FROM jobs WHERE id = $1', [id])).rows[0]?.status;

  beforeAll(async () => {
    database = await createTestDatabase('empty');
  });
  beforeEach(async () => {
    await stopAll();
    ran.length = 0;
    started.length = 0;
    await database.db.pool.query('DELETE FROM jobs');
  });
  afterAll(async () => {
    await stopAll();
    await database?.drop();
  });

  it('a job committed on one instance wakes the idle workers of the others at its commit, not before', async () => {
    const first = await startInstance();
    const second = await startInstance();
    const client = await database.db.pool.connect();
    let id: number;
    try {
      await client.query('BEGIN');
      id = await enqueueJob(client, { kind: 'quick' });
      // Announced at the commit only: a worker woken now would not see the row.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(ran).toEqual([]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    await waitFor('the job to run', async () => (await statusOf(id)) === 'succeeded');
    for (let i = 0; i < 6; i += 1) await enqueueJob(database.db.pool, { kind: 'quick' });
    await waitFor('all jobs to run', async () => ran.length === 7);
    expect(ran.every((r) => r.workerId === first.id || r.workerId === second.id)).toBe(true);
  });

  it('a job committed while an idle worker was claiming, unseen by that claim, still wakes it', async () => {
    const worker = await startInstance();
    // The claim of the decoy job is held in the database after its snapshot was taken (a trigger of this test's database
    // waits on an advisory lock the test holds), then finds nothing: the job committed meanwhile is neither in its
    // snapshot nor announced to an idle slot, unless the worker remembers the wake-up that came during the claim.
    await database.db.pool.query(`
      CREATE FUNCTION hold_decoy_claim() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF OLD.payload ? 'decoy' AND NOT pg_try_advisory_xact_lock_shared(4242) THEN
          PERFORM pg_advisory_xact_lock_shared(4242);
          RETURN NULL;
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER hold_decoy_claim BEFORE UPDATE ON jobs FOR EACH ROW EXECUTE FUNCTION hold_decoy_claim();`);
    const holder = await database.db.pool.connect();
    try {
      await holder.query('SELECT pg_advisory_lock(4242)');
      const decoy = await enqueueJob(database.db.pool, { kind: 'quick', payload: { decoy: true } });
      await waitFor('the claim of the decoy to be held', async () => {
        const waiting = await database.db.pool.query(
          `SELECT 1 FROM pg_locks l JOIN pg_database d ON d.oid = l.database
            WHERE d.datname = current_database() AND l.locktype = 'advisory' AND l.objid = 4242 AND NOT l.granted`,
        );
        return (waiting.rowCount ?? 0) > 0;
      });
      // Counts the announcements the worker hears, to release the claim only after the job's has come.
      let heard = 0;
      const wake = worker.wake.bind(worker);
      worker.wake = () => {
        heard += 1;
        wake();
      };
      const id = await enqueueJob(database.db.pool, { kind: 'quick' });
      await waitFor('the worker to hear of the job', async () => heard > 0);
      await holder.query('SELECT pg_advisory_unlock(4242)');
      await waitFor('the job to run', async () => (await statusOf(id)) === 'succeeded', 15_000);
      expect(ran.map((r) => r.id).sort((a, b) => a - b)).toEqual([decoy, id]);
    } finally {
      holder.release();
      await database.db.pool.query('DROP TRIGGER hold_decoy_claim ON jobs; DROP FUNCTION hold_decoy_claim()');
    }
  });

  it('listens again after its session is cut, and runs what was committed meanwhile', async () => {
    const worker = await startInstance();
    const sessionPid = async () =>
      (
        await database.db.pool.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity
            WHERE datname = current_database() AND application_name = 'prospecting-data-service (job wake-ups)'`,
        )
      ).rows[0]?.pid;
    const before = await sessionPid();
    await database.db.pool.query('SELECT pg_terminate_backend($1)', [before]);
    // Committed while nobody listens, or just as the session comes back: the reconnection looks for it.
    const missed = await enqueueJob(database.db.pool, { kind: 'quick' });
    await waitFor('the missed job to run', async () => (await statusOf(missed)) === 'succeeded');
    await waitFor('a new session listening', async () => {
      const now = await sessionPid();
      return now !== undefined && now !== before && worker.listening;
    });
    const next = await enqueueJob(database.db.pool, { kind: 'quick' });
    await waitFor('the next job to run', async () => (await statusOf(next)) === 'succeeded');
  });

  it('a job handed back by an instance that stops is taken over by another at once', async () => {
    const stopping = await startInstance();
    const id = await enqueueJob(database.db.pool, { kind: 'held' });
    await waitFor('the job to start', async () => (await statusOf(id)) === 'running');
    const other = await startInstance();
    // The other worker's only claim on start found the job taken; from now on it claims only when woken.
    const entry = instances.find((i) => i.worker === stopping);
    await stopping.stop();
    await entry?.db.close();
    instances.splice(instances.indexOf(entry as (typeof instances)[number]), 1);
    await waitFor('the job to start again', async () => started.length === 2);
    expect(started[1]?.workerId).toBe(other.id);
    started[1]?.finish();
    await waitFor('the job to finish', async () => (await statusOf(id)) === 'succeeded');
    expect(ran).toEqual([{ id, workerId: other.id }]);
  });
});
