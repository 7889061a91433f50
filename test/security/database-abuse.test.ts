import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountConcurrency } from '../../src/runner/concurrency.js';
import { AppError } from '../../src/errors.js';
import { openDatabase } from '../../src/store/db.js';
import { balanceOf, waitFor } from '../audiences/helpers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

/**
 * The probe's high finding: free requests could hold the database for everyone. Searches run
 * under a statement timeout on connections of their own, a caller that leaves has its query
 * cancelled, and one account can run only so many requests at once.
 */

/** A title no profile has: the query reads every row of the people table before it answers. */
const scanningSearch = { searchParams: { jobTitleV2: { included: ['zzqx-no-such-title'] } }, pageSize: 25 };

describe('a search that runs past its statement timeout', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { SEARCH_STATEMENT_TIMEOUT_MS: '1' } });
  });
  afterAll(async () => {
    await app.stop();
  });

  it('is stopped and answered 503 query_timeout with Retry-After, charging nothing', async () => {
    const before = await balanceOf(app, app.apiKey);
    const response = await app.request('POST', '/v1/people-search', { apiKey: app.apiKey, ...scanningSearch });
    expect(response.status).toBe(503);
    expect(response.body.error.code).toBe('query_timeout');
    expect(response.body.error.message).toMatch(/nothing was charged/);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await balanceOf(app, app.apiKey)).toBe(before);
  });

  it('leaves the other operations their own limit: a balance read still answers', async () => {
    const response = await app.request('GET', `/v1/credits?apiKey=${app.apiKey}`);
    expect(response.status).toBe(200);
  });
});

describe('the catalog pool, kept apart', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { DATABASE_CATALOG_POOL_SIZE: '1', DATABASE_CONNECTION_TIMEOUT_MS: '300' } });
  });
  afterAll(async () => {
    await app.stop();
  });

  it('answers /healthz and free calls while every search connection is taken, and a waiting search gets 503 with Retry-After', async () => {
    const holding = app.service.context.db.catalogRead(undefined, (db) => db.query('SELECT pg_sleep(2)'));
    try {
      const started = Date.now();
      const health = await app.request('GET', '/healthz');
      expect(health.status).toBe(200);
      const balance = await app.request('GET', `/v1/credits?apiKey=${app.apiKey}`);
      expect(balance.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(1500);

      const other = await app.createAccount({ credits: 100 });
      const search = await app.request('POST', '/v1/company-search', {
        apiKey: other.apiKey,
        searchParams: {},
        pageSize: 5,
      });
      expect(search.status).toBe(503);
      expect(search.body.error.code).toBe('unavailable');
      expect(search.headers.get('retry-after')).toBeTruthy();
      expect(await balanceOf(app, other.apiKey)).toBe(100);
    } finally {
      await holding;
    }
    const after = await app.request('POST', '/v1/company-search', {
      apiKey: app.apiKey,
      searchParams: {},
      pageSize: 5,
    });
    expect(after.status).toBe(200);
  });
});

describe('a catalog read whose caller went away', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('empty');
  });
  afterAll(async () => {
    await database.drop();
  });

  it('is cancelled on the server, not left running', async () => {
    const db = openDatabase(database.connectionString, { max: 2, catalog: { max: 1, statementTimeoutMs: 60_000 } });
    try {
      const controller = new AbortController();
      const started = Date.now();
      const reading = db.catalogRead(controller.signal, (q) => q.query("SELECT pg_sleep(30), 'abandoned-read-marker'"));
      await waitFor('the read to start', async () => {
        const active = await db.pool.query(
          `SELECT 1 FROM pg_stat_activity WHERE query LIKE '%abandoned-read-marker%' AND pid <> pg_backend_pid()`,
        );
        return (active.rowCount ?? 0) > 0;
      });
      controller.abort();
      await expect(reading).rejects.toMatchObject({ code: '57014' });
      expect(Date.now() - started).toBeLessThan(10_000);
      // The backend reports itself idle a moment after it answered the cancel.
      await waitFor(
        'the read to be gone from the server',
        async () => {
          const left = await db.pool.query(
            `SELECT 1 FROM pg_stat_activity WHERE query LIKE '%abandoned-read-marker%' AND state = 'active' AND pid <> pg_backend_pid()`,
          );
          return left.rowCount === 0;
        },
        3_000,
      );
      // The connection went back to the pool healthy.
      const next = await db.catalogRead(new AbortController().signal, (q) =>
        q.query<{ one: number }>('SELECT 1 AS one'),
      );
      expect(next.rows[0]?.one).toBe(1);
    } finally {
      await db.close();
    }
  });
});

