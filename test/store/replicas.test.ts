import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createAccount } from '../../src/core/accounts.js';
import { getBalance } from '../../src/core/credits.js';
import { createLogger } from '../../src/log.js';
import { seedCatalog } from '../../src/seed/load.js';
import { startService, type RunningService } from '../../src/service.js';
import { openDatabase } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';
import { waitFor } from '../audiences/helpers.js';
import { startReplicatedPair, waitUntilReplayed, type ReplicatedPair } from '../../bench/replication.js';

/**
 * Catalog reads on real streaming replication: a primary and a replica of it, started by the
 * test. Which server answered is told by data the replica has not replayed yet (its replay is
 * paused), and by the replica's read count.
 */

const database = 'pds_replicas';
let pair: ReplicatedPair;

beforeAll(async () => {
  pair = await startReplicatedPair(database, async (primaryUrl) => {
    const db = openDatabase(primaryUrl, 4);
    try {
      await migrate(db.pool);
      await seedCatalog(db, { companies: 1_000, people: 5_000, seed: 11 });
    } finally {
      await db.close();
    }
  });
}, 240_000);
afterAll(async () => {
  await pair?.close();
});

interface Running {
  service: RunningService;
  apiKey: string;
  accountId: number;
  dataDir: string;
  search(nameLike: string, extra?: Record<string, unknown>): Promise<{ status: number; body: any }>;
  health(): Promise<{ healthy: boolean; lagMs: number | null; reason: string | null }>;
  stop(): Promise<void>;
}

async function startWithReplica(env: Record<string, string>): Promise<Running> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pds-replica-app-'));
  const service = await startService(
    loadConfig({
      DATABASE_URL: pair.primary.url,
      DATABASE_REPLICA_URLS: pair.replica.url,
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'silent',
      SEED_ON_EMPTY: 'false',
      DEMO_CREDITS: '0',
      RATE_LIMIT_SEARCH_PER_MINUTE: '100000',
      ...env,
    }),
    { log: createLogger('silent') },
  );
  const { apiKey, account } = await createAccount(service.context.db, {
    name: 'replica test',
    plan: 'pro',
    initialCredits: 100_000,
  });
  const search = async (nameLike: string, extra: Record<string, unknown> = {}) => {
    const response = await fetch(`${service.url}/v1/company-search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey, searchParams: { nameLike }, pageSize: 10, ...extra }),
    });
    return { status: response.status, body: await response.json() };
  };
  const health = async () => {
    const body = (await (await fetch(`${service.url}/healthz`)).json()) as {
      replicas: Array<{ healthy: boolean; lagMs: number | null; reason: string | null }>;
    };
    return body.replicas[0] as { healthy: boolean; lagMs: number | null; reason: string | null };
  };
  return {
    service,
    apiKey,
    accountId: account.id,
    dataDir,
    search,
    health,
    stop: async () => {
      await service.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A company only the primary has while the replica's replay is paused. */
async function addMarkerCompany(name: string): Promise<void> {
  const client = new pg.Client({ connectionString: pair.primary.url });
  await client.connect();
  try {
    const columns = (
      await client.query<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'companies' AND is_generated = 'NEVER' AND column_name NOT IN ('id', 'preferred_name') ORDER BY ordinal_position`,
      )
    ).rows.map((r) => r.column_name);
    await client.query(
      `INSERT INTO companies (id, preferred_name, ${columns.join(', ')})
       SELECT (SELECT max(id) + 1 FROM companies), $1, ${columns.join(', ')} FROM companies ORDER BY id LIMIT 1`,
      [name],
    );
  } finally {
    await client.end();
  }
}

const pauseReplay = () => pair.replica.query('SELECT pg_wal_replay_pause()');
const resumeReplay = () => pair.replica.query('SELECT pg_wal_replay_resume()');

