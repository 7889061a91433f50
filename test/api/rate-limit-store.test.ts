import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseRateLimiter } from '../../src/runner/rate-limit.js';
import { createLogger } from '../../src/log.js';
import { startService, type RunningService } from '../../src/service.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * RATE_LIMIT_STORE=database: the buckets live in PostgreSQL, so two instances behind a load
 * balancer enforce one limit between them, where the memory store would let each grant its own.
 */
describe('rate limits shared through PostgreSQL', () => {
  let app: TestApp;
  let second: RunningService;
  let secondDataDir: string;

  beforeAll(async () => {
    app = await startTestApp({
      catalog: 'seeded',
      env: { RATE_LIMIT_STORE: 'database', RATE_LIMIT_SEARCH_PER_MINUTE: '4' },
    });
    secondDataDir = await mkdtemp(path.join(os.tmpdir(), 'pds-second-'));
    const config = app.service.context.config;
    second = await startService(
      { ...config, dataDir: secondDataDir, exportDir: path.join(secondDataDir, 'exports'), JOB_WORKER: false },
      { log: createLogger('silent') },
    );
  });
  afterAll(async () => {
    await second?.stop();
    await app?.stop();
    if (secondDataDir) await rm(secondDataDir, { recursive: true, force: true });
  });

  it('counts the requests of one account on both instances against one limit', async () => {
    const { apiKey } = await app.createAccount({ credits: 1000 });
    const search = (url: string) =>
      fetch(`${url}/v1/company-search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiKey, searchParams: {}, pageSize: 1 }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await search(i % 2 === 0 ? app.url : second.url)).status);
    // A burst of 4 (one minute's worth) between the two, then 429 on either.
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    const refused = await search(second.url);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('ratelimit')).toBe(`"search";r=0;t=${refused.headers.get('retry-after')}`);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
    // Another account has its own bucket.
    const other = await app.createAccount({ credits: 1000 });
    const theirs = await fetch(`${second.url}/v1/company-search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: other.apiKey, searchParams: {}, pageSize: 1 }),
    });
    expect(theirs.status).toBe(200);
  });

  it('refills at the per-minute rate and never takes a token it does not have, under concurrency', async () => {
    const limiter = new DatabaseRateLimiter(
      {
        RATE_LIMIT_SEARCH_PER_MINUTE: 60,
        RATE_LIMIT_STANDARD_PER_MINUTE: 60,
        RATE_LIMIT_STATUS_PER_MINUTE: 60,
        RATE_LIMIT_HEAVY_PER_MINUTE: 60,
      },
      app.db.pool,
    );
    const decisions = await Promise.all(Array.from({ length: 80 }, () => limiter.take('concurrency-test', 'search')));
    // 60 in the bucket, plus at most a token or two refilled (one a second) while the 80 ran.
    const allowed = decisions.filter((d) => d.allowed).length;
    expect(allowed).toBeGreaterThanOrEqual(60);
    expect(allowed).toBeLessThanOrEqual(62);
    const refusal = decisions.find((d) => !d.allowed);
    expect(refusal?.retryAfterSeconds).toBe(1);
    // One token a second comes back: an empty bucket last touched 3 s ago holds 3.
    await app.db.pool.query(
      "UPDATE rate_limit_buckets SET tokens = 0, updated_at = clock_timestamp() - interval '3 seconds' WHERE subject = 'concurrency-test'",
    );
    // Looking takes nothing: 3 tokens, so a full bucket again in 57 s.
    const peeked = await limiter.peek('concurrency-test', 'search');
    expect(peeked).toMatchObject({ remaining: 3, resetSeconds: 57 });
    expect((await limiter.peek('never-seen', 'search')).remaining).toBe(60);
    const afterWait = await Promise.all(Array.from({ length: 5 }, () => limiter.take('concurrency-test', 'search')));
    expect(afterWait.filter((d) => d.allowed).length).toBe(3);
  });
});
