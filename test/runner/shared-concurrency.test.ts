import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { createLogger } from '../../src/log.js';
import { AccountConcurrency, SharedAccountConcurrency } from '../../src/runner/concurrency.js';
import type { Database } from '../../src/store/db.js';
import { KeptSession, type KeptSessionOptions } from '../../src/store/session.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

/** A client whose connection takes a while to come up, as on a loaded server or a far one. */
class SlowClient extends pg.Client {
  override async connect(): Promise<pg.Client> {
    await delay(400);
    return super.connect();
  }
}

/**
 * The caps shared by instances on one database, just after an instance starts: its slot sessions
 * are still connecting. Found in CI: a request served then was counted by that instance alone,
 * so another instance admitted the account's one search beside it.
 */
describe('SharedAccountConcurrency, while its sessions make their first connection', () => {
  let database: TestDatabase;
  const sessions: KeptSession[] = [];
  const log = createLogger('silent');
  beforeAll(async () => {
    database = await createTestDatabase('empty');
  });
  afterAll(async () => {
    for (const session of sessions) await session.stop();
    await database?.drop();
  });

  const gate = (slowToConnect: boolean): SharedAccountConcurrency => {
    const db = {
      keepSession: (options: Omit<KeptSessionOptions, 'client'>) => {
        const Client = slowToConnect ? SlowClient : pg.Client;
        const session = new KeptSession({
          ...options,
          client: () => new Client({ connectionString: database.connectionString }),
        });
        sessions.push(session);
        return session;
      },
    } as unknown as Database;
    return new SharedAccountConcurrency(db, new AccountConcurrency(1, 1), { maxRequests: 1, maxSearches: 1, log });
  };

  it("counts a request that arrives before the first connection against every instance's cap", async () => {
    const started = gate(false);
    await delay(200);
    const starting = gate(true);
    const accountId = 41;
    // Sent at once, while the sessions of `starting` still connect.
    const leave = await starting.enter(accountId, 'search');
    const refusal = await started.enter(accountId, 'search').then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(AppError);
    expect((refusal as AppError).code).toBe('rate_limited');
    leave();
    // Given back a statement later on its own session: admitted after.
    await delay(100);
    const again = await started.enter(accountId, 'search');
    again();
  });
});
