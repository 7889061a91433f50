import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createAccount } from '../../src/core/accounts.js';
import { createLogger } from '../../src/log.js';
import { openDatabase } from '../../src/store/db.js';
import { arg, openBenchDatabase, round } from '../lib.js';
import { startServiceProcess, type ServiceProcess } from './service-process.js';
import { freePort } from '../free-port.js';

/**
 * The service killed with SIGKILL at random points while it runs builds, enrichments, exports,
 * batch contact jobs and saved-search runs, and started again on the same database and data
 * folder, many times over. When everything has settled: no job stuck, every charge in the ledger
 * once (double charges), every export readable with all its rows (lost exports), the ledger's sum
 * equal to the balance. JOB_STEP_DELAY_MS and a slow contact vendor stretch the jobs so that the
 * kills land inside them; short leases let a new process take a dead one's jobs quickly.
 *
 * Each kind of work is a `Workload`: it starts one piece of work a round and, at the end, checks
 * what that work left. A new kind of background work gets a workload here.
 */
const reduced = process.argv.includes('--ci');
const kills = Number(arg('kills', reduced ? '6' : '20'));
const seed = Number(arg('seed', String(Math.floor(Math.random() * 2 ** 31))));
const random = mulberry32(seed);
const log = createLogger('warn');

const database = await openBenchDatabase({ name: 'restarts', companies: 3000, people: 30_000, reuse: false, log });
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pds-rel-restarts-'));
const port = await freePort();
const vendor = await slowContactVendor();
const db = openDatabase(database.url, 3);
const baseEnv: Record<string, string> = {
  DATABASE_URL: database.url,
  PORT: String(port),
  DEMO_CREDITS: '0',
  JOB_POLL_INTERVAL_MS: '50',
  JOB_CONCURRENCY: '4',
  JOB_MAX_RUNNING_PER_ACCOUNT: '4',
  JOB_RETRY_BASE_MS: '500',
  CONTACT_PROVIDER_URL: vendor.url,
  RATE_LIMIT_SEARCH_PER_MINUTE: '1000000',
  RATE_LIMIT_HEAVY_PER_MINUTE: '1000000',
  RATE_LIMIT_STANDARD_PER_MINUTE: '1000000',
  RATE_LIMIT_STATUS_PER_MINUTE: '1000000',
};
/** While the kills go on: jobs slowed to seconds, leases of 2 s so that a restarted process takes them back quickly. */
const killEnv: Record<string, string> = {
  ...baseEnv,
  JOB_STEP_DELAY_MS: '150',
  JOB_LEASE_SECONDS: '2',
  CONTACT_BATCH_LEASE_SECONDS: '2',
  CONTACT_BATCH_CLAIM_SIZE: '3',
};

let service: ServiceProcess = await startServiceProcess(baseEnv, dataDir);
const account = await createAccount(db, { name: 'restarts', plan: 'pro', initialCredits: 10_000_000 });
const apiKey = account.apiKey;

// The outputs of many operations, read field by field as each check needs.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Output = Record<string, any>;

