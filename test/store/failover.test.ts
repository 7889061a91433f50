import { Writable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { databaseFailure } from '../../src/errors.js';
import { createLogger } from '../../src/log.js';
import { openDatabase, type Database } from '../../src/store/db.js';
import { waitFor } from '../audiences/helpers.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

/**
 * What the serving pools do when their server stops taking writes, as the old primary does in a
 * failover (a standby now, or a connection string that still leads to one): a new connection is
 * refused as unavailable, and a write refused as read-only takes the pool's idle connections with it.
 */
describe('serving pools in a failover', () => {
  let database: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    database = await createTestDatabase('empty');
    db = openDatabase(database.connectionString, { max: 4, requirePrimary: true });
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  it('drops every idle connection after a write is refused as read-only, and connects afresh', async () => {
    const clients = await Promise.all(Array.from({ length: 3 }, () => db.pool.connect()));
    const before = clients.map((c) => (c as unknown as { processID: number }).processID);
    // One of them turns read-only, as a connection to a demoted server would be; released last, it is taken first.
    await (clients[2] as (typeof clients)[number]).query('SET default_transaction_read_only = on');
    clients[0]?.release();
    clients[1]?.release();
    clients[2]?.release();
    expect(db.pool.idleCount).toBe(3);

    const refused = await db.pool.query('CREATE TEMP TABLE written (n int)').catch((error: unknown) => error);
    expect((refused as { code?: string }).code).toBe('25006');
    const answer = databaseFailure(refused);
    expect(answer?.code).toBe('unavailable');
    expect(answer?.message).toMatch(/new primary/);

    const deadline = Date.now() + 5000;
    while (db.pool.totalCount > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(db.pool.totalCount).toBe(0);
    const after = await db.pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    expect(before).not.toContain(after.rows[0]?.pid);
    await db.pool.query('CREATE TEMP TABLE written (n int)');
  });

  it('refuses a new connection to a server that takes no writes as unavailable, and takes one again once it does', async () => {
    // On the server's own database: the test database's sessions are what this cuts.
    const admin = new pg.Client({ connectionString: inject('adminUrl') });
    await admin.connect();
    const name = new URL(database.connectionString).pathname.slice(1);
    await db.pool.query('SELECT 1');
    await admin.query(`ALTER DATABASE ${name} SET default_transaction_read_only = on`);
    try {
      // The server went away: every connection of the pool ends, and the next ones reach a read-only server.
      await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [name],
      );
      const deadline = Date.now() + 5000;
      while (db.pool.totalCount > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      const refused = await db.pool.query('SELECT 1').catch((error: unknown) => error);
      expect((refused as Error).message).toMatch(/not a primary/);
      expect(databaseFailure(refused)?.code).toBe('unavailable');
      expect(db.pool.totalCount).toBe(0);
    } finally {
      await admin.query(`ALTER DATABASE ${name} RESET default_transaction_read_only`);
      await admin.end();
    }
    const served = await db.pool.query<{ n: number }>('SELECT 2 AS n');
    expect(served.rows[0]?.n).toBe(2);
  });

  it('keeps a session of its own connected across the server ending it, and says it is a new one', async () => {
    const log = createLogger('silent');
    const connections: number[] = [];
    const session = db.keepSession({
      name: 'test',
      log,
      retryMs: { first: 20, longest: 100 },
      onConnected: async (client) => {
        connections.push(Number((await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid));
      },
    });
    await session.start();
    expect(session.connected).toBe(true);
    const first = await session.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    expect(first.generation).toBe(1);
    await db.pool.query('SELECT pg_terminate_backend($1)', [first.rows[0]?.pid]);
    const deadline = Date.now() + 10_000;
    while (session.generation < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    const second = await session.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    expect(second.generation).toBe(2);
    expect(second.rows[0]?.pid).not.toBe(first.rows[0]?.pid);
    expect(connections).toEqual([first.rows[0]?.pid, second.rows[0]?.pid]);
    await session.stop();
    await expect(session.query('SELECT 1')).rejects.toMatchObject({ code: '08006' });
  });

  it('keeps trying, unasked, while the server refuses it, and is back once it accepts', async () => {
    const admin = new pg.Client({ connectionString: inject('adminUrl') });
    await admin.connect();
    const name = new URL(database.connectionString).pathname.slice(1);
    // Its failed tries, counted from its log (one debug line each).
    let failedTries = 0;
    const log = new Writable({
      write(chunk: Buffer, _encoding, done) {
        failedTries += chunk.toString('utf8').split('database session could not connect').length - 1;
        done();
      },
    });
    const session = db.keepSession({
      name: 'refused',
      log: createLogger('debug', log),
      retryMs: { first: 20, longest: 100 },
    });
    try {
      await session.start();
      expect(session.connected).toBe(true);
      await admin.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
      await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [name],
      );
      await waitFor('the session to be lost', async () => !session.connected);
      // Several tries fail meanwhile (nothing queries the session: it must retry by itself).
      const triesBefore = failedTries;
      await waitFor('three more failed tries', async () => failedTries >= triesBefore + 3);
      expect(session.connected).toBe(false);
      await admin.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS true`);
      await waitFor('the session back', async () => session.connected);
      expect(session.generation).toBe(2);
    } finally {
      await admin.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS true`);
      await admin.end();
      await session.stop();
    }
  });
});
