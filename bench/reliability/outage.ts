import pg from 'pg';
import { createAccount } from '../../src/core/accounts.js';
import { seedCatalog } from '../../src/seed/load.js';
import { openDatabase } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';
import { arg, percentile, round } from '../lib.js';
import { startScenarioPostgres } from './postgres-server.js';
import { startServiceProcess } from './service-process.js';

/**
 * The database stopped under load and started again. While it is down, every request must be
 * answered, within a bound, with 503 and Retry-After (no 500, no hang), and /healthz must say so;
 * once it is back, the service must serve again by itself, without a restart, and the jobs it had
 * in hand must finish.
 */
const reduced = process.argv.includes('--ci');
const outageSeconds = Number(arg('outage', '10'));
const clients = Number(arg('clients', reduced ? '4' : '8'));
/** An answer slower than this is a hang. */
const hangMs = 15_000;
/** The longest a request may wait for a connection before the service answers 503 (DATABASE_CONNECTION_TIMEOUT_MS below). */
const connectionTimeoutMs = 2_000;
const answerBoundMs = connectionTimeoutMs + 3_000;

const postgres = await startScenarioPostgres();
const databaseUrl = postgres.adminUrl.replace(/\/postgres$/, '/outage');
{
  const admin = new pg.Client({ connectionString: postgres.adminUrl });
  await admin.connect();
  await admin.query('CREATE DATABASE outage');
  await admin.end();
  const setup = openDatabase(databaseUrl, 4);
  await migrate(setup.pool);
  await seedCatalog(setup, { companies: 3000, people: 30_000, seed: 42 });
  await setup.close();
}
const service = await startServiceProcess({
  DATABASE_URL: databaseUrl,
  DEMO_CREDITS: '0',
  DATABASE_CONNECTION_TIMEOUT_MS: String(connectionTimeoutMs),
  ACCOUNT_CONCURRENT_REQUESTS: '1000',
  ACCOUNT_CONCURRENT_SEARCHES: '1000',
  RATE_LIMIT_SEARCH_PER_MINUTE: '1000000',
  RATE_LIMIT_STANDARD_PER_MINUTE: '1000000',
  RATE_LIMIT_STATUS_PER_MINUTE: '1000000',
  RATE_LIMIT_HEAVY_PER_MINUTE: '1000000',
  JOB_STEP_DELAY_MS: '400',
  JOB_POLL_INTERVAL_MS: '100',
  JOB_RETRY_BASE_MS: '1000',
});
const pid = service.child.pid;
const db = openDatabase(databaseUrl, 2);

/** What the scenario reads of an answer: ids, a job's status, an error's code or /healthz's reason. */
type Answer = {
  output?: { audienceId?: string; taskId?: string; status?: string };
  error?: { code?: string };
  reason?: string;
} | null;

interface Sample {
  at: number;
  what: string;
  status: number;
  ms: number;
  retryAfter: string | null;
  code: string | null;
}

