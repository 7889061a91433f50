import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/context.js';
import { completeItem } from '../../src/core/contacts/batch-items.js';
import { batchContactsJob, runBatchRound } from '../../src/core/contacts/batch-job.js';
import { enqueue } from '../../src/job-queue/queue.js';
import { ContactValidator, EmbeddedMailDomainChecker } from '../../src/core/contacts/validation.js';
import { ContactWaterfall } from '../../src/core/contacts/waterfall.js';
import { startJobWorker, type JobWorker } from '../../src/worker/index.js';
import { waitFor } from '../audiences/helpers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { startLocalServer, type LocalServer } from '../providers/local-server.js';

/**
 * Batch contact enrichment end to end. A task is a job of the one job worker; JOB_WORKER=false
 * keeps the worker the service would start itself out of the way: each test starts (and
 * stops) the workers it needs, each with its own claim size.
 */
let app: TestApp;
let vendorApp: TestApp;
let vendor: LocalServer;
const workers: JobWorker<AppContext>[] = [];

beforeAll(async () => {
  vendor = await startLocalServer();
  [app, vendorApp] = await Promise.all([
    startTestApp({ env: { JOB_WORKER: 'false' } }),
    startTestApp({
      env: { JOB_WORKER: 'false', CONTACT_PROVIDER_URL: vendor.url, CONTACT_PROVIDER_API_KEY: 'vendor-key' },
    }),
  ]);
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
});
afterAll(async () => {
  await Promise.all([app?.stop(), vendorApp?.stop()]);
  await vendor?.close();
});

/** A job worker of the app's own kind, on the app's context with these batch settings (and services, when given). */
function startWorker(
  target: TestApp,
  options: { claimSize: number; retryBaseMs?: number; services?: Partial<AppContext['services']> },
): JobWorker<AppContext> {
  const base = target.service.context;
  const context: AppContext = {
    ...base,
    services: { ...base.services, ...options.services },
    // Several jobs of one account may run at once here, so that two runs of one task can meet.
    config: {
      ...base.config,
      JOB_POLL_INTERVAL_MS: 20,
      JOB_RETRY_BASE_MS: options.retryBaseMs ?? base.config.JOB_RETRY_BASE_MS,
      CONTACT_BATCH_CLAIM_SIZE: options.claimSize,
      jobMaxRunningPerAccount: 8,
    },
  };
  const worker = startJobWorker(context);
  workers.push(worker);
  return worker;
}

async function jobOf(
  target: TestApp,
  taskId: string,
): Promise<Array<{ status: string; attempts: number; locked_by: string | null }>> {
  const rows = await target.db.pool.query<{ status: string; attempts: number; locked_by: string | null }>(
    `SELECT status, attempts, locked_by FROM jobs WHERE kind = 'contacts.batch' AND payload->>'taskId' = $1 ORDER BY id`,
    [taskId],
  );
  return rows.rows;
}

interface Person {
  id: number;
  network_slug: string;
  network_user_id: number;
}

async function peopleWhere(target: TestApp, condition: string, limit: number, offset = 0): Promise<Person[]> {
  const rows = await target.db.pool.query<Person>(
    `SELECT p.id, p.network_slug, p.network_user_id FROM people p WHERE ${condition} ORDER BY p.id OFFSET ${offset} LIMIT ${limit}`,
  );
  expect(rows.rows).toHaveLength(limit);
  return rows.rows;
}
const has = (kind: string) =>
  `EXISTS (SELECT 1 FROM person_contacts c WHERE c.person_id = p.id AND c.kind = '${kind}')`;
const lacks = (kind: string) => `NOT ${has(kind)}`;
const url = (slug: string) => `https://network.example.com/in/${slug}`;

async function balanceOf(target: TestApp, apiKey: string): Promise<number> {
  return (await target.request('GET', `/v1/credits?apiKey=${encodeURIComponent(apiKey)}`)).body.output.balance;
}

const submit = (target: TestApp, apiKey: string, profileUrls: string[], enrichmentType: Record<string, boolean>) =>
  target.request('POST', '/v1/contact-enrichment/batch', { apiKey, profileUrls, enrichmentType });

