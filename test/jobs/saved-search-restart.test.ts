import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/core/api-keys.js';
import { createAccount } from '../../src/core/accounts.js';
import { startServiceProcess, tsxSources, type ServiceProcess } from '../../bench/reliability/service-process.js';
import { finishedJob, waitFor } from '../audiences/helpers.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

/**
 * A saved-search run in a real process (node + tsx on src/main.ts), killed with SIGKILL between
 * the step that finds its new records and the step that charges for them, then started again on
 * the same database: the run completes once, its records are delivered once, and the ledger holds
 * its charge once. JOB_STEP_DELAY_MS holds the run between its steps; JOB_LEASE_SECONDS=2 lets the
 * new process reclaim it two seconds after the kill.
 */
describe('a saved-search run survives a killed process', () => {
  let database: TestDatabase;
  let dataDir: string;
  let service: ServiceProcess | null = null;
  let url = '';
  let apiKey: string;
  let accountId: number;

  beforeAll(async () => {
    database = await createTestDatabase('seeded');
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'pds-saved-restart-'));
    const created = await createAccount(database.db, {
      name: 'Restart test',
      plan: 'pro',
      initialCredits: 10_000,
      apiKey: generateApiKey(),
    });
    apiKey = created.apiKey;
    accountId = created.account.id;
  });
  afterAll(async () => {
    await service?.stop('SIGKILL');
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  async function start(): Promise<void> {
    service = await startServiceProcess(
      {
        DATABASE_URL: database.connectionString,
        JOB_STEP_DELAY_MS: '1500',
        JOB_LEASE_SECONDS: '2',
        JOB_POLL_INTERVAL_MS: '50',
        RATE_LIMIT_STATUS_PER_MINUTE: '100000',
        RATE_LIMIT_STANDARD_PER_MINUTE: '100000',
        RATE_LIMIT_HEAVY_PER_MINUTE: '100000',
      },
      dataDir,
      tsxSources,
    );
    url = service.url;
  }

  async function kill(): Promise<void> {
    await service?.stop('SIGKILL');
    service = null;
  }

  async function call(method: string, pathAndQuery: string, body?: unknown): Promise<Record<string, any>> {
    const response = await fetch(`${url}${pathAndQuery}`, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify({ apiKey, ...body }) : undefined,
    });
    const parsed = (await response.json()) as { output: Record<string, unknown> };
    if (!response.ok) throw new Error(`${method} ${pathAndQuery}: ${response.status} ${JSON.stringify(parsed)}`);
    return parsed.output;
  }

  const query = async <T>(text: string, params: unknown[] = []): Promise<T[]> =>
    (await database.db.pool.query(text, params)).rows as T[];

  it('completes once and charges once after a kill between finding and charging', async () => {
    await start();
    const search = await call('POST', '/v1/saved-searches', {
      name: 'killed run',
      kind: 'companies',
      companySearchParams: { headquartersCountryCode: ['US'] },
    });
    const expected = (
      await query<{ id: number }>(`SELECT id FROM companies WHERE country_code = 'US' ORDER BY id LIMIT 40`)
    ).map((r) => String(r.id));
    const run = await call('POST', `/v1/saved-searches/${search.savedSearchId}/runs`, { maxNewRecords: 40 });
    // Kill once the candidates are written and before the settle step (held back by JOB_STEP_DELAY_MS).
    await waitFor('the find step', async () => {
      const jobs = await query<{ progress: { step?: string } }>(
        `SELECT progress FROM jobs WHERE kind = 'saved-search.run' AND payload->>'runId' = $1`,
        [run.runId],
      );
      return jobs[0]?.progress.step === 'found';
    });
    await kill();
    const stored = await query<{ status: string; delivered: number; candidates: number }>(
      `SELECT r.status, (SELECT count(*)::int FROM saved_search_records x WHERE x.run_id = r.id AND x.delivered) AS delivered,
              (SELECT count(*)::int FROM saved_search_records x WHERE x.run_id = r.id) AS candidates
         FROM saved_search_runs r WHERE r.id = $1`,
      [Number(run.runId)],
    );
    expect(stored[0]).toEqual({ status: 'RUNNING', delivered: 0, candidates: 40 });
    const ledgerBefore = await query(
      `SELECT 1 FROM credit_ledger WHERE account_id = $1 AND unit = 'savedSearchNewRecord'`,
      [accountId],
    );
    expect(ledgerBefore).toHaveLength(0);

    await start();
    const done = await waitFor(
      'the run to complete',
      async () => {
        const status = await call(
          'GET',
          `/v1/saved-searches/${search.savedSearchId}/runs/${run.runId}?apiKey=${apiKey}`,
        );
        return status.status === 'DONE' ? status : null;
      },
      60_000,
    );
    expect(done).toMatchObject({ newRecords: 40, creditsCharged: 80 });
    const ledger = await query<{ amount: number; idempotency_key: string }>(
      `SELECT amount, idempotency_key FROM credit_ledger WHERE account_id = $1 AND unit = 'savedSearchNewRecord'`,
      [accountId],
    );
    expect(ledger).toEqual([{ amount: -80, idempotency_key: `saved-search-run:${run.runId}` }]);
    const records = await call(
      'GET',
      `/v1/saved-searches/${search.savedSearchId}/runs/${run.runId}/records?apiKey=${apiKey}&pageSize=100`,
    );
    expect(records.data.map((r: { company: { last_sort_key: string } }) => r.company.last_sort_key)).toEqual(expected);
    const balance = await query<{ balance: number }>('SELECT balance FROM credit_balances WHERE account_id = $1', [
      accountId,
    ]);
    expect(balance[0]?.balance).toBe(10_000 - 80);
    const jobs = await finishedJob(
      query,
      `SELECT status, attempts FROM jobs WHERE kind = 'saved-search.run' AND payload->>'runId' = $1`,
      [run.runId],
    );
    expect(jobs).toEqual([{ status: 'succeeded', attempts: 2 }]);
    await kill();
  }, 120_000);
});
