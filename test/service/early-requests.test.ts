import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../bench/free-port.js';
import { generateApiKey } from '../../src/core/api-keys.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { startService, type RunningService } from '../../src/service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

/**
 * Requests that arrive while the service starts: fired every few milliseconds from the moment
 * the start begins, each gets an answer within a second: a refused connection before the port
 * is open, 503 `starting` with Retry-After while the services are built, the real answer once
 * they are. The window between listening and being ready is held open on purpose: the test
 * holds a lock on the table the start reads its signing key from, and lets go once requests
 * have been answered 503 in that window.
 */
describe('requests during the start', () => {
  let database: TestDatabase;
  let dataDir: string;
  let service: RunningService | null = null;
  beforeAll(async () => {
    database = await createTestDatabase('empty');
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'pds-early-'));
  });
  afterAll(async () => {
    await service?.stop();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('answers every request at once, 503 starting until ready, then as usual', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const config = loadConfig({
      DATABASE_URL: database.connectionString,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      SEED_ON_EMPTY: 'false',
      DEMO_API_KEY: generateApiKey(),
      JOB_WORKER: 'false',
    });
    const lock = new pg.Client({ connectionString: database.connectionString });
    await lock.connect();
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE mcp_signing_keys IN ACCESS EXCLUSIVE MODE');

    type Outcome =
      { kind: 'answer'; status: number; body: string; retryAfter: string | null } | { kind: 'error'; code: string };
    const outcomes: Outcome[] = [];
    const pending: Promise<void>[] = [];
    const routes: Array<{ path: string; method?: string; headers?: Record<string, string>; body?: string }> = [
      { path: '/healthz' },
      { path: '/v1/credits', headers: { 'x-api-key': config.DEMO_API_KEY as string } },
      {
        path: '/mcp',
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      },
    ];
    let fired = 0;
    const fire = () => {
      const route = routes[fired % routes.length] as (typeof routes)[number];
      fired += 1;
      pending.push(
        fetch(`${base}${route.path}`, {
          method: route.method ?? 'GET',
          headers: route.headers ?? {},
          ...(route.body ? { body: route.body } : {}),
          signal: AbortSignal.timeout(1_000),
        }).then(
          async (response) => {
            outcomes.push({
              kind: 'answer',
              status: response.status,
              body: await response.text(),
              retryAfter: response.headers.get('retry-after'),
            });
            settle();
          },
          (error: Error & { cause?: { code?: string } }) => {
            outcomes.push({ kind: 'error', code: error.cause?.code ?? error.name });
            settle();
          },
        ),
      );
    };
    const timer = setInterval(fire, 5);
    const starting = startService(config, { log: createLogger('silent') });
    starting.catch(() => undefined);
    // Waits for the outcomes to show something: checked each time an outcome arrives.
    const waiters: Array<() => boolean> = [];
    const until = (what: string, done: () => boolean) =>
      new Promise<void>((resolve, reject) => {
        const deadline = setTimeout(() => reject(new Error(`never saw ${what}`)), 50_000);
        const check = () => {
          const hung = outcomes.find((o) => o.kind === 'error' && o.code !== 'ECONNREFUSED');
          if (!hung && !done()) return false;
          clearTimeout(deadline);
          if (hung) reject(new Error(`a request got no answer within a second (${JSON.stringify(hung)})`));
          else resolve();
          return true;
        };
        if (!check()) waiters.push(check);
      });
    const settle = () => {
      for (let i = waiters.length - 1; i >= 0; i -= 1) if ((waiters[i] as () => boolean)()) waiters.splice(i, 1);
    };
    const startingAnswers = () => outcomes.filter((o) => o.kind === 'answer' && o.status === 503).length;
    try {
      // The port opens, the start waits on the lock: requests in that window are answered 503.
      await until('three 503 answers while starting', () => startingAnswers() >= 3);
    } finally {
      await lock.query('COMMIT');
      await lock.end();
    }
    service = await starting;
    await until('a 200 from /healthz', () => outcomes.some((o) => o.kind === 'answer' && o.status === 200));
    clearInterval(timer);
    await Promise.all(pending);

    const unanswered = outcomes.filter((o) => o.kind === 'error' && o.code !== 'ECONNREFUSED');
    expect(unanswered, `requests without an answer within a second: ${JSON.stringify(unanswered.slice(0, 5))}`).toEqual(
      [],
    );
    for (const outcome of outcomes) {
      if (outcome.kind !== 'answer' || outcome.status !== 503) continue;
      expect(outcome.retryAfter).toBe('1');
      expect(JSON.parse(outcome.body).error.code).toBe('starting');
    }
    expect(outcomes.filter((o) => o.kind === 'answer' && o.status >= 500 && o.status !== 503)).toEqual([]);
    expect(fired).toBe(outcomes.length);

    // Ready: the same routes answer as usual.
    const credits = await fetch(`${base}/v1/credits`, { headers: { 'x-api-key': config.DEMO_API_KEY as string } });
    expect(credits.status).toBe(200);
  });
});