try {
  const { apiKey } = await createAccount(db, { name: 'outage', plan: 'pro', initialCredits: 10_000_000 });
  const call = async (
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Answer; retryAfter: string | null }> => {
    const response = await fetch(`${service.url}${path}`, {
      method,
      headers: { 'x-api-key': apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(hangMs),
    });
    const text = await response.text();
    let parsed: Answer = null;
    try {
      parsed = JSON.parse(text) as Answer;
    } catch {
      // not JSON: nothing to read in it
    }
    return { status: response.status, body: parsed, retryAfter: response.headers.get('retry-after') };
  };
  const prebuilt = await call('POST', '/v1/audiences/create', { name: 'Read during the outage' });
  const readable = prebuilt.body?.output?.audienceId as string;

  const started = Date.now();
  const samples: Sample[] = [];
  const health: Sample[] = [];
  let running = true;
  const requests: Array<{
    what: string;
    send: () => Promise<{ status: number; body: Answer; retryAfter: string | null }>;
  }> = [
    {
      what: 'companySearch',
      send: () =>
        call('POST', '/v1/company-search', { searchParams: { headquartersCountryCode: ['US'] }, pageSize: 5 }),
    },
    { what: 'getCreditBalance', send: () => call('GET', '/v1/credits') },
    { what: 'getAudienceStatus', send: () => call('GET', `/v1/audiences/${readable}`) },
    { what: 'createAudience', send: () => call('POST', '/v1/audiences/create', { name: 'During the load' }) },
  ];
  const measure = async (
    what: string,
    send: () => Promise<{ status: number; body: Answer; retryAfter: string | null }>,
    into: Sample[],
  ) => {
    const at = Date.now() - started;
    const begun = process.hrtime.bigint();
    try {
      const answer = await send();
      into.push({
        at,
        what,
        status: answer.status,
        ms: Number(process.hrtime.bigint() - begun) / 1e6,
        retryAfter: answer.retryAfter,
        code: answer.body?.error?.code ?? answer.body?.reason ?? null,
      });
    } catch (error) {
      into.push({
        at,
        what,
        status: 0,
        ms: Number(process.hrtime.bigint() - begun) / 1e6,
        retryAfter: null,
        code: (error as Error).name,
      });
    }
  };
  const loops = Array.from({ length: clients }, async (_, i) => {
    for (let n = i; running; n++) {
      const request = requests[n % requests.length] as (typeof requests)[number];
      await measure(request.what, request.send, samples);
    }
  });
  const healthLoop = (async () => {
    while (running) {
      await measure('/healthz', () => call('GET', '/healthz'), health);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  // Work in hand when the database goes: builds, an export, a batch contact job.
  await sleep(2000);
  const work: Array<{ what: string; done: () => Promise<boolean> }> = [];
  for (let i = 0; i < 2; i++) {
    const created = await call('POST', '/v1/audiences/create', { name: `Built across the outage ${i}` });
    const id = created.body?.output?.audienceId as string;
    await call('PATCH', `/v1/audiences/${id}/search-params`, {
      companySearchParams: {},
      maxCompanies: 300,
      maxProspects: 1500,
    });
    await call('POST', `/v1/audiences/${id}/build`, {});
    work.push({
      what: `build ${id}`,
      done: async () => (await call('GET', `/v1/audiences/${id}`)).body?.output?.status === 'NORMAL',
    });
  }
  const slugs = await db.pool.query<{ network_slug: string }>(
    'SELECT network_slug FROM people WHERE network_slug IS NOT NULL ORDER BY id LIMIT 30',
  );
  const task = await call('POST', '/v1/contact-enrichment/batch', {
    profileUrls: slugs.rows.map((r) => r.network_slug),
    enrichmentType: { getWorkEmails: true },
  });
  const taskId = task.body?.output?.taskId as string;
  work.push({
    what: `batch ${taskId}`,
    done: async () => (await call('GET', `/v1/contact-enrichment/batch/${taskId}`)).body?.output?.status === 'DONE',
  });

  await sleep(1000);
  const stopAt = Date.now();
  await postgres.stop();
  // Down from here: the server has exited (the fast shutdown ended its sessions first).
  const stoppedAt = Date.now() - started;
  await sleep(Math.max(0, outageSeconds * 1000 - (Date.now() - stopAt)));
  const restartedAt = Date.now() - started;
  await postgres.start();
  const upAt = Date.now() - started;
  await sleep(15_000);
  running = false;
  await Promise.all([...loops, healthLoop]);

  // The work in hand finishes by itself, with the same process.
  const workDeadline = Date.now() + 120_000;
  const unfinished = new Set(work.map((w) => w.what));
  while (unfinished.size && Date.now() < workDeadline) {
    for (const item of work)
      if (unfinished.has(item.what) && (await item.done().catch(() => false))) unfinished.delete(item.what);
    await sleep(250);
  }
  const samePid = service.child.pid === pid && service.child.exitCode === null && service.child.signalCode === null;

  const down = samples.filter((s) => s.at >= stoppedAt && s.at + s.ms <= restartedAt);
  const downStatuses: Record<string, number> = {};
  for (const s of down) downStatuses[s.status] = (downStatuses[s.status] ?? 0) + 1;
  const downTimes = down.map((s) => s.ms).sort((a, b) => a - b);
  const all500 =
    samples.filter((s) => s.status >= 500 && s.status !== 503).length +
    health.filter((s) => s.status >= 500 && s.status !== 503).length;
  const hung = [...samples, ...health].filter((s) => s.status === 0).length;
  const withoutRetryAfter = [...samples].filter((s) => s.status === 503 && !s.retryAfter).length;
  const slow = [...samples, ...health].filter((s) => s.ms > answerBoundMs).length;
  const healthDown = health.filter((s) => s.at >= stoppedAt + 500 && s.at + s.ms <= restartedAt);
  const healthSaid =
    healthDown.length && healthDown.every((s) => s.status === 503)
      ? `503 ${JSON.stringify(healthDown[0]?.code)}`
      : JSON.stringify(healthDown.map((s) => s.status));
  const firstServed = samples
    .filter((s) => s.at >= upAt && s.what === 'companySearch' && s.status === 200)
    .sort((a, b) => a.at - b.at)[0];
  const recoverySeconds = firstServed ? round((firstServed.at + firstServed.ms - upAt) / 1000, 2) : null;
  const after = samples.filter((s) => s.at >= upAt + 3000);
  const afterFailures = after.filter((s) => s.status !== 200).length;
  const before = samples.filter((s) => s.at + s.ms < stoppedAt);
  const beforeTimes = before.map((s) => s.ms).sort((a, b) => a - b);
  const afterTimes = after.map((s) => s.ms).sort((a, b) => a - b);

  const lines = [
    `${clients} clients call the service back to back (company search, balance, audience status, audience creation; /healthz every 250 ms) while it`,
    `builds two audiences (300 companies, 1,500 prospects, JOB_STEP_DELAY_MS=400) and runs a batch contact job; then the database, a PostgreSQL server of the`,
    `scenario's own (${postgres.programs}), is stopped (fast shutdown) for ${outageSeconds} s and started again on the same port. DATABASE_CONNECTION_TIMEOUT_MS=${connectionTimeoutMs}.`,
    '',
    '| | requests | statuses | p50 ms | p99 ms | max ms |',
    '|---|---|---|---|---|---|',
    `| before the stop | ${before.length} | ${JSON.stringify(statuses(before))} | ${round(percentile(beforeTimes, 50))} | ${round(percentile(beforeTimes, 99))} | ${round(beforeTimes.at(-1) ?? NaN)} |`,
    `| database down | ${down.length} | ${JSON.stringify(downStatuses)} | ${round(percentile(downTimes, 50))} | ${round(percentile(downTimes, 99))} | ${round(downTimes.at(-1) ?? NaN)} |`,
    `| from 3 s after it is back | ${after.length} | ${JSON.stringify(statuses(after))} | ${round(percentile(afterTimes, 50))} | ${round(percentile(afterTimes, 99))} | ${round(afterTimes.at(-1) ?? NaN)} |`,
    '',
    `While down: 500s (any 5xx but 503): **${all500}** (must be 0); 503s without Retry-After: **${withoutRetryAfter}** (must be 0); requests unanswered`,
    `after ${hangMs / 1000} s: **${hung}** (must be 0); answers slower than ${answerBoundMs} ms: **${slow}** (must be 0). /healthz while down: ${healthSaid}.`,
    `The first search served ${recoverySeconds ?? 'never'} s after the database accepted connections again, by the same process (${samePid ? 'not restarted' : '**restarted or gone**'});`,
    `requests failed from 3 s after: **${afterFailures}** (must be 0). Work in hand (2 builds, 1 batch job) finished afterwards: **${work.length - unfinished.size} of ${work.length}**.`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const failures: string[] = [];
  if (all500) failures.push(`${all500} 5xx answers other than 503`);
  if (withoutRetryAfter) failures.push(`${withoutRetryAfter} 503s without Retry-After`);
  if (hung) failures.push(`${hung} requests unanswered after ${hangMs} ms`);
  if (slow) failures.push(`${slow} answers slower than ${answerBoundMs} ms`);
  if (!down.length || Object.keys(downStatuses).some((s) => s !== '503'))
    failures.push(`requests while down were answered ${JSON.stringify(downStatuses)}, not all 503`);
  if (!healthDown.length || healthDown.some((s) => s.status !== 503))
    failures.push(`/healthz while down: ${healthSaid}`);
  if (recoverySeconds === null) failures.push('the service never served a search again');
  if (!samePid) failures.push('the service process was restarted or died');
  if (afterFailures)
    failures.push(`${afterFailures} requests failed after recovery: ${JSON.stringify(statuses(after))}`);
  if (unfinished.size) failures.push(`work that never finished: ${[...unfinished].join(', ')}`);
  if (failures.length) {
    process.stderr.write(
      `FAILED: ${failures.join('; ')}\nThe service's last output:\n${service.recentOutput().slice(-6000)}\n`,
    );
    process.exitCode = 1;
  }
} finally {
  await db.close().catch(() => undefined);
  await service.stop().catch(() => undefined);
  await postgres.remove();
}

function statuses(samples: Sample[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of samples) counts[s.status] = (counts[s.status] ?? 0) + 1;
  return counts;
}