const poll = (target: TestApp, apiKey: string, taskId: string, query = '') =>
  target.request('GET', `/v1/contact-enrichment/batch/${taskId}?apiKey=${encodeURIComponent(apiKey)}${query}`);

/** Waits on the database (polling the API that often would meet its rate limit), then reads the task through the API. */
async function waitForStatus(
  target: TestApp,
  apiKey: string,
  taskId: string,
  statuses: string[],
  timeoutMs = 20_000,
): Promise<Record<string, unknown>> {
  await waitFor(
    `task ${taskId} to be ${statuses.join(' or ')}`,
    async () => {
      const row = await target.db.pool.query<{ status: string }>(
        'SELECT status FROM contact_batch_tasks WHERE id = $1',
        [taskId],
      );
      return statuses.includes(row.rows[0]?.status ?? '');
    },
    timeoutMs,
    25,
  );
  const response = await poll(target, apiKey, taskId);
  expect(response.status).toBe(200);
  expect(statuses).toContain(response.body.output.status);
  return response.body.output;
}

async function processedCount(target: TestApp, taskId: string): Promise<number> {
  const row = await target.db.pool.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM contact_batch_items WHERE task_id = $1 AND status <> 'PENDING'",
    [taskId],
  );
  return row.rows[0]?.n ?? 0;
}

interface ItemResult {
  profileUrl: string;
  status: string;
  workEmails: string[];
  personalEmails: string[];
  phoneNumbers: string[];
  creditsCharged: number;
  reason: string | null;
}

