import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { startService, type RunningService } from '../../src/service.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * A failover as the service sees it: its connections to the primary end, and for a while the
 * server it reaches takes no writes (the old primary, now a standby, or the new one not yet
 * promoted). Here the test database is made read-only and its sessions cut. The instance under
 * test has the same database as its streaming replica, so key lookups and catalog reads have
 * somewhere to go while the primary takes no writes, as they do in the cluster
 * (scripts/cluster.sh). The failover scenario of `npm run reliability` does it with Patroni.
 */
describe('the service through a failover', () => {
  let app: TestApp;
  let instance: RunningService;
  let dataDir: string;
  let admin: pg.Client;
  let name: string;
  beforeAll(async () => {
    app = await startTestApp({ catalog: 'seeded' });
    const config = app.service.context.config;
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'pds-failover-'));
    instance = await startService(
      {
        ...config,
        dataDir,
        exportDir: path.join(dataDir, 'exports'),
        DATABASE_REPLICA_URLS: [config.DATABASE_URL as string],
        DATABASE_CONNECTION_TIMEOUT_MS: 2_000,
      },
      { log: createLogger('silent') },
    );
    name = new URL(config.DATABASE_URL as string).pathname.slice(1);
    // On the server's own database: the test database's sessions are what the test cuts.
    admin = new pg.Client({ connectionString: inject('adminUrl') });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.query(`ALTER DATABASE ${name} RESET default_transaction_read_only`).catch(() => undefined);
    await admin?.end();
    await instance?.stop();
    await app?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const call = async (method: string, route: string, apiKey: string, body?: unknown) => {
    const response = await fetch(`${instance.url}${route}`, {
      method,
      headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: (await response.json()) as {
        output?: Record<string, unknown>;
        error?: { code: string; message: string };
        chargeInfo?: { creditsCharged?: number };
      },
    };
  };

  it('answers writes and charges 503 with Retry-After while no primary takes them, serves what needs none, and carries on at once when one does', async () => {
    const { accountId, apiKey } = await app.createAccount({ credits: 1000 });
    expect((await call('POST', '/v1/audiences/create', apiKey, { name: 'Before' })).status).toBe(200);
    const balanceBefore = (await call('GET', '/v1/credits', apiKey)).body.output?.balance as number;

    await admin.query(`ALTER DATABASE ${name} SET default_transaction_read_only = on`);
    await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [name],
    );

    const write = await call('POST', '/v1/audiences/create', apiKey, { name: 'During' });
    expect(write.status).toBe(503);
    expect(write.body.error?.code).toBe('unavailable');
    expect(Number(write.retryAfter)).toBeGreaterThan(0);
    const charged = await call('POST', '/v1/company-search', apiKey, { searchParams: {}, pageSize: 3 });
    expect(charged.status).toBe(503);
    expect(charged.body.error?.code).toBe('unavailable');
    expect(Number(charged.retryAfter)).toBeGreaterThan(0);
    // Reference data needs no write: the key is looked up on the replica, the answer comes from memory.
    const regions = await call('GET', '/v1/enums/regions', apiKey);
    expect(regions.status).toBe(200);
    expect((regions.body.output?.countries as unknown[]).length).toBeGreaterThan(0);

    // The new primary takes writes: the next requests are served by the same process, with no restart.
    await admin.query(`ALTER DATABASE ${name} RESET default_transaction_read_only`);
    const after = await call('POST', '/v1/audiences/create', apiKey, { name: 'After' });
    expect(after.status).toBe(200);
    const search = await call('POST', '/v1/company-search', apiKey, { searchParams: {}, pageSize: 3 });
    expect(search.status).toBe(200);
    expect(search.body.chargeInfo?.creditsCharged).toBe(3);

    // What was refused changed nothing: two audiences besides 'Before' and 'After' would be a bug, and one charge only.
    const audiences = await app.db.pool.query<{ name: string }>(
      'SELECT name FROM audiences WHERE account_id = $1 ORDER BY id',
      [accountId],
    );
    expect(audiences.rows.map((r) => r.name)).toEqual(['Before', 'After']);
    expect((await call('GET', '/v1/credits', apiKey)).body.output?.balance).toBe(balanceBefore - 3);
  });
});