async function call(method: string, pathAndQuery: string, body?: Record<string, unknown>): Promise<Output> {
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await fetch(`${service.url}${pathAndQuery}`, {
        method,
        headers: { 'x-api-key': apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const parsed = (await response.json()) as { output: Output };
      if (response.status >= 300)
        throw new Error(`${method} ${pathAndQuery}: ${response.status} ${JSON.stringify(parsed)}`);
      return parsed.output;
    } catch (error) {
      // A call that met the kill: the same call again once the service is back (each starts new work, and was not answered).
      if (
        attempt > 50 ||
        !/fetch failed|ECONNREFUSED|ECONNRESET|other side closed/.test(String((error as Error).cause ?? error))
      )
        throw error;
      await sleep(200);
    }
  }
}

interface Workload {
  kind: string;
  /** Its kind in the job table. */
  jobKind: string;
  /** Made before the kills begin (audiences to enrich or export, saved searches): one per round. */
  prepare(rounds: number): Promise<void>;
  start(round: number): Promise<void>;
  /** What is wrong with the work it started, once everything settled: one line per fault, by fault kind. */
  check(): Promise<{ doubleCharges: string[]; lost: string[] }>;
}

const noFaults = () => ({ doubleCharges: [] as string[], lost: [] as string[] });

async function builtAudiences(
  count: number,
  name: string,
  caps = { maxCompanies: 10, maxProspects: 40 },
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = await call('POST', '/v1/audiences/create', { name: `${name} ${i}` });
    const id = created.audienceId as string;
    await call('PATCH', `/v1/audiences/${id}/search-params`, { companySearchParams: {}, ...caps });
    await call('POST', `/v1/audiences/${id}/build`, {});
    ids.push(id);
  }
  for (const id of ids) {
    await waitUntil(
      `audience ${id} to build`,
      async () => (await call('GET', `/v1/audiences/${id}`)).status === 'NORMAL',
      120_000,
    );
  }
  return ids;
}

const ledgerOf = async (reference: string) =>
  (
    await db.pool.query<{ amount: number; idempotency_key: string | null }>(
      'SELECT amount, idempotency_key FROM credit_ledger WHERE account_id = $1 AND reference = $2',
      [account.account.id, reference],
    )
  ).rows;

const builds: Workload = (() => {
  const started: string[] = [];
  return {
    kind: 'audience builds',
    jobKind: 'audience.build',
    prepare: async () => undefined,
    start: async (roundNumber) => {
      const created = await call('POST', '/v1/audiences/create', { name: `Killed build ${roundNumber}` });
      const id = created.audienceId as string;
      await call('PATCH', `/v1/audiences/${id}/search-params`, {
        companySearchParams: {},
        maxCompanies: 600,
        maxProspects: 3000,
      });
      await call('POST', `/v1/audiences/${id}/build`, {});
      started.push(id);
    },
    check: async () => {
      const faults = noFaults();
      for (const id of started) {
        const status = await call('GET', `/v1/audiences/${id}`);
        const charges = (await ledgerOf(`audience:${id}`)).filter((e) => e.amount < 0);
        if (status.status !== 'NORMAL')
          faults.lost.push(`build of audience ${id} ended ${status.status}: ${status.failureReason ?? ''}`);
        if (charges.length > 1) faults.doubleCharges.push(`audience ${id} charged ${charges.length} times`);
        const expected = (status.numCompanies as number) + (status.numProspects as number);
        if (status.status === 'NORMAL' && -(charges[0]?.amount ?? 0) !== expected)
          faults.doubleCharges.push(`audience ${id} charged ${JSON.stringify(charges)} for ${expected} records`);
      }
      return faults;
    },
  };
})();

const enrichments: Workload = (() => {
  let audiences: string[] = [];
  const started: Array<{ audienceId: string; enrichmentId: string; estimate: number }> = [];
  const options = {
    runContactEnrichment: true,
    runProfileSalesNav: true,
    enrichmentType: { getWorkEmails: true, getPersonalEmails: true, getPhoneNumbers: false },
  };
  return {
    kind: 'enrichments',
    jobKind: 'audience.enrichment',
    prepare: async (rounds) => {
      audiences = await builtAudiences(rounds + 1, 'To enrich');
    },
    start: async (roundNumber) => {
      const audienceId = audiences[roundNumber] as string;
      const estimate = await call('POST', `/v1/audiences/${audienceId}/enrichment/estimate`, options);
      const run = await call('POST', `/v1/audiences/${audienceId}/enrich`, options);
      started.push({ audienceId, enrichmentId: run.enrichmentId as string, estimate: estimate.totalCredits as number });
    },
    check: async () => {
      const faults = noFaults();
      for (const run of started) {
        const status = await call('GET', `/v1/audiences/${run.audienceId}/enrichment/status`);
        if (status.status !== 'DONE')
          faults.lost.push(`enrichment ${run.enrichmentId} ended ${status.status}: ${status.failureReason ?? ''}`);
        const entries = await ledgerOf(`enrichment:${run.enrichmentId}`);
        const charges = entries.filter((e) => e.amount < 0);
        const net = -entries.reduce((sum, e) => sum + e.amount, 0);
        if (charges.length !== 1)
          faults.doubleCharges.push(`enrichment ${run.enrichmentId} charged ${charges.length} times`);
        if (new Set(entries.map((e) => e.idempotency_key)).size !== entries.length)
          faults.doubleCharges.push(`enrichment ${run.enrichmentId}: a ledger key twice`);
        if (net > run.estimate || net < 0)
          faults.doubleCharges.push(`enrichment ${run.enrichmentId} cost ${net}, estimate ${run.estimate}`);
      }
      return faults;
    },
  };
})();

