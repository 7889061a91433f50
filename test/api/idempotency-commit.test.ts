import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimIdempotencyKey } from '../../src/runner/idempotency.js';
import { createAccount } from '../../src/core/accounts.js';
import { charge } from '../../src/core/credits.js';
import { createLogger } from '../../src/log.js';
import { openDatabase } from '../../src/store/db.js';
import { startEmbeddedPostgres, type EmbeddedServer } from '../../src/store/embedded.js';
import { migrate } from '../../src/store/migrate.js';

/**
 * Which idempotency statements wait for the disk. On a server of its own that names a synchronous
 * standby that never connects, a synchronous commit flushes its WAL and then waits for that standby
 * forever (pg_stat_activity: wait_event SyncRep), and an asynchronous one returns at once. So: the
 * claim and the finish return; a replayed answer and the charge wait (each is cancelled out of the
 * wait once seen; the commit is then already flushed locally, and the statement returns).
 */
describe('Idempotency-Key commits', () => {
  let folder: string;
  let server: EmbeddedServer;
  let admin: pg.Client;
  let accountId: number;
  // One connection: the claim, the finish and the charge below run in the same session.
  let pool: pg.Pool;

  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'pds-idempotency-commit-'));
    // As root the embedded server runs as a user of its own, which must be able to enter this folder.
    await chmod(folder, 0o755);
    server = await startEmbeddedPostgres(path.join(folder, 'data'), createLogger('silent'), {
      temporary: true,
      // The embedded default has no WAL senders (wal_level minimal), under which PostgreSQL never waits for a standby.
      settings: { overrides: { wal_level: 'replica', max_wal_senders: '1' } },
    });
    const setup = openDatabase(server.connectionString, 2);
    await migrate(setup.pool);
    accountId = (await createAccount(setup, { name: 'commits', plan: 'enterprise', initialCredits: 100 })).account.id;
    await setup.close();
    admin = new pg.Client({ connectionString: server.adminConnectionString });
    admin.on('error', () => undefined);
    await admin.connect();
    await admin.query(`ALTER SYSTEM SET synchronous_standby_names = 'standby_that_never_connects'`);
    await admin.query('SELECT pg_reload_conf()');
    pool = new pg.Pool({ connectionString: server.connectionString, max: 1, idleTimeoutMillis: 0 });
    pool.on('error', () => undefined);
    // The reload reaches the server's processes in their own time: until a synchronous write waits, try again.
    for (;;) {
      const probe = await pool.connect();
      try {
        const pid = (await probe.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
        if (await waitsForStandby(pid, probe.query('UPDATE accounts SET name = name WHERE id = $1', [accountId])))
          break;
      } finally {
        probe.release();
      }
    }
  }, 120_000);

  afterAll(async () => {
    // The server first: its fast shutdown ends any session still waiting for the standby.
    await server?.stop();
    await pool?.end().catch(() => undefined);
    await admin?.end().catch(() => undefined);
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  /** Whether `work` waits for the standby (then it is let go) rather than finishing on its own. */
  async function waitsForStandby(pid: number, work: Promise<unknown>): Promise<boolean> {
    let settled = false;
    const done = work.then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    for (;;) {
      const waiting = await admin.query(`SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND wait_event = 'SyncRep'`, [
        pid,
      ]);
      if (waiting.rowCount) {
        await admin.query('SELECT pg_cancel_backend($1)', [pid]);
        await done;
        return true;
      }
      if (settled) return false;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  const backendPid = async (): Promise<number> =>
    (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  const claimOf = (key: string) =>
    claimIdempotencyKey(pool, { accountId, key, hash: 'h', operationId: 'companySearch', inFlightLeaseMs: 60_000 });

  it('claims a key and stores its answer without waiting for the disk, and leaves the session synchronous', async () => {
    const pid = await backendPid();
    const claiming = claimOf('async');
    expect(await waitsForStandby(pid, claiming)).toBe(false);
    const claim = await claiming;
    if (claim.kind !== 'run') throw new Error('expected to run');
    expect(await waitsForStandby(pid, claim.finish(200, '{"output":"first"}'))).toBe(false);
    expect(
      (await pool.query<{ value: string }>(`SELECT current_setting('synchronous_commit') AS value`)).rows[0]?.value,
    ).toBe('on');
  });

  it('ends the lease of a claim whose answer is not kept (a 503) without waiting for the disk, so that a repeat runs under its ledger key', async () => {
    const pid = await backendPid();
    const claim = await claimOf('refused');
    if (claim.kind !== 'run') throw new Error('expected to run');
    expect(await waitsForStandby(pid, claim.finish(503, '{"error":{"code":"unavailable"}}'))).toBe(false);
    // Whether the failed run charged is not known: the repeat runs under the same ledger key, so it charges at most once.
    const repeat = await claimOf('refused');
    expect(repeat.kind).toBe('run');
    expect(repeat.kind === 'run' && repeat.ledgerKey).toBe(claim.ledgerKey);
  });

  it('makes a stored answer durable before replaying it', async () => {
    const claim = await claimOf('replayed');
    if (claim.kind === 'run') await claim.finish(200, '{"output":"kept"}');
    const pid = await backendPid();
    const replay = claimOf('replayed');
    expect(await waitsForStandby(pid, replay)).toBe(true);
    expect(await replay).toEqual({ kind: 'replay', status: 200, body: '{"output":"kept"}' });
  });

  it('still commits the charge synchronously after an asynchronous claim in the same session, so the claim is flushed with it', async () => {
    const claim = await claimOf('charged');
    if (claim.kind !== 'run') throw new Error('expected to run');
    const client = await pool.connect();
    try {
      const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      await client.query('BEGIN');
      await charge(client, accountId, 3, { unit: 'companySearch', reason: 'test', idempotencyKey: claim.ledgerKey });
      expect(await waitsForStandby(pid, client.query('COMMIT'))).toBe(true);
    } finally {
      client.release();
    }
    const ledger = await pool.query(`SELECT amount FROM credit_ledger WHERE account_id = $1 AND idempotency_key = $2`, [
      accountId,
      claim.ledgerKey,
    ]);
    expect(ledger.rows).toEqual([{ amount: -3 }]);
  });
});