describe('catalog reads with a streaming replica', () => {
  it(`was set up by ${'pg_basebackup or a cold copy'}, and the replica is in recovery`, async () => {
    const [row] = await pair.replica.query<{ recovering: boolean }>('SELECT pg_is_in_recovery() AS recovering');
    expect(row?.recovering).toBe(true);
    expect(['pg_basebackup', 'cold copy']).toContain(pair.method);
  });

  it('sends searches to the replica while it is within the lag bound', async () => {
    const app = await startWithReplica({ DATABASE_REPLICA_MAX_LAG_MS: '600000', DATABASE_REPLICA_CHECK_MS: '200' });
    try {
      // Judged every DATABASE_REPLICA_CHECK_MS: the first check may still be on its way when the service answers.
      await waitFor('the replica to be judged healthy', async () => (await app.health()).healthy);
      await pauseReplay();
      await addMarkerCompany('Quillfeather Replica Marker');
      // The primary has it; the replica has not replayed it, and is still within its (generous) bound.
      const fromReplica = await app.search('Quillfeather Replica Marker');
      expect(fromReplica.status).toBe(200);
      expect(fromReplica.body.output.data).toEqual([]);
      expect(app.service.context.db.replicas?.status()[0]?.reads).toBeGreaterThan(0);
      await resumeReplay();
      await waitUntilReplayed(pair.primary, pair.replica);
      const replayed = await app.search('Quillfeather Replica Marker');
      expect(replayed.body.output.data.map((c: { preferred_name: string }) => c.preferred_name)).toEqual([
        'Quillfeather Replica Marker',
      ]);
    } finally {
      await resumeReplay().catch(() => undefined);
      await app.stop();
    }
  });

  it('leaves out a replica that lags past the bound, reading from the primary, and takes it back once it catches up', async () => {
    const app = await startWithReplica({ DATABASE_REPLICA_MAX_LAG_MS: '1000', DATABASE_REPLICA_CHECK_MS: '200' });
    try {
      await pauseReplay();
      await addMarkerCompany('Lanternfish Lag Marker');
      const lagging = await waitFor('the replica to be left out', async () => {
        const health = await app.health();
        return health.healthy ? null : health;
      });
      expect(lagging.reason).toMatch(/lags/);
      const answer = await app.search('Lanternfish Lag Marker');
      expect(answer.body.output.data).toHaveLength(1);
      await resumeReplay();
      await waitFor('the replica to serve again', async () => (await app.health()).healthy);
    } finally {
      await resumeReplay().catch(() => undefined);
      await app.stop();
    }
  });

  it('falls back to the primary when the replica is stopped, charging only for pages served, and recovers when it is back', async () => {
    const app = await startWithReplica({ DATABASE_REPLICA_MAX_LAG_MS: '5000', DATABASE_REPLICA_CHECK_MS: '200' });
    // Started again even when an assertion fails, so that the tests after this one have their replica.
    let replicaStopped = false;
    try {
      await pair.replica.stop();
      replicaStopped = true;
      const before = await getBalance(app.service.context.db.pool, app.accountId);
      const answers = [];
      for (let i = 0; i < 5; i += 1) answers.push(await app.search('a'));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
      const served = answers.reduce((sum, a) => sum + a.body.output.data.length, 0);
      expect(served).toBeGreaterThan(0);
      expect(await getBalance(app.service.context.db.pool, app.accountId)).toBe(before - served);
      expect((await app.health()).reason).toMatch(/unreachable/);
      await pair.replica.start();
      replicaStopped = false;
      await waitFor('the replica to serve again', async () => (await app.health()).healthy, 60_000);
      const readsBefore = app.service.context.db.replicas?.status()[0]?.reads ?? 0;
      expect((await app.search('a')).status).toBe(200);
      expect(app.service.context.db.replicas?.status()[0]?.reads).toBe(readsBefore + 1);
    } finally {
      if (replicaStopped) await pair.replica.start();
      await app.stop();
    }
  });

  it("reads a search that names the account's exclusion lists from the primary, which has the list made a moment ago", async () => {
    const app = await startWithReplica({ DATABASE_REPLICA_MAX_LAG_MS: '600000', DATABASE_REPLICA_CHECK_MS: '200' });
    try {
      await pauseReplay();
      const first = await app.search('a');
      const excluded = first.body.output.data[0] as { domains: string[] };
      const list = await fetch(`${app.service.url}/v1/exclusion-lists`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          apiKey: app.apiKey,
          name: 'just made',
          kind: 'companies',
          companies: [{ domain: excluded.domains[0] }],
        }),
      });
      const { exclusionListId } = ((await list.json()) as { output: { exclusionListId: string } }).output;
      const answer = await app.search('a', { companyExclusionListIDs: [exclusionListId] });
      expect(answer.status).toBe(200);
      expect(answer.body.output.data.map((c: { domains: string[] }) => c.domains[0])).not.toContain(
        excluded.domains[0],
      );
    } finally {
      await resumeReplay().catch(() => undefined);
      await app.stop();
    }
  });
});
