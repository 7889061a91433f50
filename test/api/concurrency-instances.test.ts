import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServiceProcess, tsxSources } from '../../bench/reliability/service-process.js';
import { createLogger } from '../../src/log.js';
import { startService, type RunningService } from '../../src/service.js';
import { waitFor } from '../audiences/helpers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * ACCOUNT_CONCURRENCY_STORE=database: an account's requests in flight are counted across every
 * instance on the database, where the memory store would let each instance admit the cap. A
 * search is held in flight by a lock the test takes on the companies table.
 */
describe('per-account concurrency caps across instances', () => {
  let app: TestApp;
  const others: Array<{ service: RunningService; dataDir: string }> = [];

  async function startInstance(): Promise<RunningService> {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pds-caps-'));
    const config = app.service.context.config;
    const service = await startService(
      { ...config, dataDir, exportDir: path.join(dataDir, 'exports'), JOB_WORKER: false },
      { log: createLogger('silent') },
    );
    others.push({ service, dataDir });
    return service;
  }

  beforeAll(async () => {
    app = await startTestApp({
      catalog: 'seeded',
      env: {
        ACCOUNT_CONCURRENCY_STORE: 'database',
        ACCOUNT_CONCURRENT_REQUESTS: '2',
        ACCOUNT_CONCURRENT_SEARCHES: '1',
        SEARCH_STATEMENT_TIMEOUT_MS: '60000',
      },
    });
  });
  afterAll(async () => {
    for (const { service, dataDir } of others) {
      await service.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
    await app?.stop();
  });

  const call = (url: string, apiKey: string, route: string, body?: unknown) =>
    fetch(`${url}${route}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const companySearch = { searchParams: {}, pageSize: 1 };
  const peopleSearch = { searchParams: {}, pageSize: 1 };

  /** Holds the statements on a table on a lock until `release`; `waiting` resolves once that many wait on it. */
  async function holdTable(
    table: 'companies' | 'audiences',
  ): Promise<{ waiting(count: number): Promise<void>; release(): Promise<void> }> {
    const client = new pg.Client({ connectionString: app.service.context.config.DATABASE_URL as string });
    // The database stops at the end of the file: a lock still held then must not end the run with an uncaught error.
    client.on('error', () => undefined);
    await client.connect();
    await client.query('BEGIN');
    await client.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    return {
      waiting: async (count) => {
        await waitFor(`statements waiting on ${table}`, async () => {
          const result = await app.db.pool.query<{ n: number }>(
            // Client backends only: autovacuum's ANALYZE of a freshly seeded table waits on the lock too.
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND backend_type = 'client backend'
                AND wait_event_type = 'Lock' AND query ILIKE $1`,
            [`%${table}%`],
          );
          return (result.rows[0]?.n ?? 0) >= count;
        });
      },
      release: async () => {
        await client.query('COMMIT');
        await client.end();
      },
    };
  }

  /**
   * Resolves once instances hold that many of the account's request slots (session advisory locks, second key
   * below 2^30): another statement on a held table (an instance's own) can be the one seen waiting.
   */
  async function requestSlotsTaken(accountId: number, count: number): Promise<void> {
    await waitFor(`${count} of account ${accountId}'s request slots to be taken`, async () => {
      const result = await app.db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_locks
          WHERE locktype = 'advisory' AND granted AND classid = $1 AND objid < $2 AND objsubid = 2`,
        [accountId, 1 << 30],
      );
      return (result.rows[0]?.n ?? 0) >= count;
    });
  }

  it('refuses a search on one instance while the account has its one search running on another, and admits it after', async () => {
    const second = await startInstance();
    const { apiKey, accountId } = await app.createAccount({ credits: 1000 });
    const lock = await holdTable('companies');
    const held = call(app.url, apiKey, '/v1/company-search', companySearch);
    await lock.waiting(1);
    await requestSlotsTaken(accountId, 1);

    const refused = await call(second.url, apiKey, '/v1/people-search', peopleSearch);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    const body = (await refused.json()) as { error: { code: string; details: { concurrentLimit: number } } };
    expect(body.error.code).toBe('rate_limited');
    expect(body.error.details.concurrentLimit).toBe(1);
    // Requests other than searches: two at once for the account, the search among them.
    expect((await call(second.url, apiKey, '/v1/credits')).status).toBe(200);
    // Another account is not held back by this one.
    const other = await app.createAccount({ credits: 1000 });
    expect((await call(second.url, other.apiKey, '/v1/people-search', peopleSearch)).status).toBe(200);

    await lock.release();
    expect((await held).status).toBe(200);
    expect((await call(second.url, apiKey, '/v1/people-search', peopleSearch)).status).toBe(200);
  });

  it('counts every request against the cap, whichever instance serves it', async () => {
    const second = await startInstance();
    const { apiKey, accountId } = await app.createAccount({ credits: 1000 });
    const companies = await holdTable('companies');
    const audiences = await holdTable('audiences');
    // Two requests in flight for the account, one on each instance: a search and an audience creation, each on a lock.
    const search = call(app.url, apiKey, '/v1/company-search', companySearch);
    await companies.waiting(1);
    const creation = call(second.url, apiKey, '/v1/audiences/create', { name: 'Held' });
    await audiences.waiting(1);
    await requestSlotsTaken(accountId, 2);
    for (const url of [app.url, second.url]) {
      const refused = await call(url, apiKey, '/v1/credits');
      expect(refused.status).toBe(429);
      expect(
        ((await refused.json()) as { error: { details: { concurrentLimit: number } } }).error.details.concurrentLimit,
      ).toBe(2);
    }
    await companies.release();
    expect((await search).status).toBe(200);
    // One slot free again, on either instance.
    expect((await call(second.url, apiKey, '/v1/credits')).status).toBe(200);
    await audiences.release();
    expect((await creation).status).toBe(200);
  });

  it('frees at once the slots of an instance that is killed (its sessions end with it)', async () => {
    const survivor = await startInstance();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pds-caps-killed-'));
    const doomed = await startServiceProcess(
      {
        DATABASE_URL: app.service.context.config.DATABASE_URL as string,
        ACCOUNT_CONCURRENCY_STORE: 'database',
        ACCOUNT_CONCURRENT_REQUESTS: '2',
        ACCOUNT_CONCURRENT_SEARCHES: '1',
        SEARCH_STATEMENT_TIMEOUT_MS: '60000',
        JOB_WORKER: 'false',
      },
      dataDir,
      tsxSources,
    );
    try {
      const { apiKey, accountId } = await app.createAccount({ credits: 1000 });
      const companies = await holdTable('companies');
      try {
        const held = call(doomed.url, apiKey, '/v1/company-search', companySearch).catch(() => null);
        await companies.waiting(1);
        await requestSlotsTaken(accountId, 1);
        expect((await call(survivor.url, apiKey, '/v1/people-search', peopleSearch)).status).toBe(429);
        await doomed.stop('SIGKILL');
        expect(await held).toBeNull();
        // Its search still waits on the lock on the server; its slot went with its session.
        const admitted = await waitFor("the dead instance's slot to be free", async () => {
          const answer = await call(survivor.url, apiKey, '/v1/people-search', peopleSearch);
          return answer.status === 200 ? answer : null;
        });
        expect(admitted.status).toBe(200);
      } finally {
        await companies.release();
      }
    } finally {
      await doomed.stop('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