describe('requests of one account at once', () => {
  it('admits up to the cap per account, refuses the next with rate_limited, and admits again after one ends', () => {
    const concurrency = new AccountConcurrency(3, 1);
    const leaveSearch = concurrency.enter(1, 'search');
    expect(() => concurrency.enter(1, 'search')).toThrow(AppError);
    const other = concurrency.enter(2, 'search');
    const leaveStandard = concurrency.enter(1, 'standard');
    concurrency.enter(1, 'status');
    expect(() => concurrency.enter(1, 'standard')).toThrow(/already has 3 requests running/);
    leaveSearch();
    leaveSearch();
    leaveStandard();
    expect(() => concurrency.enter(1, 'search')).not.toThrow();
    other();
  });

  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { ACCOUNT_CONCURRENT_SEARCHES: '1' } });
  });
  afterAll(async () => {
    await app.stop();
  });

  it("refuses one account's excess parallel searches with 429 and charges only those served, while another account is served", async () => {
    const flooder = await app.createAccount({ credits: 100_000 });
    const quiet = await app.createAccount({ credits: 100 });
    const search = { searchParams: { jobTitleV2: { included: ['Engineer'] } }, pageSize: 10 };
    const flood = Array.from({ length: 16 }, () =>
      app.request('POST', '/v1/people-search', { apiKey: flooder.apiKey, ...search }),
    );
    const other = await app.request('POST', '/v1/people-search', { apiKey: quiet.apiKey, ...search });
    const answers = await Promise.all(flood);

    expect(other.status).toBe(200);
    const refused = answers.filter((a) => a.status === 429);
    const served = answers.filter((a) => a.status === 200);
    expect(refused.length + served.length).toBe(answers.length);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]?.body.error.code).toBe('rate_limited');
    expect(refused[0]?.headers.get('retry-after')).toBe('1');
    const charged = served.reduce((sum, a) => sum + (a.body.chargeInfo.creditsCharged as number), 0);
    expect(await balanceOf(app, flooder.apiKey)).toBe(100_000 - charged);
  });
});

describe('costly searches', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      env: { COSTLY_SEARCHES_AT_ONCE: '1', COSTLY_SEARCH_SUBSTRINGS: '10', DATABASE_CONNECTION_TIMEOUT_MS: '300' },
    });
  });
  afterAll(async () => {
    await app.stop();
  });

  const manyTitles = Array.from({ length: 11 }, (_, i) => `title-${i}`);

  it('take one slot at a time from all accounts together, while ordinary searches go on', async () => {
    const holding = app.service.context.db.catalogRead(undefined, (db) => db.query('SELECT pg_sleep(2)'), {
      costly: true,
    });
    try {
      const other = await app.createAccount({ credits: 100 });
      const costly = await app.request('POST', '/v1/people-search', {
        apiKey: other.apiKey,
        searchParams: { jobTitleV2: { included: manyTitles } },
      });
      expect(costly.status).toBe(503);
      expect(costly.body.error.code).toBe('unavailable');
      const ordinary = await app.request('POST', '/v1/people-search', {
        apiKey: other.apiKey,
        searchParams: { jobTitleV2: { included: manyTitles.slice(0, 10) } },
        pageSize: 5,
      });
      expect(ordinary.status).toBe(200);
    } finally {
      await holding;
    }
    const afterwards = await app.request('POST', '/v1/people-search', {
      apiKey: app.apiKey,
      searchParams: { jobTitleV2: { included: manyTitles } },
    });
    expect(afterwards.status).toBe(200);
  });
});
