import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createAccount } from '../../src/core/accounts.js';
import { charge } from '../../src/core/credits.js';
import { openDatabase, type Database } from '../../src/store/db.js';
import { arg, percentile, round } from '../lib.js';
import { startScenarioPostgres, type ScenarioPostgres } from './postgres-server.js';
import { startServiceProcess, type ServiceProcess } from './service-process.js';

/**
 * The reference cluster (scripts/cluster.sh: etcd, PostgreSQL on three nodes under Patroni with
 * synchronous replication, HAProxy, three service instances) under charged load, then the
 * Patroni leader's PostgreSQL killed with SIGKILL, and later one service instance too. Several
 * accounts send charged calls through HAProxy, each with an Idempotency-Key, retrying on 503, 409,
 * 429 and connection errors as a careful client does; audience builds and an export run meanwhile.
 *
 * Measured: seconds from the kill until writes succeed again; acknowledged charges lost (a 200
 * whose ledger entry is missing afterwards); charges made twice; the ledger's sum against the
 * balances; 5xx answers (503 with Retry-After is allowed in the window); jobs in flight that
 * finished. Before the failover, in the same run, the latency of a charged call against a single
 * PostgreSQL server, the cluster with synchronous replication, and the cluster without it.
 */
const reduced = process.argv.includes('--ci');
const accounts = Number(arg('accounts', reduced ? '3' : '6'));
const clientsPerAccount = Number(arg('clients', reduced ? '2' : '3'));
const latencyCalls = Number(arg('latency-calls', reduced ? '40' : '300'));
/** The single server of the latency comparison takes half a minute to start and seed: the full run only, unless asked. */
const compareLatency = !reduced || process.argv.includes('--latency');
const loadAfterInstanceKillMs = reduced ? 6_000 : 20_000;
/** A careful client gives a call this long to succeed (an idempotency claim with no owner is held for 2 minutes). */
const callBudgetMs = 170_000;
/** The whole scenario, cluster up and down included: past it, it stops and fails. */
const scenarioBudgetMs = reduced ? 295_000 : 900_000;
const seed = { companies: reduced ? '2000' : '5000', people: reduced ? '20000' : '50000' };

const started = Date.now();
const elapsed = () => round((Date.now() - started) / 1000, 1);
const note = (line: string) => process.stderr.write(`[failover ${elapsed()} s] ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface ClusterInfo {
  dir: string;
  serviceUrl: string;
  databaseUrl: string;
  superuserUrl: string;
  demoApiKey: string;
  nodes: Array<{ name: string; port: number; restUrl: string; dataDir: string }>;
  instances: Array<{ name: string; url: string; pidFile: string }>;
}

const clusterDir = path.join(os.tmpdir(), `pds-rel-cluster-${process.pid}`);
const clusterEnv: Record<string, string> = {
  CLUSTER_DIR: clusterDir,
  CLUSTER_BUILD: '0',
  SEED_COMPANIES: seed.companies,
  SEED_PEOPLE: seed.people,
  // Builds and exports slow enough to be in flight when the primary dies (a pause at each step and page).
  JOB_STEP_DELAY_MS: '3000',
  JOB_LEASE_SECONDS: '10',
  JOB_RETRY_BASE_MS: '1000',
  DATABASE_CONNECTION_TIMEOUT_MS: '2000',
  ACCOUNT_CONCURRENT_REQUESTS: '100',
  ACCOUNT_CONCURRENT_SEARCHES: '100',
  RATE_LIMIT_SEARCH_PER_MINUTE: '1000000',
  RATE_LIMIT_STANDARD_PER_MINUTE: '1000000',
  RATE_LIMIT_STATUS_PER_MINUTE: '1000000',
  RATE_LIMIT_HEAVY_PER_MINUTE: '1000000',
  LOG_LEVEL: 'warn',
};

function cluster(command: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['scripts/cluster.sh', command], {
      env: { ...process.env, ...clusterEnv },
      stdio: ['ignore', process.stderr, process.stderr],
    });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

let tornDown: Promise<unknown> | null = null;
let singlePostgres: ScenarioPostgres | null = null;
let singleService: ServiceProcess | null = null;
const teardown = () =>
  (tornDown ??= (async () => {
    await singleService?.stop().catch(() => undefined);
    await singlePostgres?.remove().catch(() => undefined);
    await cluster('down');
  })());
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    note(`${signal}: tearing the cluster down`);
    void teardown().finally(() => process.exit(1));
  });
const overrun = setTimeout(() => {
  note(`FAILED: past the scenario's budget of ${scenarioBudgetMs / 1000} s; tearing down`);
  void teardown().finally(() => process.exit(1));
}, scenarioBudgetMs);
overrun.unref();