const exportsWorkload: Workload = (() => {
  let audiences: string[] = [];
  const started: Array<{ audienceId: string; exportId: string; expectedRows: number }> = [];
  return {
    kind: 'exports',
    jobKind: 'audience.export',
    prepare: async (rounds) => {
      audiences = await builtAudiences(Math.max(1, Math.ceil(rounds / 4)), 'To export', {
        maxCompanies: 1000,
        maxProspects: 4000,
      });
    },
    start: async (roundNumber) => {
      const audienceId = audiences[roundNumber % audiences.length] as string;
      const kind = roundNumber % 2 ? 'companies' : 'prospects';
      const accepted = await call('POST', `/v1/audiences/${audienceId}/export/${kind}`, {});
      started.push({
        audienceId,
        exportId: accepted.exportId as string,
        expectedRows: accepted.estimatedRows as number,
      });
    },
    check: async () => {
      const faults = noFaults();
      for (const item of started) {
        const status = await call('GET', `/v1/audiences/${item.audienceId}/exports/${item.exportId}`);
        if (status.status !== 'READY' || typeof status.downloadUrl !== 'string') {
          faults.lost.push(`export ${item.exportId} ended ${status.status}: ${status.failureReason ?? ''}`);
          continue;
        }
        const file = await fetch(status.downloadUrl as string);
        const lines = (await file.text()).split('\r\n').filter(Boolean).length - 1;
        if (file.status !== 200 || lines !== item.expectedRows)
          faults.lost.push(`export ${item.exportId}: ${file.status}, ${lines} rows of ${item.expectedRows}`);
      }
      return faults;
    },
  };
})();

const batches: Workload = (() => {
  let profiles: string[] = [];
  const started: string[] = [];
  return {
    kind: 'batch contact jobs',
    jobKind: 'contacts.batch',
    prepare: async () => {
      const rows = await db.pool.query<{ network_slug: string }>(
        `SELECT network_slug FROM people p WHERE network_slug IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM person_contacts c WHERE c.person_id = p.id AND c.kind = 'personal_email') ORDER BY id LIMIT 2000`,
      );
      profiles = rows.rows.map((r) => r.network_slug);
    },
    start: async (roundNumber) => {
      const slice = profiles.slice(roundNumber * 15, roundNumber * 15 + 15);
      const task = await call('POST', '/v1/contact-enrichment/batch', {
        profileUrls: slice,
        enrichmentType: { getWorkEmails: false, getPersonalEmails: true, getPhoneNumbers: false },
      });
      started.push(task.taskId as string);
    },
    check: async () => {
      const faults = noFaults();
      for (const taskId of started) {
        const task = await db.pool.query<{ status: string }>('SELECT status FROM contact_batch_tasks WHERE id = $1', [
          taskId,
        ]);
        if (task.rows[0]?.status !== 'DONE') faults.lost.push(`batch ${taskId} ended ${task.rows[0]?.status}`);
        const items = await db.pool.query<{ charged: string; paid: number }>(
          `SELECT coalesce(sum(credits_charged), 0)::text AS charged, count(*) FILTER (WHERE credits_charged > 0)::int AS paid FROM contact_batch_items WHERE task_id = $1`,
          [taskId],
        );
        const entries = await ledgerOf(`batch:${taskId}`);
        const ledgerCharged = -entries.reduce((sum, e) => sum + e.amount, 0);
        if (entries.length !== items.rows[0]?.paid || ledgerCharged !== Number(items.rows[0]?.charged)) {
          faults.doubleCharges.push(
            `batch ${taskId}: ${entries.length} ledger charges (${ledgerCharged} credits) for ${items.rows[0]?.paid} paid items (${items.rows[0]?.charged} credits)`,
          );
        }
      }
      return faults;
    },
  };
})();

