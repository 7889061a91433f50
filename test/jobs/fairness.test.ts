import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob, type AnyJobDefinition } from '../../src/job-queue/define.js';
import { claimJob, enqueueJob } from '../../src/job-queue/queue.js';
import { createLogger } from '../../src/log.js';
import { JobWorker } from '../../src/worker/job-worker.js';
import { waitFor } from '../audiences/helpers.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

/**
 * One account's jobs must not hold every worker: the probe saw two builds of one account fill
 * both workers while another account's export waited 40 s.
 */
describe('fair job claims across accounts', () => {
  let database: TestDatabase;
  const accountA = 101;
  const accountB = 202;

  beforeAll(async () => {
    database = await createTestDatabase('empty');
  });
  beforeEach(async () => {
    await database.db.pool.query('DELETE FROM jobs');
  });
  afterAll(async () => {
    await database?.drop();
  });

  /** A worker that polls often and runs at most one job of an account at a time. */
  const workerOf = (jobs: AnyJobDefinition[], concurrency: number) =>
    new JobWorker({
      db: database.db,
      log: createLogger('silent'),
      jobs,
      context: undefined,
      concurrency,
      pollIntervalMs: 20,
      leaseSeconds: 30,
      retryBaseMs: 20,
      maxRunningPerAccount: 1,
    });

  it("skips the jobs of an account at its cap and takes another account's job instead", async () => {
    const firstOfA = await enqueueJob(database.db.pool, { kind: 'build', accountId: accountA });
    const secondOfA = await enqueueJob(database.db.pool, { kind: 'build', accountId: accountA });
    const ofB = await enqueueJob(database.db.pool, { kind: 'export', accountId: accountB });
    const kinds = ['build', 'export'];

    expect((await claimJob(database.db.pool, 'w1', 30, kinds, 1))?.id).toBe(firstOfA);
    expect((await claimJob(database.db.pool, 'w2', 30, kinds, 1))?.id).toBe(ofB);
    expect(await claimJob(database.db.pool, 'w3', 30, kinds, 1)).toBeNull();

    await database.db.pool.query(`UPDATE jobs SET status = 'succeeded', locked_by = NULL WHERE id = $1`, [firstOfA]);
    expect((await claimJob(database.db.pool, 'w3', 30, kinds, 1))?.id).toBe(secondOfA);
  });

  it("prefers the account with fewer jobs running, and does not count a dead worker's expired lease", async () => {
    const running = await enqueueJob(database.db.pool, { kind: 'build', accountId: accountA });
    await claimJob(database.db.pool, 'w1', 30, ['build'], 5);
    const nextOfA = await enqueueJob(database.db.pool, { kind: 'build', accountId: accountA });
    const ofB = await enqueueJob(database.db.pool, { kind: 'build', accountId: accountB });
    expect((await claimJob(database.db.pool, 'w2', 30, ['build'], 5))?.id).toBe(ofB);

    // A's running job lost its worker: its lease ran out, so it no longer counts and is claimed again.
    await database.db.pool.query(`UPDATE jobs SET lease_expires_at = now() - interval '1 second' WHERE id = $1`, [
      running,
    ]);
    const reclaimed = await claimJob(database.db.pool, 'w3', 30, ['build'], 1);
    expect(reclaimed?.id).toBe(running);
    expect(await claimJob(database.db.pool, 'w4', 30, ['build'], 1)).toBeNull();
    const waiting = await database.db.pool.query<{ status: string }>('SELECT status FROM jobs WHERE id = $1', [
      nextOfA,
    ]);
    expect(waiting.rows[0]?.status).toBe('queued');
  });

  it("never lets one worker's own slots pass an account's cap together, even when they all claim at the same instant", async () => {
    let releaseAll: () => void = () => undefined;
    const mayFinish = new Promise<void>((resolve) => {
      releaseAll = resolve;
    });
    let running = 0;
    let mostAtOnce = 0;
    const jobs = [
      defineJob({
        kind: 'build',
        payload: z.object({}),
        run: async () => {
          running += 1;
          mostAtOnce = Math.max(mostAtOnce, running);
          await mayFinish;
          running -= 1;
        },
      }),
    ];
    for (let i = 0; i < 6; i += 1) await enqueueJob(database.db.pool, { kind: 'build', accountId: accountA });
    // Every connection of the pool open beforehand, so that the slots' claims reach the server together.
    await Promise.all(Array.from({ length: 5 }, () => database.db.pool.query('SELECT pg_sleep(0.05)')));
    // Six slots start claiming together: read, not locked, the cap of 1 was passed by every slot that read it at once.
    const worker = workerOf(jobs, 6);
    worker.start();
    try {
      await waitFor('the first build to start', async () => running >= 1);
      // The five free slots claim again and again meanwhile: a dozen answers, none may be a second build of A.
      await worker.claimsAnswered(12);
      expect(mostAtOnce).toBe(1);
      releaseAll();
      await waitFor('all six builds', async () => {
        const rows = await database.db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM jobs WHERE status = 'succeeded'`,
        );
        return rows.rows[0]?.n === 6;
      });
      expect(mostAtOnce).toBe(1);
    } finally {
      releaseAll();
      await worker.stop();
    }
  });

  it("lets another account's job run at once while one account's two long jobs wait for a worker", async () => {
    let releaseA: () => void = () => undefined;
    const aMayFinish = new Promise<void>((resolve) => {
      releaseA = resolve;
    });
    const startedOfA: number[] = [];
    const noPayload = z.object({});
    const jobs = [
      defineJob({
        kind: 'build',
        payload: noPayload,
        run: async (run) => {
          startedOfA.push(run.job.id);
          await aMayFinish;
        },
      }),
      defineJob({ kind: 'export', payload: noPayload, run: async () => undefined }),
    ];
    await enqueueJob(database.db.pool, { kind: 'build', accountId: accountA });
    await enqueueJob(database.db.pool, { kind: 'build', accountId: accountA });
    const worker = workerOf(jobs, 2);
    worker.start();
    try {
      await waitFor('the first build to start', async () => startedOfA.length === 1);
      const ofB = await enqueueJob(database.db.pool, { kind: 'export', accountId: accountB });
      await waitFor("B's export to finish", async () => {
        const row = await database.db.pool.query<{ status: string }>('SELECT status FROM jobs WHERE id = $1', [ofB]);
        return row.rows[0]?.status === 'succeeded';
      });
      expect(startedOfA).toHaveLength(1);
      releaseA();
      await waitFor('both builds', async () => {
        const rows = await database.db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM jobs WHERE kind = 'build' AND status = 'succeeded'`,
        );
        return rows.rows[0]?.n === 2;
      });
    } finally {
      releaseA();
      await worker.stop();
    }
  });
});
