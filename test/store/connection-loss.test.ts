import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseFailure } from '../../src/errors.js';
import { runInTransaction } from '../../src/store/db.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

/**
 * The database server ending a connection the service holds (a restart, an operator's stop,
 * pg_terminate_backend). Found by the outage scenario of `npm run reliability`: a connection
 * checked out of the pool between two statements got the server's FATAL 57P01 as an 'error'
 * event nobody listened to, and the whole process exited.
 */
describe('a connection ended by the server', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('empty');
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('inside a transaction, between two statements: the transaction fails as unavailable, the process lives on, and the pool serves again', async () => {
    const { pool } = database.db;
    let failure: unknown = null;
    try {
      await runInTransaction(pool, async (client) => {
        await client.query('SELECT 1');
        const pid = (client as unknown as { processID: number }).processID;
        // Ended from another connection while this one waits between statements, as a server stop ends it.
        await pool.query('SELECT pg_terminate_backend($1)', [pid]);
        // The server's notice arrives on its own; wait on the client no longer being usable.
        const deadline = Date.now() + 5000;
        while ((client as unknown as { _queryable: boolean })._queryable && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 10));
        await client.query('SELECT 2');
      });
    } catch (error) {
      failure = error;
    }
    expect(failure).not.toBeNull();
    expect(databaseFailure(failure)?.code).toBe('unavailable');
    const again = await pool.query<{ n: number }>('SELECT 3 AS n');
    expect(again.rows[0]?.n).toBe(3);
  });

  it('checked out and idle: nothing is thrown at the process, and the pool drops the connection on release', async () => {
    const { pool } = database.db;
    const client = await pool.connect();
    const pid = (client as unknown as { processID: number }).processID;
    await pool.query('SELECT pg_terminate_backend($1)', [pid]);
    const deadline = Date.now() + 5000;
    while ((client as unknown as { _queryable: boolean })._queryable && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect((client as unknown as { _queryable: boolean })._queryable).toBe(false);
    client.release();
    const pids = await Promise.all(
      Array.from({ length: 3 }, () => pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')),
    );
    expect(pids.map((r) => r.rows[0]?.pid)).not.toContain(pid);
  });
});