/** A base port whose ports (scripts/cluster.sh: base + 1..3, 8..10, 32..34, 79, 80, 100..104) are all free. */
async function freeBase(): Promise<number> {
  const offsets = [1, 2, 3, 8, 9, 10, 32, 33, 34, 79, 80, 100, 101, 102, 103, 104];
  const free = (port: number) =>
    new Promise<boolean>((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
  for (let base = 26000; base < 40000; base += 700) {
    let all = true;
    for (const offset of offsets) if (!(await free(base + offset))) all = false;
    if (all) return base;
  }
  throw new Error('no free range of ports for the cluster');
}

/** What the scenario reads of an answer. */
interface AnswerBody {
  output?: { audienceId?: string; exportId?: string; status?: string };
  chargeInfo?: { creditsCharged?: number };
  error?: { code?: string };
}

interface Attempt {
  requestId?: string;
  at: number;
  ms: number;
  status: number;
  retryAfter: string | null;
  code: string | null;
  what: string;
}
const attempts: Attempt[] = [];

async function send(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
  what: string,
  timeoutMs = 20_000,
): Promise<{ status: number; retryAfter: string | null; body: AnswerBody | null }> {
  const at = Date.now();
  const requestId = init.headers['x-request-id'];
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    let body: AnswerBody | null = null;
    try {
      body = JSON.parse(text) as AnswerBody;
    } catch {
      // not JSON
    }
    const answer = { status: response.status, retryAfter: response.headers.get('retry-after'), body };
    attempts.push({
      at,
      ms: Date.now() - at,
      status: answer.status,
      retryAfter: answer.retryAfter,
      code: body?.error?.code ?? null,
      what,
      ...(requestId ? { requestId } : {}),
    });
    return answer;
  } catch (error) {
    attempts.push({
      at,
      ms: Date.now() - at,
      status: 0,
      retryAfter: null,
      code: (error as Error).name,
      what,
      ...(requestId ? { requestId } : {}),
    });
    return { status: 0, retryAfter: null, body: null };
  }
}

const json = (apiKey: string, extra: Record<string, string> = {}) => ({
  'content-type': 'application/json',
  'x-api-key': apiKey,
  ...extra,
});

/** One charged call (a location typeahead: answered from memory, one ledger write): its latency in ms. */
async function chargedCall(url: string, apiKey: string): Promise<number> {
  const begun = process.hrtime.bigint();
  const answer = await send(
    `${url}/v1/typeahead/locations?query=san&limit=1`,
    { method: 'GET', headers: { 'x-api-key': apiKey } },
    'latency',
  );
  if (answer.status !== 200) throw new Error(`a latency call was answered ${answer.status}`);
  return Number(process.hrtime.bigint() - begun) / 1e6;
}

/** The service's keyed charge transaction itself (BEGIN, the account's ledger lock, the key's lookup, the charge, COMMIT): ms. */
async function chargeTransaction(db: Database, accountId: number): Promise<number> {
  const begun = process.hrtime.bigint();
  await db.transaction((tx) =>
    charge(tx, accountId, 1, { unit: 'latency', reason: 'latency', idempotencyKey: randomUUID() }),
  );
  return Number(process.hrtime.bigint() - begun) / 1e6;
}

interface Side {
  url: string;
  apiKey: string;
  db: Database;
  accountId: number;
}

/** `count` of each measure on each side, one call at a time, the sides taking turns call by call (so that the machine's load falls on both alike). */
async function latencies(sides: Side[], count: number): Promise<Array<{ http: number[]; transaction: number[] }>> {
  const results = sides.map(() => ({ http: [] as number[], transaction: [] as number[] }));
  for (let i = 0; i < count; i += 1)
    for (const [index, side] of sides.entries()) {
      (results[index] as (typeof results)[number]).http.push(await chargedCall(side.url, side.apiKey));
      (results[index] as (typeof results)[number]).transaction.push(await chargeTransaction(side.db, side.accountId));
    }
  return results;
}

/** A member as Patroni's REST API lists it. */
interface Member {
  name: string;
  role: string;
  state: string;
}

async function patroniCluster(info: ClusterInfo): Promise<Member[]> {
  for (const node of info.nodes) {
    try {
      const response = await fetch(`${node.restUrl}/cluster`, { signal: AbortSignal.timeout(3000) });
      if (response.ok) return ((await response.json()) as { members: Member[] }).members;
    } catch {
      // that node's Patroni is busy or gone: ask another
    }
  }
  return [];
}

async function setSynchronous(info: ClusterInfo, on: boolean): Promise<void> {
  const node = info.nodes[0] as ClusterInfo['nodes'][number];
  const response = await fetch(`${node.restUrl}/config`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ synchronous_mode: on }),
    signal: AbortSignal.timeout(5000),
  });
  if (!response.ok) throw new Error(`Patroni refused synchronous_mode=${on}: ${response.status}`);
  // Patroni names (or stops naming) a synchronous standby at its next HA loop.
  const done = await waitFor(`synchronous_mode ${on} to take effect`, 90_000, async () => {
    const members = await patroniCluster(info);
    return members.some((m) => m.role === 'sync_standby') === on && members.some((m) => m.role === 'leader');
  });
  if (!done) throw new Error(`Patroni did not ${on ? 'name' : 'drop'} a synchronous standby within 90 s`);
}