async function allPages(
  target: TestApp,
  apiKey: string,
  taskId: string,
  pageSize: number,
): Promise<{ items: ItemResult[]; pages: number }> {
  const items: ItemResult[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const response = await poll(
      target,
      apiKey,
      taskId,
      `&pageSize=${pageSize}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(response.status).toBe(200);
    expect(response.body.output.pageResults.length).toBeLessThanOrEqual(pageSize);
    items.push(...response.body.output.pageResults);
    cursor = response.body.output.nextCursor;
    pages++;
  } while (cursor);
  return { items, pages };
}

const priceOf = (item: ItemResult, types: { work?: boolean; personal?: boolean; phone?: boolean }) =>
  (types.work && item.workEmails.length ? 2 : 0) +
  (types.personal && item.personalEmails.length ? 2 : 0) +
  (types.phone && item.phoneNumbers.length ? 3 : 0);

describe('batch contact enrichment end to end', () => {
  it('runs QUEUED → RUNNING → DONE, pages results in submission order, and charges each item once, per type found', async () => {
    const account = await app.createAccount({ credits: 1000 });
    const withPhones = await peopleWhere(app, has('phone'), 10);
    const withoutPhones = await peopleWhere(app, lacks('phone'), 10);
    const profileUrls = [
      ...withPhones.map((p) => url(p.network_slug)),
      url('nobody-here-0000'),
      ...withoutPhones.map((p, i) => (i % 2 ? p.network_slug : String(p.network_user_id))),
      // The same person again, as a URN: looked up and charged once.
      `urn:li:fs_salesProfile:(${withPhones[0]?.network_user_id},NAME,x)`,
    ];
    const types = { getWorkEmails: true, getPersonalEmails: false, getPhoneNumbers: true };
    const started = await submit(app, account.apiKey, profileUrls, types);
    expect(started.status).toBe(202);
    expect(started.body.chargeInfo.method).toBe('charging-later');
    expect(started.body.output).toMatchObject({ status: 'QUEUED', totalProfiles: 22, maxCredits: 20 * 5 });
    const taskId: string = started.body.output.taskId;
    expect(taskId).toMatch(/^\d+$/);

    const queued = await poll(app, account.apiKey, taskId);
    expect(queued.body.output.status).toBe('QUEUED');
    expect(queued.body.output.overallStats).toEqual({
      total: 22,
      processed: 1,
      found: 0,
      notFound: 1,
      creditsCharged: 0,
    });
    expect(await balanceOf(app, account.apiKey)).toBe(1000);

    startWorker(app, { claimSize: 4 });
    const done = await waitForStatus(app, account.apiKey, taskId, ['DONE']);
    expect(done.failureReason).toBeNull();

    const { items, pages } = await allPages(app, account.apiKey, taskId, 5);
    expect(pages).toBe(5);
    expect(items.map((i) => i.profileUrl)).toEqual(profileUrls);
    const unknown = items[10] as ItemResult;
    expect(unknown).toMatchObject({
      status: 'NOT_FOUND',
      creditsCharged: 0,
      reason: 'profile not found',
      workEmails: [],
    });
    for (const item of items.slice(0, 10)) {
      expect(item.status).toBe('FOUND');
      expect(item.phoneNumbers.length).toBeGreaterThan(0);
    }
    for (const item of items.slice(11, 21)) expect(item.phoneNumbers).toEqual([]);
    for (const item of items.slice(0, 21)) {
      if (item.status !== 'NOT_FOUND') expect(item.creditsCharged).toBe(priceOf(item, { work: true, phone: true }));
    }
    const repeat = items[21] as ItemResult;
    expect(repeat).toMatchObject({
      status: 'FOUND',
      creditsCharged: 0,
      workEmails: items[0]?.workEmails,
      phoneNumbers: items[0]?.phoneNumbers,
    });
    expect(repeat.reason).toMatch(/profileUrls\[0\]/);

    const total = items.reduce((sum, i) => sum + i.creditsCharged, 0);
    expect(total).toBeGreaterThan(10 * 3);
    const final = await poll(app, account.apiKey, taskId);
    expect(final.body.output.overallStats).toEqual({
      total: 22,
      processed: 22,
      found: items.filter((i) => i.status === 'FOUND').length,
      notFound: items.filter((i) => i.status === 'NOT_FOUND').length,
      creditsCharged: total,
    });
    expect(await balanceOf(app, account.apiKey)).toBe(1000 - total);
    const ledger = await app.db.pool.query<{ idempotency_key: string; amount: number; unit: string }>(
      'SELECT idempotency_key, amount, unit FROM credit_ledger WHERE account_id = $1 AND amount < 0 ORDER BY id',
      [account.accountId],
    );
    expect(ledger.rows.reduce((sum, r) => sum - r.amount, 0)).toBe(total);
    expect(
      ledger.rows.every((r) => r.unit === 'revealContact' && r.idempotency_key.startsWith(`batch:${taskId}:`)),
    ).toBe(true);
    expect(new Set(ledger.rows.map((r) => r.idempotency_key)).size).toBe(ledger.rows.length);
  });

  it('keeps the cursor opaque and bound to its task', async () => {
    const people = await peopleWhere(app, 'true', 6, 100);
    const first = await submit(
      app,
      app.apiKey,
      people.map((p) => url(p.network_slug)),
      { getWorkEmails: true },
    );
    const second = await submit(
      app,
      app.apiKey,
      people.map((p) => url(p.network_slug)),
      { getWorkEmails: true },
    );
    const page = await poll(app, app.apiKey, first.body.output.taskId, '&pageSize=2');
    expect(page.body.output.pageResults).toHaveLength(2);
    expect(page.body.output.pageResults.map((r: ItemResult) => r.status)).toEqual(['PENDING', 'PENDING']);
    const cursor: string = page.body.output.nextCursor;
    // Opaque and safe in a URL (unreserved characters only): signed payload, a dot, its signature.
    expect(cursor).toMatch(/^[A-Za-z0-9_.-]+$/);
    const elsewhere = await poll(app, app.apiKey, second.body.output.taskId, `&pageSize=2&cursor=${cursor}`);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error.code).toBe('cursor_mismatch');
    const garbage = await poll(app, app.apiKey, first.body.output.taskId, '&cursor=not-a-cursor');
    expect(garbage.status).toBe(400);
    expect(garbage.body.error.details.issues[0].field).toBe('cursor');
    const badSize = await poll(app, app.apiKey, first.body.output.taskId, '&pageSize=1001');
    expect(badSize.status).toBe(400);
    expect(badSize.body.error.details.issues[0].field).toBe('pageSize');
  });

  it("answers 404 for another account's task and for a task that does not exist", async () => {
    const owner = await app.createAccount({ credits: 100 });
    const other = await app.createAccount({ credits: 100 });
    const people = await peopleWhere(app, 'true', 1, 200);
    const started = await submit(app, owner.apiKey, [url(people[0]?.network_slug as string)], { getWorkEmails: true });
    expect((await poll(app, owner.apiKey, started.body.output.taskId)).status).toBe(200);
    const foreign = await poll(app, other.apiKey, started.body.output.taskId);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    expect((await poll(app, owner.apiKey, '987654321')).status).toBe(404);
    expect((await poll(app, owner.apiKey, 'abc')).status).toBe(400);
  });

  it('refuses invalid submissions with a 400 naming the field, creating nothing', async () => {
    const account = await app.createAccount({ credits: 100 });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ profileUrls: [], enrichmentType: { getWorkEmails: true } }, 'profileUrls'],
      [
        { profileUrls: Array.from({ length: 1001 }, (_, i) => `p-${i}`), enrichmentType: { getWorkEmails: true } },
        'profileUrls',
      ],
      [
        {
          profileUrls: ['jane', 'john', 'https://network.example.com/company/acme'],
          enrichmentType: { getWorkEmails: true },
        },
        'profileUrls.2',
      ],
      [{ profileUrls: ['jane', 7], enrichmentType: { getWorkEmails: true } }, 'profileUrls.1'],
      [{ profileUrls: ['jane'], enrichmentType: {} }, 'enrichmentType'],
      [{ profileUrls: ['jane'] }, 'enrichmentType'],
    ];
    for (const [body, field] of cases) {
      const response = await app.request('POST', '/v1/contact-enrichment/batch', { apiKey: account.apiKey, ...body });
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.body.error.details.issues.map((i: { field: string }) => i.field)).toContain(field);
    }
    const tasks = await app.db.pool.query('SELECT count(*)::int AS n FROM contact_batch_tasks WHERE account_id = $1', [
      account.accountId,
    ]);
    expect(tasks.rows[0]?.n).toBe(0);
  });

  it('refuses with 402 when the balance cannot pay for even one profile', async () => {
    const account = await app.createAccount({ credits: 4 });
    const people = await peopleWhere(app, 'true', 2, 300);
    const response = await submit(
      app,
      account.apiKey,
      people.map((p) => url(p.network_slug)),
      { getWorkEmails: true, getPhoneNumbers: true },
    );
    expect(response.status).toBe(402);
    expect(response.body.error.details).toEqual({ required: 5, balance: 4 });
    const tasks = await app.db.pool.query('SELECT count(*)::int AS n FROM contact_batch_tasks WHERE account_id = $1', [
      account.accountId,
    ]);
    expect(tasks.rows[0]?.n).toBe(0);
    // One profile's worth is enough to start.
    expect(
      (
        await submit(
          app,
          account.apiKey,
          people.map((p) => url(p.network_slug)),
          { getWorkEmails: true },
        )
      ).status,
    ).toBe(202);
  });

  it('stops with FAILED when the balance runs out, withholding what it cannot charge, never going negative', async () => {
    const account = await app.createAccount({ credits: 7 });
    const people = await peopleWhere(app, has('work_email'), 8, 400);
    const started = await submit(
      app,
      account.apiKey,
      people.map((p) => url(p.network_slug)),
      { getWorkEmails: true },
    );
    expect(started.body.output.maxCredits).toBe(16);
    startWorker(app, { claimSize: 100 });
    const failed = await waitForStatus(app, account.apiKey, started.body.output.taskId, ['FAILED', 'DONE']);
    expect(failed.status).toBe('FAILED');
    expect(failed.failureReason).toMatch(/profileUrls\[3\].*insufficient credits/);
    const { items } = await allPages(app, account.apiKey, started.body.output.taskId, 100);
    expect(items.slice(0, 3).map((i) => [i.status, i.creditsCharged])).toEqual([
      ['FOUND', 2],
      ['FOUND', 2],
      ['FOUND', 2],
    ]);
    expect(items[3]).toMatchObject({ status: 'NOT_FOUND', creditsCharged: 0, workEmails: [] });
    expect(items[3]?.reason).toMatch(/cost 2 and the balance was 1; contacts withheld/);
    for (const item of items.slice(4))
      expect(item).toMatchObject({
        status: 'NOT_FOUND',
        creditsCharged: 0,
        reason: expect.stringMatching(/job stopped/),
      });
    expect(failed.overallStats).toEqual({ total: 8, processed: 8, found: 3, notFound: 5, creditsCharged: 6 });
    expect(await balanceOf(app, account.apiKey)).toBe(1);
  });
});

describe('a batch contact job that cannot run', () => {
  it('ends its task FAILED, charging nothing, once the job has failed on every attempt', async () => {
    const account = await app.createAccount({ credits: 100 });
    const people = await peopleWhere(app, has('work_email'), 3, 500);
    const started = await submit(
      app,
      account.apiKey,
      people.map((p) => url(p.network_slug)),
      { getWorkEmails: true },
    );
    const taskId: string = started.body.output.taskId;
    // The lookup itself fails (as a database outage would), on every attempt.
    class UnreachableWaterfall extends ContactWaterfall {
      override async reveal(): Promise<never> {
        throw new Error('contact store unreachable');
      }
    }
    const broken = new UnreachableWaterfall([], new ContactValidator(new EmbeddedMailDomainChecker()));
    startWorker(app, { claimSize: 10, retryBaseMs: 10, services: { contactWaterfall: broken } });
    const failed = await waitForStatus(app, account.apiKey, taskId, ['FAILED', 'DONE']);
    expect(failed.status).toBe('FAILED');
    expect(failed.failureReason).toMatch(/repeated internal errors \(contact store unreachable\)/);
    const { items } = await allPages(app, account.apiKey, taskId, 10);
    expect(items.map((i) => [i.status, i.creditsCharged, i.reason])).toEqual(
      Array.from({ length: 3 }, () => [
        'NOT_FOUND',
        0,
        'not processed: the job stopped after repeated internal errors; nothing charged',
      ]),
    );
    expect(await jobOf(app, taskId)).toEqual([{ status: 'failed', attempts: 5, locked_by: null }]);
    expect(await balanceOf(app, account.apiKey)).toBe(100);
  });
});

describe('durability of batch contact jobs', () => {
  /** People without a personal email in the dataset: the vendor is asked about each of them. */
  async function vendorBatch(
    count: number,
    offset: number,
  ): Promise<{ apiKey: string; accountId: number; taskId: string; people: Person[] }> {
    const account = await vendorApp.createAccount({ credits: 1000 });
    const people = await peopleWhere(vendorApp, lacks('personal_email'), count, offset);
    const started = await submit(
      vendorApp,
      account.apiKey,
      people.map((p) => url(p.network_slug)),
      { getPersonalEmails: true },
    );
    expect(started.status).toBe(202);
    return { ...account, taskId: started.body.output.taskId, people };
  }

  /** The vendor knows a personal email for people with an even id, and answers slowly. */
  function slowVendor(delayMs: number): void {
    vendor.handler = (request) => {
      const asked = (request.body as { people: Array<{ ref: string }> }).people;
      return {
        status: 200,
        delayMs,
        json: {
          results: asked
            .filter((p) => Number(p.ref) % 2 === 0)
            .map((p) => ({ ref: p.ref, personal_emails: [`p${p.ref}@mail-provider-test.com`] })),
        },
      };
    };
  }

  async function expectChargedOnce(accountId: number, apiKey: string, taskId: string, people: Person[]): Promise<void> {
    const { items } = await allPages(vendorApp, apiKey, taskId, 1000);
    const expectedFound = people.map((p) => p.id % 2 === 0);
    expect(items.map((i) => i.status === 'FOUND')).toEqual(expectedFound);
    for (const [index, item] of items.entries()) {
      const person = people[index] as Person;
      expect(item.personalEmails).toEqual(person.id % 2 === 0 ? [`p${person.id}@mail-provider-test.com`] : []);
      expect(item.creditsCharged).toBe(person.id % 2 === 0 ? 2 : 0);
    }
    const found = expectedFound.filter(Boolean).length;
    const ledger = await vendorApp.db.pool.query<{ idempotency_key: string; amount: number }>(
      'SELECT idempotency_key, amount FROM credit_ledger WHERE account_id = $1 AND amount < 0',
      [accountId],
    );
    expect(ledger.rows).toHaveLength(found);
    expect(new Set(ledger.rows.map((r) => r.idempotency_key)).size).toBe(found);
    expect(await balanceOf(vendorApp, apiKey)).toBe(1000 - 2 * found);
  }

  it('survives a worker stopped mid-way: a new worker finishes the job and each item is charged once', async () => {
    slowVendor(150);
    const job = await vendorBatch(12, 0);
    const first = startWorker(vendorApp, { claimSize: 2 });
    await waitFor('two items processed', async () => (await processedCount(vendorApp, job.taskId)) >= 2, 15_000, 20);
    // Any request the worker sends from now on would hang until the stop aborts it, so the task is surely mid-way when it
    // stops, however slow the machine: at 150 ms a request, a loaded CI machine once let it finish all twelve first.
    slowVendor(60_000);
    await first.stop();
    const halfway = (await poll(vendorApp, job.apiKey, job.taskId)).body.output;
    expect(halfway.status).toBe('RUNNING');
    expect(halfway.overallStats.processed).toBeGreaterThanOrEqual(2);
    expect(halfway.overallStats.processed).toBeLessThan(12);
    const leased = await vendorApp.db.pool.query(
      'SELECT count(*)::int AS n FROM contact_batch_items WHERE task_id = $1 AND lease_owner IS NOT NULL',
      [job.taskId],
    );
    expect(leased.rows[0]?.n).toBe(0);
    // Handed back to the queue, the stop not counted as an attempt: nothing holds it while no worker runs.
    expect(await jobOf(vendorApp, job.taskId)).toEqual([{ status: 'queued', attempts: 0, locked_by: null }]);
    expect(await processedCount(vendorApp, job.taskId)).toBe(halfway.overallStats.processed);

    slowVendor(5);
    startWorker(vendorApp, { claimSize: 2 });
    await waitForStatus(vendorApp, job.apiKey, job.taskId, ['DONE']);
    await expectChargedOnce(job.accountId, job.apiKey, job.taskId, job.people);
    expect(vendor.requests.at(-1)?.headers.authorization).toBe('Bearer vendor-key');
  });

  it("aborts the vendor request in flight when stopped, instead of waiting for the vendor's answer", async () => {
    // The vendor would answer after 10 s, beyond CONTACT_PROVIDER_TIMEOUT_MS (8 s): only an abort ends the request sooner.
    slowVendor(10_000);
    const job = await vendorBatch(4, 300);
    const asked = vendor.requests.length;
    const worker = startWorker(vendorApp, { claimSize: 4 });
    await waitFor('the vendor request', async () => vendor.requests.length > asked, 15_000, 20);
    const stopping = Date.now();
    await worker.stop();
    expect(Date.now() - stopping).toBeLessThan(2000);
    // Nothing completed, nothing charged, the items handed back with the stop not counted as a claim.
    const items = await vendorApp.db.pool.query<{ status: string; attempts: number; lease_owner: string | null }>(
      'SELECT status, attempts, lease_owner FROM contact_batch_items WHERE task_id = $1',
      [job.taskId],
    );
    expect(items.rows.map((r) => [r.status, r.attempts, r.lease_owner])).toEqual(
      Array.from({ length: 4 }, () => ['PENDING', 0, null]),
    );
    expect(await jobOf(vendorApp, job.taskId)).toEqual([{ status: 'queued', attempts: 0, locked_by: null }]);
    expect(await balanceOf(vendorApp, job.apiKey)).toBe(1000);

    slowVendor(0);
    startWorker(vendorApp, { claimSize: 4 });
    await waitForStatus(vendorApp, job.apiKey, job.taskId, ['DONE']);
    await expectChargedOnce(job.accountId, job.apiKey, job.taskId, job.people);
  });

  it('claims again the items of a worker that died once their lease runs out, and not before', async () => {
    slowVendor(0);
    const job = await vendorBatch(6, 50);
    // A worker that claimed everything and died: its lease still runs for a moment.
    const dead = await vendorApp.db.pool.query<{ lease_expires_at: Date }>(
      `UPDATE contact_batch_items SET lease_owner = 'dead-worker', lease_expires_at = now() + interval '1 second', attempts = 1
        WHERE task_id = $1 AND status = 'PENDING' RETURNING lease_expires_at`,
      [job.taskId],
    );
    const leaseEnd = Math.max(...dead.rows.map((r) => r.lease_expires_at.getTime()));
    startWorker(vendorApp, { claimSize: 10 });
    await waitForStatus(vendorApp, job.apiKey, job.taskId, ['DONE']);
    const items = await vendorApp.db.pool.query<{ attempts: number; completed_at: Date }>(
      'SELECT attempts, completed_at FROM contact_batch_items WHERE task_id = $1',
      [job.taskId],
    );
    expect(items.rows.every((r) => r.attempts === 2)).toBe(true);
    // Not before: every item completed after the dead worker's lease ran out.
    expect(Math.min(...items.rows.map((r) => r.completed_at.getTime()))).toBeGreaterThanOrEqual(leaseEnd);
    // The job waited in the queue, not on a worker, and its wait was not an attempt. The task says DONE before its job's
    // row is marked succeeded (the worker marks it when the handler returns), so the row is waited for.
    await expect
      .poll(() => jobOf(vendorApp, job.taskId), { timeout: 10_000, interval: 20 })
      .toEqual([{ status: 'succeeded', attempts: 1, locked_by: null }]);
    await expectChargedOnce(job.accountId, job.apiKey, job.taskId, job.people);
  });

  it('shares one task between concurrent runs of its job without processing or charging an item twice', async () => {
    slowVendor(20);
    const job = await vendorBatch(30, 100);
    // A second job of the same task (as a lease taken over from a stalled worker would be): both run at once.
    await enqueue(vendorApp.db.pool, batchContactsJob, {
      accountId: job.accountId,
      payload: { taskId: Number(job.taskId) },
    });
    for (let i = 0; i < 3; i++) startWorker(vendorApp, { claimSize: 3 });
    await waitForStatus(vendorApp, job.apiKey, job.taskId, ['DONE']);
    await expectChargedOnce(job.accountId, job.apiKey, job.taskId, job.people);
    const owners = await vendorApp.db.pool.query<{ attempts: number }>(
      'SELECT attempts FROM contact_batch_items WHERE task_id = $1',
      [job.taskId],
    );
    expect(owners.rows.every((r) => r.attempts === 1)).toBe(true);
  });

  it('completes an item once even when two workers finish it (an expired lease taken over)', async () => {
    slowVendor(0);
    const job = await vendorBatch(2, 200);
    const item = { accountId: job.accountId, taskId: Number(job.taskId), itemIndex: 0 };
    const found = { workEmails: [], personalEmails: ['late@mail-provider-test.com'], phoneNumbers: [] };
    const results = await Promise.all([
      vendorApp.db.transaction((tx) => completeItem(tx, item, { kind: 'looked-up', found })),
      vendorApp.db.transaction((tx) => completeItem(tx, item, { kind: 'looked-up', found })),
    ]);
    expect(results.sort()).toEqual([false, true]);
    const ledger = await vendorApp.db.pool.query(
      'SELECT amount FROM credit_ledger WHERE account_id = $1 AND amount < 0',
      [job.accountId],
    );
    expect(ledger.rows).toEqual([{ amount: -2 }]);
    // The other item is still there for a worker, driven here one round at a time.
    const claimed = await runBatchRound(
      vendorApp.service.context,
      { accountId: job.accountId, taskId: Number(job.taskId) },
      { claimSize: 10, leaseSeconds: 30, owner: 'test-round' },
    );
    expect(claimed).toBeGreaterThanOrEqual(1);
    await waitForStatus(vendorApp, job.apiKey, job.taskId, ['DONE']);
  });
});