const savedSearchRuns: Workload = (() => {
  const searches: string[] = [];
  const started: Array<{ savedSearchId: string; runId: string }> = [];
  return {
    kind: 'saved-search runs',
    jobKind: 'saved-search.run',
    prepare: async (rounds) => {
      for (let i = 0; i <= rounds; i++) {
        const saved = await call('POST', '/v1/saved-searches', {
          name: `Watched ${i}`,
          kind: 'people',
          peopleSearchParams: { jobTitleV2: { included: ['Engineer'], excluded: [] } },
          maxNewRecordsPerRun: 40,
        });
        searches.push(saved.savedSearchId as string);
      }
    },
    start: async (roundNumber) => {
      const savedSearchId = searches[roundNumber] as string;
      const run = await call('POST', `/v1/saved-searches/${savedSearchId}/runs`, { maxNewRecords: 40 });
      started.push({ savedSearchId, runId: run.runId as string });
    },
    check: async () => {
      const faults = noFaults();
      for (const run of started) {
        const status = await call('GET', `/v1/saved-searches/${run.savedSearchId}/runs/${run.runId}`);
        if (status.status !== 'DONE')
          faults.lost.push(`saved-search run ${run.runId} ended ${status.status}: ${status.failureReason ?? ''}`);
        const charges = (await ledgerOf(`saved-search-run:${run.runId}`)).filter((e) => e.amount < 0);
        const charged = -charges.reduce((sum, e) => sum + e.amount, 0);
        if (charges.length > 1 || charged !== status.creditsCharged)
          faults.doubleCharges.push(
            `saved-search run ${run.runId}: ${charges.length} charges, ${charged} credits, the run says ${status.creditsCharged}`,
          );
      }
      return faults;
    },
  };
})();

const workloads: Workload[] = [builds, enrichments, exportsWorkload, batches, savedSearchRuns];