async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | null | false>): Promise<T | null> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe().catch(() => null);
    if (value) return value;
    await sleep(250);
  }
  note(`gave up waiting for ${what} after ${timeoutMs / 1000} s`);
  return null;
}

/**
 * The charge latency against a single PostgreSQL server (the same binaries, durable, with a service process of its own) and
 * against the cluster, with synchronous replication and without, the sides taking turns call by call.
 */
async function latencyAgainstSingleServer(
  info: ClusterInfo,
  db: Database,
): Promise<{
  latency: Record<'single' | 'synchronous' | 'asynchronous', number[]>;
  transactions: Record<'single' | 'synchronous' | 'asynchronous', number[]>;
}> {
  // The single server of the comparison: the same PostgreSQL, durable, with a service process of its own.
  note('a single PostgreSQL server and a service on it, for the latency comparison');
  const postgres = await startScenarioPostgres({ durable: true });
  singlePostgres = postgres;
  const admin = new pg.Client({ connectionString: postgres.adminUrl });
  await admin.connect();
  await admin.query('CREATE DATABASE single');
  await admin.end();
  const singleUrl = postgres.adminUrl.replace(/\/postgres$/, '/single');
  // Its limits kept in PostgreSQL as the cluster's are, so that only where the commits go differs.
  const singleInstance = await startServiceProcess({
    ...clusterEnv,
    DATABASE_URL: singleUrl,
    SEED_ON_EMPTY: 'true',
    JOB_WORKER: 'false',
    RATE_LIMIT_STORE: 'database',
  });
  singleService = singleInstance;
  const singleDb = openDatabase(singleUrl, 2);
  const singleAccount = await createAccount(singleDb, { name: 'latency', plan: 'pro', initialCredits: 1_000_000 });
  const clusterAccount = await createAccount(db, { name: 'latency', plan: 'pro', initialCredits: 1_000_000 });
  const sides: Side[] = [
    { url: singleInstance.url, apiKey: singleAccount.apiKey, db: singleDb, accountId: singleAccount.account.id },
    {
      url: (info.instances[0] as ClusterInfo['instances'][number]).url,
      apiKey: clusterAccount.apiKey,
      db,
      accountId: clusterAccount.account.id,
    },
  ];
  note(`charge latency: ${latencyCalls} calls and transactions on each side, synchronous replication then not`);
  await latencies(sides, 10);
  const [singleSync, synchronous] = await latencies(sides, latencyCalls);
  await setSynchronous(info, false);
  await latencies(sides, 5);
  const [singleAsync, asynchronous] = await latencies(sides, latencyCalls);
  await setSynchronous(info, true);
  await singleDb.close();
  await singleInstance.stop();
  singleService = null;
  await postgres.remove();
  singlePostgres = null;
  const latency = {
    single: [...(singleSync?.http ?? []), ...(singleAsync?.http ?? [])],
    synchronous: synchronous?.http ?? [],
    asynchronous: asynchronous?.http ?? [],
  };
  const transactions = {
    single: [...(singleSync?.transaction ?? []), ...(singleAsync?.transaction ?? [])],
    synchronous: synchronous?.transaction ?? [],
    asynchronous: asynchronous?.transaction ?? [],
  };
  for (const list of [...Object.values(latency), ...Object.values(transactions)]) list.sort((a, b) => a - b);
  return { latency, transactions };
}

