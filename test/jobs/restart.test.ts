import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/core/api-keys.js';
import { createAccount } from '../../src/core/accounts.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startServiceProcess, tsxSources, type ServiceProcess } from '../../bench/reliability/service-process.js';
import { csvObjects, finishedJob, parseCsv, waitFor } from '../audiences/helpers.js';
import { startLocalServer, type LocalServer } from '../providers/local-server.js';

/**
 * The service as a real process (node + tsx on src/main.ts), killed with SIGKILL in the middle
 * of a build, of an enrichment and of a batch contact task, and started again on the same
 * database: the jobs finish and the ledger holds each charge exactly once. JOB_STEP_DELAY_MS (and
 * a slow contact vendor) slow the jobs enough to be killed mid-way; JOB_LEASE_SECONDS=2 and
 * CONTACT_BATCH_LEASE_SECONDS=2 let the new process reclaim them two seconds after the kill.
 */
describe('jobs survive a killed process', () => {
  let database: TestDatabase;
  let dataDir: string;
  let service: ServiceProcess | null = null;
  let url = '';
  let apiKey: string;
  let accountId: number;
  let vendor: LocalServer;
  let began = Date.now();
  /** Where a run spends its time, on stderr: a run that ends at the test's timeout says which step was slow. */
  const trace = (what: string) =>
    process.stderr.write(`[restart +${((Date.now() - began) / 1000).toFixed(1)}s] ${what}\n`);

  beforeAll(async () => {
    // A contact vendor that knows a personal email for people with an even id, and answers those asks slowly.
    vendor = await startLocalServer((request) => {
      const { people: asked, types } = request.body as { people: Array<{ ref: string }>; types: string[] };
      if (!types.includes('personal_email')) return { status: 200, json: { results: [] } };
      return {
        status: 200,
        delayMs: 250,
        json: {
          results: asked
            .filter((p) => Number(p.ref) % 2 === 0)
            .map((p) => ({ ref: p.ref, personal_emails: [`p${p.ref}@mail-provider-test.com`] })),
        },
      };
    });
    database = await createTestDatabase('seeded');
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'pds-restart-'));
    const created = await createAccount(database.db, {
      name: 'Restart test',
      plan: 'pro',
      initialCredits: 100_000,
      apiKey: generateApiKey(),
    });
    apiKey = created.apiKey;
    accountId = created.account.id;
  });
  afterAll(async () => {
    await service?.stop('SIGKILL');
    await vendor?.close();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  async function start(): Promise<void> {
    trace('service starting');
    service = await startServiceProcess(
      {
        DATABASE_URL: database.connectionString,
        JOB_STEP_DELAY_MS: '700',
        JOB_LEASE_SECONDS: '2',
        JOB_POLL_INTERVAL_MS: '50',
        CONTACT_PROVIDER_URL: vendor.url,
        CONTACT_BATCH_CLAIM_SIZE: '2',
        CONTACT_BATCH_LEASE_SECONDS: '2',
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
    trace('killing the service');
    await service?.stop('SIGKILL');
    service = null;
  }

  async function call(method: string, pathAndQuery: string, body?: unknown): Promise<Record<string, unknown>> {
    // A bound on every call, so a request that never answers fails naming itself instead of the test's timeout.
    const response = await fetch(`${url}${pathAndQuery}`, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify({ apiKey, ...body }) : undefined,
      signal: AbortSignal.timeout(30_000),
    }).catch((error: unknown) => {
      throw new Error(
        `${method} ${pathAndQuery} got no answer: ${String(error)}\n${service?.recentOutput().slice(-4000) ?? ''}`,
      );
    });
    const parsed = (await response.json()) as { output: Record<string, unknown> };
    if (!response.ok) throw new Error(`${method} ${pathAndQuery}: ${response.status} ${JSON.stringify(parsed)}`);
    return parsed.output;
  }

  const query = async <T>(text: string, params: unknown[] = []): Promise<T[]> =>
    (await database.db.pool.query(text, params)).rows as T[];
  const balance = async (): Promise<number> =>
    (await query<{ balance: number }>('SELECT balance FROM credit_balances WHERE account_id = $1', [accountId]))[0]
      ?.balance as number;

  it('a build and an enrichment killed mid-way complete after a restart, each charge in the ledger once', async () => {
    began = Date.now();
    await start();
    const audience = await call('POST', '/v1/audiences/create', { name: 'Killed build' });
    const id = audience.audienceId as string;
    await call('PATCH', `/v1/audiences/${id}/search-params`, {
      companySearchParams: { headquartersCountryCode: ['US'] },
      maxCompanies: 200,
      maxProspects: 600,
    });
    const before = await balance();
    await call('POST', `/v1/audiences/${id}/build`, {});
    // Kill once the first step (the companies) has committed and the second has not.
    trace('waiting for the companies step');
    await waitFor('the companies step', async () => {
      const jobs = await query<{ progress: { step?: string } }>(
        `SELECT progress FROM jobs WHERE kind = 'audience.build' AND payload->>'audienceId' = $1`,
        [id],
      );
      return jobs[0]?.progress.step === 'companies';
    });
    await kill();
    expect((await storedStatus(id)).status).toBe('BUILDING');
    expect(await balance()).toBe(before);

    await start();
    trace('waiting for NORMAL');
    const built = await waitFor('NORMAL', async () => {
      const status = await call('GET', `/v1/audiences/${id}?apiKey=${apiKey}`);
      return status.status === 'NORMAL' ? status : null;
    });
    const companies = (
      await query<{ id: number }>(`SELECT id FROM companies WHERE country_code = 'US' ORDER BY id LIMIT 200`)
    ).map((r) => Number(r.id));
    const prospects = await query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT id FROM people WHERE company_id = ANY($1::bigint[]) ORDER BY id LIMIT 600) x`,
      [companies],
    );
    expect(built).toMatchObject({ numCompanies: 200, numProspects: prospects[0]?.n });
    const charges = await query<{ amount: number }>(
      `SELECT amount FROM credit_ledger WHERE account_id = $1 AND reference = $2`,
      [accountId, `audience:${id}`],
    );
    expect(charges).toEqual([{ amount: -(200 + (prospects[0]?.n as number)) }]);
    expect(await balance()).toBe(before - 200 - (prospects[0]?.n as number));
    const job = await finishedJob(
      query,
      `SELECT attempts, status FROM jobs WHERE kind = 'audience.build' AND payload->>'audienceId' = $1`,
      [id],
    );
    expect(job).toEqual([{ attempts: 2, status: 'succeeded' }]);

    // --- an enrichment killed in the middle of its contact step
    const options = {
      enrichmentType: { getWorkEmails: true, getPersonalEmails: false, getPhoneNumbers: true },
      runContactEnrichment: true,
      maxProspectsToEnrich: 500,
    };
    const estimate = await call('POST', `/v1/audiences/${id}/enrichment/estimate`, options);
    expect(estimate.prospectsToEnrich).toBe(500);
    expect(estimate.totalCredits).toBe(500 * 5);
    const beforeEnrichment = await balance();
    const run = await call('POST', `/v1/audiences/${id}/enrich`, options);
    expect(await balance()).toBe(beforeEnrichment - 2500);
    trace('waiting for the first batch of contact lookups');
    await waitFor(
      'the first batch of contact lookups',
      async () => {
        const status = await call('GET', `/v1/audiences/${id}/enrichment/status?apiKey=${apiKey}`);
        const step = (status.steps as Array<{ name: string; done: number }>).find(
          (s) => s.name === 'Fetching Contact Details',
        );
        return status.currentStep === 'Fetching Contact Details' && (step?.done ?? 0) > 0;
      },
      60_000,
    );
    await kill();
    const midway = await query<{ refunds: number }>(
      `SELECT count(*)::int AS refunds FROM credit_ledger WHERE account_id = $1 AND reference = $2 AND amount > 0`,
      [accountId, `enrichment:${run.enrichmentId}`],
    );
    expect(midway[0]?.refunds).toBeGreaterThan(0); // the first batch's refund committed before the kill

    await start();
    trace('waiting for DONE');
    const done = await waitFor(
      'DONE',
      async () => {
        const status = await call('GET', `/v1/audiences/${id}/enrichment/status?apiKey=${apiKey}`);
        return status.status === 'DONE' || status.status === 'FAILED' ? status : null;
      },
      60_000,
      100,
    );
    expect(done.status).toBe('DONE');

    // Exactly once: one charge, each refund key once, and the net cost is what was found.
    const ledger = await query<{ amount: number; idempotency_key: string }>(
      `SELECT amount, idempotency_key FROM credit_ledger WHERE account_id = $1 AND reference = $2 ORDER BY id`,
      [accountId, `enrichment:${run.enrichmentId}`],
    );
    expect(ledger.filter((e) => e.amount < 0)).toEqual([
      { amount: -2500, idempotency_key: `enrichment:${run.enrichmentId}:charge` },
    ]);
    expect(new Set(ledger.map((e) => e.idempotency_key)).size).toBe(ledger.length);
    const enrichedRows = await query<{ person_id: number; work_emails: string[]; phone_numbers: string[] }>(
      `SELECT person_id, work_emails, phone_numbers FROM audience_prospects WHERE account_id = $1 AND audience_id = $2 ORDER BY person_id LIMIT 500`,
      [accountId, id],
    );
    const enriched = enrichedRows.map((r) => Number(r.person_id));
    const found = [
      {
        work: enrichedRows.filter((r) => r.work_emails.length > 0).length,
        phone: enrichedRows.filter((r) => r.phone_numbers.length > 0).length,
      },
    ];
    // Whoever has a stored phone number got it (the waterfall asks the dataset first), and nobody else.
    const storedPhones = await query<{ n: number }>(
      `SELECT count(DISTINCT person_id)::int AS n FROM person_contacts WHERE kind = 'phone' AND person_id = ANY($1::bigint[])`,
      [enriched],
    );
    expect(found[0]?.phone).toBe(storedPhones[0]?.n);
    const delivered = (found[0]?.work as number) * 2 + (found[0]?.phone as number) * 3;
    expect(await balance()).toBe(beforeEnrichment - delivered);
    expect(done.refundedCredits).toBe(2500 - delivered);
    const enrichmentJob = await query<{ attempts: number }>(
      `SELECT attempts FROM jobs WHERE kind = 'audience.enrichment' AND payload->>'enrichmentId' = $1`,
      [run.enrichmentId],
    );
    expect(enrichmentJob).toEqual([{ attempts: 2 }]);

    // The records are intact: an export of the enriched prospects has every one of them once.
    const exported = await call('POST', `/v1/audiences/${id}/export/prospects`, { maxRowsToExport: 500 });
    trace('waiting for the export');
    const ready = await waitFor('the export', async () => {
      const status = await call('GET', `/v1/audiences/${id}/exports/${exported.exportId as string}?apiKey=${apiKey}`);
      return status.status === 'READY' ? status : null;
    });
    const csv = await (await fetch(ready.downloadUrl as string)).text();
    expect(parseCsv(csv).length).toBe(501);
    const rows = csvObjects(csv).rows;
    expect(rows.map((r) => Number(r.prospect_id))).toEqual(enriched);
    expect(rows.filter((r) => r.work_email !== '').length).toBe(found[0]?.work);
    await kill();
  }, 180_000);

  it('a batch contact task killed mid-way completes after a restart, each item charged once', async () => {
    await start();
    const people = await query<{ id: number; network_slug: string }>(
      `SELECT p.id, p.network_slug FROM people p
        WHERE NOT EXISTS (SELECT 1 FROM person_contacts c WHERE c.person_id = p.id AND c.kind = 'personal_email')
        ORDER BY p.id LIMIT 16`,
    );
    const before = await balance();
    const started = await call('POST', '/v1/contact-enrichment/batch', {
      profileUrls: people.map((p) => `https://network.example.com/in/${p.network_slug}`),
      enrichmentType: { getWorkEmails: false, getPersonalEmails: true, getPhoneNumbers: false },
    });
    const taskId = started.taskId as string;
    const processed = async () =>
      (
        await query<{ n: number }>(
          `SELECT count(*)::int AS n FROM contact_batch_items WHERE task_id = $1 AND status <> 'PENDING'`,
          [taskId],
        )
      )[0]?.n ?? 0;
    trace('waiting for the first items');
    await waitFor('the first items', async () => (await processed()) >= 2, 30_000, 20);
    await kill();
    const midway = await processed();
    expect(midway).toBeLessThan(16);

    await start();
    trace('waiting for DONE');
    await waitFor(
      'DONE',
      async () => {
        const rows = await query<{ status: string }>('SELECT status FROM contact_batch_tasks WHERE id = $1', [taskId]);
        return rows[0]?.status === 'DONE';
      },
      60_000,
      100,
    );
    const items = await query<{ item_index: number; status: string; credits_charged: number }>(
      'SELECT item_index, status, credits_charged FROM contact_batch_items WHERE task_id = $1 ORDER BY item_index',
      [taskId],
    );
    const even = people.map((p) => Number(p.id) % 2 === 0);
    expect(items.map((i) => i.status === 'FOUND')).toEqual(even);
    expect(items.map((i) => i.credits_charged)).toEqual(even.map((found) => (found ? 2 : 0)));
    const ledger = await query<{ idempotency_key: string; amount: number }>(
      `SELECT idempotency_key, amount FROM credit_ledger WHERE account_id = $1 AND reference = $2`,
      [accountId, `batch:${taskId}`],
    );
    const found = even.filter(Boolean).length;
    expect(ledger).toHaveLength(found);
    expect(new Set(ledger.map((e) => e.idempotency_key)).size).toBe(found);
    expect(await balance()).toBe(before - 2 * found);
    // One job, claimed by the killed process and again by the new one.
    const job = await finishedJob(
      query,
      `SELECT attempts, status FROM jobs WHERE kind = 'contacts.batch' AND payload->>'taskId' = $1`,
      [taskId],
    );
    expect(job).toEqual([{ attempts: 2, status: 'succeeded' }]);
    await kill();
  }, 120_000);

  async function storedStatus(id: string): Promise<{ status: string }> {
    const rows = await query<{ status: string }>('SELECT status FROM audiences WHERE account_id = $1 AND id = $2', [
      accountId,
      id,
    ]);
    return rows[0] as { status: string };
  }
});