const started = Date.now();
try {
  for (const workload of workloads) await workload.prepare(kills);
  await service.stop('SIGTERM');
  service = await startServiceProcess(killEnv, dataDir);

  // How long each kind of job runs when nothing kills it: the kills aimed at it land somewhere in that time.
  const firstJob = await lastJobId();
  for (const workload of workloads) await workload.start(0);
  await settle(120_000);
  const durations = await db.pool.query<{ kind: string; ms: number }>(
    `SELECT kind, max(extract(epoch FROM finished_at - created_at) * 1000)::int AS ms FROM jobs WHERE account_id = $1 AND id > $2 GROUP BY kind`,
    [account.account.id, firstJob],
  );
  const durationOf = new Map(durations.rows.map((r) => [r.kind, r.ms]));

  // Each round starts fresh work of every kind, aims a kill at a random point of one kind's job (in turn),
  // starts the service again and lets the round's work finish, so that every job meets at most one
  // kill (a job killed on each of its attempts is given up by design: its process may be what kills it).
  const killedAfter: number[] = [];
  const aimed = new Map<string, { kills: number; caught: number }>();
  let settledIn = 0;
  for (let roundNumber = 1; roundNumber <= kills; roundNumber++) {
    const target = workloads[(roundNumber - 1) % workloads.length] as Workload;
    const before = await lastJobId();
    for (const workload of workloads) await workload.start(roundNumber);
    const job = await runningJobOf(target.jobKind, before);
    const wait = Math.floor(random() * (durationOf.get(target.jobKind) ?? 1000));
    await sleep(wait);
    killedAfter.push(wait);
    const caught =
      job !== null &&
      (await db.pool.query('SELECT 1 FROM jobs WHERE id = $1 AND status = $2', [job, 'running'])).rowCount === 1;
    await service.stop('SIGKILL');
    const tally = aimed.get(target.kind) ?? { kills: 0, caught: 0 };
    aimed.set(target.kind, { kills: tally.kills + 1, caught: tally.caught + (caught ? 1 : 0) });
    service = await startServiceProcess(killEnv, dataDir);
    settledIn = Math.max(settledIn, await settle(120_000));
  }
  const stuck = await db.pool.query<{ kind: string; status: string; attempts: number }>(
    `SELECT kind, status, attempts FROM jobs WHERE account_id = $1 AND status IN ('queued', 'running')`,
    [account.account.id],
  );
  const failedJobs = await db.pool.query<{ kind: string; last_error: string | null }>(
    `SELECT kind, last_error FROM jobs WHERE account_id = $1 AND status = 'failed'`,
    [account.account.id],
  );
  const attempts = await db.pool.query<{ kind: string; jobs: number; retried: number; max: number }>(
    `SELECT kind, count(*)::int AS jobs, count(*) FILTER (WHERE attempts > 1)::int AS retried, max(attempts)::int AS max FROM jobs WHERE account_id = $1 GROUP BY kind ORDER BY kind`,
    [account.account.id],
  );
  const rows: string[] = [];
  let doubleCharges = 0;
  let lostExports = 0;
  let lostOther = 0;
  const details: string[] = [];
  for (const workload of workloads) {
    const faults = await workload.check();
    doubleCharges += faults.doubleCharges.length;
    if (workload === exportsWorkload) lostExports += faults.lost.length;
    else lostOther += faults.lost.length;
    details.push(...faults.doubleCharges, ...faults.lost);
    const tally = aimed.get(workload.kind) ?? { kills: 0, caught: 0 };
    rows.push(
      `| ${workload.kind} | ${kills + 1} | ${tally.kills} (${tally.caught} mid-job) | ${faults.doubleCharges.length} | ${faults.lost.length} |`,
    );
  }
  const totals = await db.pool.query<{ difference: string }>(
    `SELECT ((SELECT sum(amount) FROM credit_ledger WHERE account_id = $1) - (SELECT balance FROM credit_balances WHERE account_id = $1))::text AS difference`,
    [account.account.id],
  );
  const ledgerDifference = Number(totals.rows[0]?.difference);

  const lines = [
    `${kills} kills with SIGKILL, each aimed in turn at one kind of job, at a random point of the time that kind takes unkilled (${Math.min(...killedAfter)} to`,
    `${Math.max(...killedAfter)} ms after it started; seed ${seed}: \`--seed ${seed}\` replays the same points), each followed by a start on the same database and`,
    "data folder and the round's work left to finish. Every round (and one unkilled round before them) starts an audience build",
    '(600 companies and up to 3,000 prospects), an enrichment (work and personal emails of 40 prospects, through a contact vendor that answers in 150 ms), an export',
    '(of up to 4,000 rows, in pages of 1,000),',
    'a batch contact job of 15 profiles and a saved-search run; JOB_STEP_DELAY_MS=150, leases of 2 s, 4 jobs at once. The catalog: 3,000 companies, 30,000 people,',
    `on the embedded PostgreSQL. The slowest round settled ${round(settledIn / 1000, 1)} s after its restart.`,
    '',
    '| work | started | kills aimed at it (landed while its job ran) | double charges | not finished or lost |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    `Double charges: **${doubleCharges}** (must be 0). Stuck jobs (queued or running once everything settled): **${stuck.rowCount}** (must be 0).`,
    `Lost exports: **${lostExports}** (must be 0). Other work that did not finish: **${lostOther}** (must be 0). Ledger sum minus balance: **${ledgerDifference}** (must be 0).`,
    `Jobs caught by a kill and taken over by the next process, by kind: ${attempts.rows.map((r) => `${r.kind} ${r.retried} of ${r.jobs}`).join('; ')}.`,
    failedJobs.rowCount
      ? `Failed jobs: ${failedJobs.rows.map((r) => `${r.kind} (${r.last_error ?? ''})`).join('; ')}.`
      : 'Failed jobs: none.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const failures: string[] = [];
  if (doubleCharges) failures.push(`${doubleCharges} double charges`);
  if (stuck.rowCount) failures.push(`${stuck.rowCount} stuck jobs: ${JSON.stringify(stuck.rows)}`);
  if (lostExports) failures.push(`${lostExports} lost exports`);
  if (lostOther) failures.push(`${lostOther} pieces of work did not finish`);
  if (ledgerDifference) failures.push(`ledger and balance differ by ${ledgerDifference}`);
  if (failures.length) {
    process.stderr.write(`FAILED: ${failures.join('; ')}\n${details.join('\n')}\n`);
    process.exitCode = 1;
  }
  process.stderr.write(`restarts: ${round((Date.now() - started) / 1000, 1)} s\n`);
} finally {
  await service.stop('SIGTERM').catch(() => undefined);
  await db.close();
  await new Promise<void>((resolve) => vendor.server.close(() => resolve()));
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
}

async function lastJobId(): Promise<number> {
  const result = await db.pool.query<{ id: string | null }>('SELECT max(id)::text AS id FROM jobs');
  return Number(result.rows[0]?.id ?? 0);
}

/** The id of the job of this kind created after `after`, once it runs (null if it finished or did not start within 30 s). */
async function runningJobOf(kind: string, after: number): Promise<number | null> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const rows = await db.pool.query<{ id: string; status: string }>(
      'SELECT id::text, status FROM jobs WHERE kind = $1 AND id > $2 ORDER BY id LIMIT 1',
      [kind, after],
    );
    const job = rows.rows[0];
    if (job?.status === 'running') return Number(job.id);
    if (job && job.status !== 'queued') return null;
    await sleep(10);
  }
  return null;
}