const failures: string[] = [];
try {
  clusterEnv.CLUSTER_PORT_BASE = String(await freeBase());
  note(`cluster up in ${clusterDir} (ports from ${clusterEnv.CLUSTER_PORT_BASE})`);
  if ((await cluster('up')) !== 0) throw new Error('scripts/cluster.sh up failed');
  const info = JSON.parse(await readFile(path.join(clusterDir, 'cluster.json'), 'utf8')) as ClusterInfo;
  const clusterUpSeconds = elapsed();
  const db = openDatabase(info.databaseUrl, 3);
  try {
    const measured = compareLatency ? await latencyAgainstSingleServer(info, db) : null;
    const membersBefore = await patroniCluster(info);
    const syncStandby = membersBefore.find((m) => m.role === 'sync_standby');
    if (!syncStandby) failures.push('no synchronous standby before the failover');

    // The load: accounts with charged calls through the load balancer.
    const loadAccounts: Array<Awaited<ReturnType<typeof createAccount>>> = [];
    for (let i = 0; i < accounts; i += 1)
      loadAccounts.push(await createAccount(db, { name: `failover ${i}`, plan: 'pro', initialCredits: 10_000_000 }));
    const probeAccount = await createAccount(db, { name: 'probe', plan: 'pro', initialCredits: 10 });
    const lb = info.serviceUrl;

    // Work in flight: an audience built before the load, to export during it; builds started during it.
    const jobsOwner = loadAccounts[0] as (typeof loadAccounts)[number];
    const build = async (name: string, companies: number, prospects: number): Promise<string> => {
      const created = await send(
        `${lb}/v1/audiences/create`,
        { method: 'POST', headers: json(jobsOwner.apiKey), body: JSON.stringify({ name }) },
        'jobs',
      );
      const id = created.body?.output?.audienceId as string;
      await send(
        `${lb}/v1/audiences/${id}/search-params`,
        {
          method: 'PATCH',
          headers: json(jobsOwner.apiKey),
          body: JSON.stringify({ companySearchParams: {}, maxCompanies: companies, maxProspects: prospects }),
        },
        'jobs',
      );
      const started = await send(
        `${lb}/v1/audiences/${id}/build`,
        { method: 'POST', headers: json(jobsOwner.apiKey), body: '{}' },
        'jobs',
      );
      if (started.status !== 200) throw new Error(`a build was refused: ${started.status}`);
      return id;
    };
    const audienceStatus = async (id: string) =>
      (
        await send(
          `${lb}/v1/audiences/${id}`,
          { method: 'GET', headers: { 'x-api-key': jobsOwner.apiKey } },
          'jobs-status',
          5000,
        )
      ).body?.output?.status as string | undefined;
    const exported = await build('Exported during the failover', 100, 2000);
    await waitFor('the audience to export', 120_000, async () => (await audienceStatus(exported)) === 'NORMAL');

    let loading = true;
    const acknowledged: Array<{ accountId: number; requestId: string; credits: number; at: number }> = [];
    const unresolved: string[] = [];
    let calls = 0;
    const slowest: Array<{ requestId: string; ms: number }> = [];
    const debugged = new Set<string>();
    const client = async (account: (typeof loadAccounts)[number], index: number) => {
      for (let n = 0; loading; n += 1) {
        calls += 1;
        const requestId = `failover-${account.account.id}-${index}-${n}`;
        const key = randomUUID();
        const begun = Date.now();
        let done = false;
        while (!done && Date.now() - begun < callBudgetMs) {
          const answer = await send(
            `${lb}/v1/company-search`,
            {
              method: 'POST',
              headers: json(account.apiKey, { 'idempotency-key': key, 'x-request-id': requestId }),
              body: JSON.stringify({ searchParams: {}, pageSize: 2 }),
            },
            'charge',
          );
          if (answer.status === 200) {
            acknowledged.push({
              accountId: account.account.id,
              requestId,
              credits: answer.body?.chargeInfo?.creditsCharged ?? 0,
              at: Date.now(),
            });
            done = true;
          } else if ([0, 409, 429, 503].includes(answer.status)) {
            if (answer.status === 409 && !debugged.has(requestId)) {
              debugged.add(requestId);
              const row = await db.pool
                .query(
                  `SELECT owner, state, locked_until - now() AS left, (SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid::int = -1 AND objid::int = owner) AS held FROM idempotent_requests WHERE key = $1`,
                  [key],
                )
                .catch((error: unknown) => ({ rows: [String(error)] }));
              note(`409 for ${requestId}: ${JSON.stringify(row.rows)}`);
            }
            // Retry-After honoured, as a careful client does; a connection error is retried after a moment.
            const wait = answer.retryAfter ? Number(answer.retryAfter) * 1000 : 500;
            await sleep(Math.min(wait, 5000));
          } else {
            done = true;
          }
        }
        if (!done) unresolved.push(requestId);
        slowest.push({ requestId, ms: Date.now() - begun });
      }
    };
    // Writes again: a probe that writes every 100 ms, ignoring Retry-After, so it measures the service, not a client's backoff.
    const probes: Array<{ at: number; end: number; status: number }> = [];
    const probe = (async () => {
      while (loading) {
        const at = Date.now();
        const answer = await send(
          `${lb}/v1/audiences/create`,
          { method: 'POST', headers: json(probeAccount.apiKey), body: JSON.stringify({ name: 'probe' }) },
          'probe',
          10_000,
        );
        probes.push({ at, end: Date.now(), status: answer.status });
        await sleep(100);
      }
    })();

    note(`load: ${accounts} accounts x ${clientsPerAccount} clients`);
    const loadStarted = Date.now();
    const clients = loadAccounts.flatMap((account) =>
      Array.from({ length: clientsPerAccount }, (_, i) => client(account, i)),
    );
    await sleep(4000);
    const builds = [await build('Built during the failover 1', 150, 1500)];
    if (!reduced) builds.push(await build('Built during the failover 2', 150, 1500));
    const exportAnswer = await send(
      `${lb}/v1/audiences/${exported}/export/prospects`,
      { method: 'POST', headers: json(jobsOwner.apiKey), body: '{}' },
      'jobs',
    );
    const exportId = exportAnswer.body?.output?.exportId as string | undefined;
    if (!exportId) failures.push(`the export was refused: ${exportAnswer.status}`);
    await sleep(1000);

    // The leader's PostgreSQL, killed.
    const leader = (await patroniCluster(info)).find((m) => m.role === 'leader');
    const leaderNode = info.nodes.find((n) => n.name === leader?.name);
    if (!leaderNode) throw new Error('no leader to kill');
    const postmaster = Number((await readFile(path.join(leaderNode.dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
    const jobsBefore = (
      await db.pool.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM jobs WHERE status IN ('queued', 'running') AND account_id = $1",
        [jobsOwner.account.id],
      )
    ).rows[0]?.n;
    note(`SIGKILL to the leader's postmaster (${leaderNode.name}, pid ${postmaster}); ${jobsBefore} jobs in flight`);
    if (!jobsBefore)
      failures.push('no job was in flight when the primary was killed: the scenario measured nothing of them');
    const killedAt = Date.now();
    process.kill(postmaster, 'SIGKILL');
    const back = await waitFor('writes again', 120_000, async () =>
      probes.find((p) => p.at > killedAt && p.status === 200),
    );
    const writesAgainSeconds = back ? round((back.end - killedAt) / 1000, 2) : null;
    note(`writes again after ${writesAgainSeconds ?? 'never'} s`);
    const newLeader = await waitFor('a new leader', 30_000, async () =>
      (await patroniCluster(info)).find((m) => m.role === 'leader' && m.state === 'running'),
    );

    await sleep(3000);
    const victim = info.instances[1] as ClusterInfo['instances'][number];
    const victimPid = Number((await readFile(victim.pidFile, 'utf8')).trim());
    note(`SIGKILL to ${victim.name} (pid ${victimPid})`);
    const instanceKilledAt = Date.now();
    process.kill(victimPid, 'SIGKILL');
    await sleep(loadAfterInstanceKillMs);
    loading = false;
    note('load stopped; waiting for the calls in flight to end');
    await Promise.all([...clients, probe]);
    const loadSeconds = round((Date.now() - loadStarted) / 1000, 1);
    slowest.sort((a, b) => b.ms - a.ms);
    for (const call of slowest.slice(0, 3))
      note(
        `slowest call ${call.requestId}: ${round(call.ms / 1000, 1)} s, answers ${JSON.stringify(
          attempts
            .filter((a) => a.what === 'charge' && a.requestId === call.requestId)
            .map((a) => `${a.status}${a.code ? ` ${a.code}` : ''} at ${round((a.at - killedAt) / 1000, 1)} s`),
        )}`,
      );

    // Jobs in flight finish by themselves.
    const jobs = [
      ...builds.map((id) => ({ what: `build ${id}`, done: async () => (await audienceStatus(id)) === 'NORMAL' })),
      ...(exportId
        ? [
            {
              what: `export ${exportId}`,
              done: async () =>
                (
                  await send(
                    `${lb}/v1/audiences/${exported}/exports/${exportId}`,
                    { method: 'GET', headers: { 'x-api-key': jobsOwner.apiKey } },
                    'jobs-status',
                    5000,
                  )
                ).body?.output?.status === 'READY',
            },
          ]
        : []),
    ];
    const unfinished = new Set(jobs.map((j) => j.what));
    await waitFor('the jobs in flight to finish', 180_000, async () => {
      for (const job of jobs) if (unfinished.has(job.what) && (await job.done())) unfinished.delete(job.what);
      return unfinished.size === 0;
    });
    const rejoined = await waitFor('the old leader to rejoin as a replica', 90_000, async () =>
      (await patroniCluster(info)).find(
        (m) => m.name === leaderNode.name && m.state === 'running' && m.role !== 'leader',
      ),
    );

    // The ledger, read on the new primary.
    const accountIds = loadAccounts.map((a) => a.account.id);
    const ledger = await db.pool.query<{ account_id: number; reference: string | null; amount: number }>(
      'SELECT account_id, reference, amount FROM credit_ledger WHERE account_id = ANY($1) AND amount < 0',
      [accountIds],
    );
    const charges = new Map<string, number[]>();
    for (const entry of ledger.rows) {
      const list = charges.get(entry.reference ?? '') ?? [];
      list.push(-entry.amount);
      charges.set(entry.reference ?? '', list);
    }
    const lost = acknowledged.filter((a) => !(charges.get(a.requestId) ?? []).includes(a.credits)).length;
    const twice = [...charges.values()].filter((amounts) => amounts.length > 1).length;
    const ackedIds = new Set(acknowledged.map((a) => a.requestId));
    // Builds charge the jobs' account under references of their own: only the charged calls' are counted here.
    const unacknowledgedCharges = [...charges.keys()].filter(
      (reference) => reference.startsWith('failover-') && !ackedIds.has(reference),
    ).length;
    const sums = await db.pool.query<{ difference: string }>(
      `SELECT coalesce(sum(abs(l.total - b.balance)), 0)::text AS difference
         FROM credit_balances b
         JOIN (SELECT account_id, sum(amount) AS total FROM credit_ledger WHERE account_id = ANY($1) GROUP BY account_id) l
           ON l.account_id = b.account_id`,
      [accountIds],
    );
    const ledgerMinusBalances = Number(sums.rows[0]?.difference ?? NaN);
    const answers = attempts.filter((a) => a.what === 'charge' || a.what === 'probe');
    const fiveHundreds = attempts.filter((a) => a.status >= 500 && a.status !== 503);
    const without = attempts.filter((a) => a.status === 503 && !a.retryAfter);
    const window = answers.filter((a) => a.at >= killedAt && a.at <= (back?.end ?? killedAt));
    const statusesOf = (list: Attempt[]) => {
      const counts: Record<string, number> = {};
      for (const a of list)
        counts[a.status === 0 ? 'no answer' : String(a.status)] =
          (counts[a.status === 0 ? 'no answer' : String(a.status)] ?? 0) + 1;
      return counts;
    };
    const afterInstanceKill = answers.filter((a) => a.at >= instanceKilledAt && a.at <= instanceKilledAt + 5000);
    const chargeTimes = attempts
      .filter((a) => a.what === 'charge' && a.status === 200 && a.at < killedAt)
      .map((a) => a.ms);
    chargeTimes.sort((a, b) => a - b);
    const latencyRow = (label: string, http: number[], transaction: number[]) =>
      `| ${label} | ${round(percentile(http, 50))} / ${round(percentile(http, 90))} / ${round(percentile(http, 99))} | ${round(percentile(transaction, 50))} / ${round(percentile(transaction, 90))} / ${round(percentile(transaction, 99))} |`;
    const median = (list: number[]) => percentile(list, 50);
    const latencyLines = measured
      ? [
          '',
          `Charge latency, measured in the same run before the failover, one call at a time, the single server and the cluster taking turns call by call`,
          `(${latencyCalls} of each per phase): a charged call over HTTP to a service process (a location typeahead: answered from memory, one ledger`,
          `write; the rate limits and caps kept in PostgreSQL on both sides), and the service's keyed charge transaction alone (BEGIN, the account's`,
          `ledger lock, the key's lookup, the charge, COMMIT) from a client on the same machine. The single server is the same PostgreSQL with fsync on;`,
          `the cluster is reached through HAProxy's write port, first with synchronous replication, then with \`synchronous_mode: false\`.`,
          '',
          '| against | charged call over HTTP, p50 / p90 / p99 ms | charge transaction, p50 / p90 / p99 ms |',
          '|---|---|---|',
          latencyRow('a single PostgreSQL server (both phases)', measured.latency.single, measured.transactions.single),
          latencyRow(
            'the cluster, synchronous replication',
            measured.latency.synchronous,
            measured.transactions.synchronous,
          ),
          latencyRow(
            'the cluster, asynchronous replication',
            measured.latency.asynchronous,
            measured.transactions.asynchronous,
          ),
          '',
          `Synchronous replication costs ${round(median(measured.transactions.synchronous) - median(measured.transactions.asynchronous))} ms a charge transaction at the median (synchronous minus asynchronous); the cluster as a whole,`,
          `HAProxy's hop included, ${round(median(measured.transactions.synchronous) - median(measured.transactions.single))} ms over a single server (${round(median(measured.latency.synchronous) - median(measured.latency.single))} ms on the whole HTTP call, where the machine's load is most of the spread).`,
        ]
      : ['', 'The charge latency against a single server is measured by the full run only (not with --ci).'];

    const lines = [
      `The reference cluster (\`scripts/cluster.sh\`): etcd, PostgreSQL ${(await db.pool.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]?.v} on ${info.nodes.length} nodes under Patroni`,
      `(synchronous_mode on, ttl 20 s, loop_wait 2 s, retry_timeout 5 s, primary_start_timeout 0), HAProxy, ${info.instances.length} service instances`,
      `(demo catalog ${Number(seed.companies).toLocaleString('en')} companies / ${Number(seed.people).toLocaleString('en')} people), up in ${clusterUpSeconds} s. ${accounts} accounts x ${clientsPerAccount} clients send charged company searches`,
      `(2 records, 2 credits) through HAProxy, back to back, each with an Idempotency-Key and its own X-Request-Id, retrying on 503, 409, 429 and`,
      `connection errors after Retry-After; ${builds.length} audience build(s) and an export run meanwhile (JOB_STEP_DELAY_MS=3000). After 6 s, SIGKILL to the Patroni leader's`,
      `postmaster (${leaderNode.name}); 3 s after writes succeed again, SIGKILL to ${victim.name}; the load goes on ${loadAfterInstanceKillMs / 1000} s more, then every call in flight is seen to its end.`,
      '',
      '| measure | value |',
      '|---|---|',
      `| seconds from the kill until writes succeed again (a probe writing every 100 ms) | **${writesAgainSeconds ?? 'never'}** |`,
      `| new leader | ${newLeader?.name ?? 'none'} (the synchronous standby before: ${syncStandby?.name ?? 'none'}); the old leader rejoined as a replica: ${rejoined ? 'yes' : '**no**'} |`,
      `| charged calls | ${calls} in ${loadSeconds} s, ${acknowledged.length} acknowledged (200), ${unresolved.length} not resolved within ${callBudgetMs / 1000} s |`,
      `| answers while writes were failing | ${JSON.stringify(statusesOf(window))} |`,
      `| answers in the 5 s after the instance was killed | ${JSON.stringify(statusesOf(afterInstanceKill))} |`,
      `| acknowledged charges lost (a 200 whose ledger entry is missing) | **${lost}** (must be 0) |`,
      `| charges made twice (one reference, an X-Request-Id or a build, with two ledger entries) | **${twice}** (must be 0) |`,
      `| ledger sum minus balances | **${ledgerMinusBalances}** (must be 0) |`,
      `| charges no acknowledged answer accounts for (calls not resolved) | ${unacknowledgedCharges} |`,
      `| 5xx answers other than 503 / 503 without Retry-After | **${fiveHundreds.length}** / **${without.length}** (must be 0) |`,
      `| jobs in flight that finished (${jobsBefore} queued or running at the kill) | **${jobs.length - unfinished.size} of ${jobs.length}** |`,
      `| charged call through HAProxy before the kill, p50 / p99 ms | ${round(percentile(chargeTimes, 50))} / ${round(percentile(chargeTimes, 99))} |`,
      ...latencyLines,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    if (writesAgainSeconds === null) failures.push('writes never succeeded again');
    if (lost) failures.push(`${lost} acknowledged charges lost`);
    if (twice) failures.push(`${twice} charges made twice`);
    if (ledgerMinusBalances !== 0) failures.push(`the ledger and the balances differ by ${ledgerMinusBalances}`);
    if (fiveHundreds.length)
      failures.push(
        `${fiveHundreds.length} 5xx answers: ${JSON.stringify(statusesOf(fiveHundreds))} (${fiveHundreds.map((a) => a.what).join(', ')})`,
      );
    if (without.length) failures.push(`${without.length} 503s without Retry-After`);
    if (unfinished.size) failures.push(`jobs that never finished: ${[...unfinished].join(', ')}`);
    if (unresolved.length)
      failures.push(`${unresolved.length} charged calls never answered 200 within ${callBudgetMs / 1000} s`);
    if (!acknowledged.some((a) => a.at > killedAt)) failures.push('no charge acknowledged after the failover');
    if (!rejoined) failures.push('the old leader did not rejoin as a replica');
  } finally {
    await db.close();
  }
} catch (error) {
  failures.push(`the scenario stopped: ${(error as Error).stack ?? String(error)}`);
} finally {
  if (failures.length) {
    const logs = await readFile(path.join(clusterDir, 'logs', 'instance1.log'), 'utf8').catch(() => '');
    process.stderr.write(`FAILED: ${failures.join('; ')}\ninstance1's last output:\n${logs.slice(-4000)}\n`);
    process.exitCode = 1;
  }
  await teardown();
  clearTimeout(overrun);
}