/** Waits (with the service running) until the account has no job queued or running; returns how long that took. */
async function settle(timeoutMs: number): Promise<number> {
  const begun = Date.now();
  await waitUntil(
    'every job to finish',
    async () => {
      const left = await db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM jobs WHERE account_id = $1 AND status IN ('queued', 'running')`,
        [account.account.id],
      );
      return left.rows[0]?.n === 0;
    },
    timeoutMs,
  ).catch(() => undefined);
  return Date.now() - begun;
}

async function waitUntil(what: string, probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A small seeded generator, so that a run's kill points can be replayed. */
function mulberry32(state: number): () => number {
  let s = state >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A contact vendor over loopback that knows a personal email for people with an even id, and takes 150 ms to say so. */
async function slowContactVendor(): Promise<{ url: string; server: Server }> {
  const server = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const asked = (JSON.parse(body || '{}') as { people?: Array<{ ref: string }>; types?: string[] }) ?? {};
      const results = (asked.types ?? []).includes('personal_email')
        ? (asked.people ?? [])
            .filter((p) => Number(p.ref) % 2 === 0)
            .map((p) => ({ ref: p.ref, personal_emails: [`p${p.ref}@mail-provider-test.com`] }))
        : [];
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ results }));
      }, 150);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, server };
}
