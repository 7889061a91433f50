import { fork } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import pg from 'pg';
import { z } from 'zod';
import { loadConfig } from '../src/config.js';
import { createAccount } from '../src/core/accounts.js';
import { createLogger } from '../src/log.js';
import { seedCatalog } from '../src/seed/load.js';
import { startService } from '../src/service.js';
import { openDatabase } from '../src/store/db.js';
import { startEmbeddedPostgres, type EmbeddedServer } from '../src/store/embedded.js';
import { migrate } from '../src/store/migrate.js';
import { arg, machineLine, round } from './lib.js';
import { contextTable, measureContext } from './mcp-context.js';
import type { Era, LoadTask, MixFigures, MixTask, OverheadFigures, ThroughputFigures, ThroughputTask } from './load.js';

/**
 * The MCP gateway under load, on loopback, with the load generator in a process of its own
 * (bench/load.ts) on the same machine:
 *  - search_endpoints calls per second and p50/p99 latency at 50 concurrent clients, in each
 *    protocol era (2026-07-28 requests with the per-request envelope; 2025-era stateless requests),
 *    on /mcp with an API key and on /mcp/v3 with an OAuth access token, and of a free
 *    call_operation (getCreditBalance), in rounds alternating with the yardstick (the bare SDK
 *    with a trivial tool), each given as a share of the yardstick's calls per second;
 *  - the overhead of call_operation for companySearch (a page of 25) over calling the REST API
 *    directly, one call at a time, interleaved;
 *  - memory (heap after GC, RSS) after 1,000 gateway calls and after 100,000;
 *  - the context a search-to-call task costs an agent (bench/mcp-context.ts).
 *
 *   node dist/bench/mcp.js [--seconds 10] [--concurrency 50] [--calls 100000] [--rounds 3] [--direct-path on|off]
 *   node dist/bench/mcp.js --overhead-only [--rounds 5] [--runs 300]
 * `--overhead-only` measures only the call_operation overhead (and what an Idempotency-Key costs
 * a REST POST), in rounds, and prints each round's medians, their median and the load average:
 * quick enough to compare two builds in alternating runs on a shared machine.
 * Uses DATABASE_URL's server when set (a fresh database is created on it), else embedded PostgreSQL.
 */
const seconds = Number(arg('seconds', '10'));
const concurrency = Number(arg('concurrency', '50'));
const memoryCalls = Number(arg('calls', '100000'));
const overheadRuns = Number(arg('runs', '300'));
const overheadOnly = process.argv.includes('--overhead-only');
const overheadRounds = Number(arg('rounds', '5'));
/** `--direct-path off` measures the service with MCP_DIRECT_PATH=false (every MCP request through the SDK). */
const directPathSetting = arg('direct-path', 'on') === 'off' ? 'off' : 'on';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const say = (line: string) => process.stderr.write(`${line}\n`);

const log = createLogger('warn');
let embedded: EmbeddedServer | null = null;
const scratch = await mkdtemp(path.join(os.tmpdir(), 'pds-bench-mcp-'));
// When run as root the embedded server runs as its own user, which must be able to enter this folder.
await chmod(scratch, 0o755);
let adminUrl = process.env.DATABASE_URL;
if (!adminUrl) {
  embedded = await startEmbeddedPostgres(path.join(scratch, 'pg'), log, { temporary: true });
  adminUrl = embedded.adminConnectionString;
}
const databaseName = `pds_bench_mcp_${process.pid}`;
const databaseUrl = (() => {
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  return url.toString();
})();
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${databaseName}`);
await admin.end();
{
  const db = openDatabase(databaseUrl, 4);
  await migrate(db.pool);
  say('seeding 5,000 companies / 5,000 people ...');
  await seedCatalog(db, { companies: 5_000, people: 5_000, seed: 42 });
  await db.close();
}

const service = await startService(
  loadConfig({
    DATABASE_URL: databaseUrl,
    DATA_DIR: path.join(scratch, 'data'),
    PORT: '0',
    LOG_LEVEL: 'silent',
    SEED_ON_EMPTY: 'false',
    DEMO_CREDITS: '0',
    JOB_WORKER: 'false',
    RATE_LIMIT_SEARCH_PER_MINUTE: '100000000',
    RATE_LIMIT_STATUS_PER_MINUTE: '100000000',
    RATE_LIMIT_STANDARD_PER_MINUTE: '100000000',
    // One account drives all 50 clients: its per-account concurrency cap is for tenants, not for this load.
    ACCOUNT_CONCURRENT_REQUESTS: '1000',
    ACCOUNT_CONCURRENT_SEARCHES: '1000',
    MCP_DIRECT_PATH: directPathSetting === 'on' ? 'true' : 'false',
  }),
  { log },
);
const account = await createAccount(service.context.db, {
  name: 'mcp bench',
  plan: 'enterprise',
  initialCredits: 1_000_000_000,
});
const queries = [
  'find software companies in Germany with 50 to 200 employees',
  'how many credits do I have left',
  'start enrichment of the audience',
  'export prospects to csv',
  'live fetch a profile',
  'poll enrichment status',
  'reveal contact details for a profile url',
  'create a new audience',
];
const companyPage = { searchParams: { headquartersCountryCode: ['US'] }, pageSize: 25 };

/**
 * An access token for /mcp/v3, for the same account, as the authorization server issues it after
 * a sign-in: a registered public client, an approved grant, an opaque token for /mcp/v3 with
 * both scopes, stored in PostgreSQL. Issued through the server's own models rather than a
 * browser sign-in; what the benchmark measures, verifying it on every call, is the same.
 */
async function issueAccessToken(accountId: number): Promise<string> {
  const server = service.context.services.authorizationServer;
  if (!server) throw new Error('the authorization server is not mounted');
  const provider = await server.ready();
  const client = await fetch(`${server.issuer}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'bench',
      redirect_uris: ['http://127.0.0.1:1/callback'],
      application_type: 'native',
      token_endpoint_auth_method: 'none',
    }),
  }).then((r) => r.json() as Promise<{ client_id: string }>);
  const scope = 'mcp:read mcp:spend';
  const grant = new provider.Grant({ accountId: String(accountId), clientId: client.client_id });
  grant.addResourceScope(server.resource, scope);
  const grantId = await grant.save();
  const resourceServer = new provider.ResourceServer(server.resource, {
    scope,
    audience: server.resource,
    accessTokenFormat: 'opaque',
    accessTokenTTL: 3600,
  });
  const token = new provider.AccessToken({
    accountId: String(accountId),
    clientId: client.client_id,
    grantId,
    scope,
    resourceServer,
  } as never);
  return token.save();
}
const v3Token = await issueAccessToken(account.account.id);

const loadGenerator = fork(fileURLToPath(new URL('./load.js', import.meta.url)), [], {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});

/** Hands one task to the load generator process and waits for its figures. */
function load<T>(task: LoadTask): Promise<T> {
  return new Promise((resolve, reject) => {
    loadGenerator.once('message', (reply: { ok: boolean; figures?: T; error?: string }) => {
      if (reply.ok) resolve(reply.figures as T);
      else reject(new Error(`load generator: ${reply.error}`));
    });
    loadGenerator.send(task);
  });
}

interface Throughput extends ThroughputFigures {
  era: Era;
  concurrency: number;
  /** Server CPU time per call (this process): unlike calls/s, not skewed by other work on the machine. */
  serverCpuMsPerCall: number;
}

async function throughput(
  era: Era,
  url: string = service.url,
  surface: Pick<ThroughputTask, 'path' | 'bearerToken' | 'tool'> = {},
): Promise<Throughput> {
  const task: ThroughputTask = {
    kind: 'throughput',
    url,
    apiKey: account.apiKey,
    era,
    concurrency,
    seconds,
    warmupSeconds: 2,
    queries,
    ...surface,
  };
  // The warm-up runs inside the task; CPU is read across the whole task and scaled to the measured calls.
  const cpuBefore = process.cpuUsage();
  const startedAt = Date.now();
  const figures = await load<ThroughputFigures>(task);
  const cpu = process.cpuUsage(cpuBefore);
  const wallSeconds = (Date.now() - startedAt) / 1000;
  const cpuPerSecond = (cpu.user + cpu.system) / 1000 / wallSeconds;
  return { era, concurrency, ...figures, serverCpuMsPerCall: round(cpuPerSecond / figures.callsPerSecond, 3) };
}

function memory(): { heapUsedMb: number; rssMb: number } {
  gc();
  gc();
  const usage = process.memoryUsage();
  return { heapUsedMb: round(usage.heapUsed / 2 ** 20, 1), rssMb: round(usage.rss / 2 ** 20, 1) };
}

/**
 * The yardstick for the figures above on this machine at this moment: the same load against the
 * SDK alone, one tool that echoes its argument, no middleware, no database.
 */
async function sdkBaselineServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const echo = z.object({ query: z.string() });
  const handler = toNodeHandler(
    createMcpHandler(() => {
      const server = new McpServer({ name: 'baseline', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.registerTool('search_endpoints', { inputSchema: echo }, async (args) => ({
        content: [{ type: 'text', text: args.query }],
      }));
      return server;
    }),
  );
  const server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function tearDown(): Promise<void> {
  loadGenerator.disconnect();
  await service.stop();
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  await client.end();
  await embedded?.stop();
  await rm(scratch, { recursive: true, force: true });
}

const overheadTask = {
  kind: 'overhead',
  url: service.url,
  apiKey: account.apiKey,
  runs: overheadRuns,
  warmup: 30,
  companyPage,
} as const;
if (overheadOnly) {
  const loadBefore = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const figures: OverheadFigures[] = [];
  for (let i = 0; i < overheadRounds; i += 1) {
    const measured = await load<OverheadFigures>(overheadTask);
    say(
      `round ${i + 1}: REST ${measured.restMedianMs} ms, REST with a key ${measured.restKeyedMedianMs} ms, call_operation ${measured.callOperationMedianMs} ms`,
    );
    figures.push(measured);
  }
  await tearDown();
  const middle = (pick: (f: OverheadFigures) => number) => {
    const sorted = figures.map(pick).sort((a, b) => a - b);
    return round(sorted[Math.floor(sorted.length / 2)] as number);
  };
  const lines = [
    `call_operation overhead only, ${new Date().toISOString()}, ${machineLine()}; load average ${loadBefore} before, ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} after`,
    '',
    `| round (${overheadRuns} calls each, interleaved) | REST median ms | REST with Idempotency-Key median ms | call_operation median ms | key's cost ms | call_operation overhead ms |`,
    '|---|---:|---:|---:|---:|---:|',
    ...figures.map(
      (f, i) =>
        `| ${i + 1} | ${f.restMedianMs} | ${f.restKeyedMedianMs} | ${f.callOperationMedianMs} | ${round(f.restKeyedMedianMs - f.restMedianMs)} | ${f.medianOverheadMs} |`,
    ),
    `| median of rounds | ${middle((f) => f.restMedianMs)} | ${middle((f) => f.restKeyedMedianMs)} | ${middle((f) => f.callOperationMedianMs)} | ${middle((f) => f.restKeyedMedianMs - f.restMedianMs)} | ${middle((f) => f.medianOverheadMs)} |`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  process.exit(0);
}

/**
 * Each era in rounds, each round the same load on: the yardstick (a trivial tool on the bare
 * SDK), search_endpoints on /mcp (API key) and on /mcp/v3 (OAuth access token), and a free
 * call_operation (getCreditBalance, which reads the account's balance from PostgreSQL) on /mcp.
 * Alternating, so that a change in the machine's other load falls on all alike; each figure is
 * the median of its rounds, and each ratio is taken against the yardstick of the same run.
 */
const rounds = Number(arg('rounds', '3'));
const oauthSurface = { path: '/mcp/v3', bearerToken: v3Token };
const freeCall = { tool: { name: 'call_operation', arguments: { operationId: 'getCreditBalance', payload: {} } } };
interface EraFigures {
  yardstick: Throughput;
  search: Throughput;
  oauth: Throughput;
  freeCall: Throughput;
}
async function measureEra(era: Era): Promise<EraFigures> {
  const runs: Record<keyof EraFigures, Throughput[]> = { yardstick: [], search: [], oauth: [], freeCall: [] };
  const yardstick = await sdkBaselineServer();
  try {
    for (let i = 0; i < rounds; i += 1) {
      runs.yardstick.push(await throughput(era, yardstick.url));
      runs.search.push(await throughput(era));
      runs.oauth.push(await throughput(era, service.url, oauthSurface));
      runs.freeCall.push(await throughput(era, service.url, freeCall));
    }
  } finally {
    await yardstick.close();
  }
  return {
    yardstick: median(runs.yardstick),
    search: median(runs.search),
    oauth: median(runs.oauth),
    freeCall: median(runs.freeCall),
  };
}
function median(runs: Throughput[]): Throughput {
  const sorted = [...runs].sort((a, b) => a.callsPerSecond - b.callsPerSecond);
  return sorted[Math.floor(sorted.length / 2)] as Throughput;
}
say(`${concurrency} concurrent clients, ${seconds} s per measure, ${rounds} rounds per era ...`);
const modern = await measureEra('modern');
const legacy = await measureEra('legacy');
const [searchModern, searchLegacy, v3Modern, v3Legacy] = [modern.search, legacy.search, modern.oauth, legacy.oauth];
const [baselineModern, baselineLegacy] = [modern.yardstick, legacy.yardstick];
const tokenCost = (v3: Throughput, key: Throughput) => round((1 - v3.callsPerSecond / key.callsPerSecond) * 100, 1);
const ofYardstick = (measured: Throughput, yardstick: Throughput) =>
  round((measured.callsPerSecond / yardstick.callsPerSecond) * 100, 1);
say('call_operation overhead over REST (companySearch, page of 25) ...');
const callOverhead = await load<OverheadFigures>(overheadTask);
say(`memory: 1,000 then ${memoryCalls.toLocaleString('en')} gateway calls ...`);
const mixTask = (calls: number): MixTask => ({
  kind: 'mix',
  url: service.url,
  apiKey: account.apiKey,
  concurrency,
  calls,
  queries,
});
await load<MixFigures>(mixTask(1_000));
const after1k = memory();
const mixed = await load<MixFigures>(mixTask(memoryCalls - 1_000));
const afterMany = memory();
const memorySeconds = mixed.seconds;

say('context cost of a search-to-call task ...');
const context = await measureContext(service.url, account.apiKey);

await tearDown();

const result = {
  benchmark: 'mcp',
  date: new Date().toISOString(),
  machine: machineLine(),
  directPath: directPathSetting,
  searchEndpoints: [searchModern, searchLegacy],
  searchEndpointsOAuth: [v3Modern, v3Legacy],
  freeCallOperation: [modern.freeCall, legacy.freeCall],
  oauthThroughputCostPercent: { modern: tokenCost(v3Modern, searchModern), legacy: tokenCost(v3Legacy, searchLegacy) },
  sdkTrivialToolBaseline: [baselineModern, baselineLegacy],
  percentOfYardstick: {
    searchEndpoints: {
      modern: ofYardstick(searchModern, baselineModern),
      legacy: ofYardstick(searchLegacy, baselineLegacy),
    },
    freeCallOperation: {
      modern: ofYardstick(modern.freeCall, baselineModern),
      legacy: ofYardstick(legacy.freeCall, baselineLegacy),
    },
  },
  callOperationOverhead: callOverhead,
  context,
  memory: {
    after1000Calls: after1k,
    [`after${memoryCalls}Calls`]: afterMany,
    heapGrowthMb: round(afterMany.heapUsedMb - after1k.heapUsedMb, 1),
    rssGrowthMb: round(afterMany.rssMb - after1k.rssMb, 1),
    mix: '80% search_endpoints, 10% get_endpoint_details_full, 10% call_operation getCreditBalance; half per era',
    callsPerSecond: Math.round((memoryCalls - 1_000) / memorySeconds),
  },
};
await mkdir('bench/results', { recursive: true });
await writeFile('bench/results/mcp.json', `${JSON.stringify(result, null, 2)}\n`);

const lines = [
  '#### MCP gateway (loopback, load generator in a separate process on the same machine)',
  '',
  `Direct path (src/mcp/fast-path.ts): ${directPathSetting}. Each figure is the median of ${rounds} rounds, the rounds of the yardstick and the measures alternating.`,
  '',
  '| measure | 2026-07-28 era | 2025 era (stateless) |',
  '|---|---:|---:|',
  `| yardstick: trivial tool on the bare SDK, calls/s | ${baselineModern.callsPerSecond} | ${baselineLegacy.callsPerSecond} |`,
  `| yardstick: server CPU ms per call | ${baselineModern.serverCpuMsPerCall} | ${baselineLegacy.serverCpuMsPerCall} |`,
  `| search_endpoints calls/s, ${concurrency} concurrent | ${searchModern.callsPerSecond} | ${searchLegacy.callsPerSecond} |`,
  `| search_endpoints, % of the yardstick's calls/s (goal ≥ 90 %) | ${ofYardstick(searchModern, baselineModern)} % | ${ofYardstick(searchLegacy, baselineLegacy)} % |`,
  `| search_endpoints p50 ms | ${searchModern.p50Ms} | ${searchLegacy.p50Ms} |`,
  `| search_endpoints p99 ms | ${searchModern.p99Ms} | ${searchLegacy.p99Ms} |`,
  `| search_endpoints server CPU ms per call | ${searchModern.serverCpuMsPerCall} | ${searchLegacy.serverCpuMsPerCall} |`,
  `| /mcp/v3 (OAuth token) search_endpoints calls/s, ${concurrency} concurrent | ${v3Modern.callsPerSecond} | ${v3Legacy.callsPerSecond} |`,
  `| /mcp/v3 p50 / p99 ms | ${v3Modern.p50Ms} / ${v3Modern.p99Ms} | ${v3Legacy.p50Ms} / ${v3Legacy.p99Ms} |`,
  `| /mcp/v3 server CPU ms per call | ${v3Modern.serverCpuMsPerCall} | ${v3Legacy.serverCpuMsPerCall} |`,
  `| throughput given up to token verification (/mcp/v3 against /mcp; goal ≤ 20 %) | ${tokenCost(v3Modern, searchModern)} % | ${tokenCost(v3Legacy, searchLegacy)} % |`,
  `| free call_operation (getCreditBalance) calls/s, ${concurrency} concurrent | ${modern.freeCall.callsPerSecond} | ${legacy.freeCall.callsPerSecond} |`,
  `| free call_operation p50 / p99 ms | ${modern.freeCall.p50Ms} / ${modern.freeCall.p99Ms} | ${legacy.freeCall.p50Ms} / ${legacy.freeCall.p99Ms} |`,
  `| free call_operation server CPU ms per call | ${modern.freeCall.serverCpuMsPerCall} | ${legacy.freeCall.serverCpuMsPerCall} |`,
  `| free call_operation, % of the yardstick's calls/s (goal ≥ 90 %) | ${ofYardstick(modern.freeCall, baselineModern)} % | ${ofYardstick(legacy.freeCall, baselineLegacy)} % |`,
  '',
  `| call_operation companySearch, page of 25 (${callOverhead.runs} runs each, interleaved) | median ms | p99 ms |`,
  '|---|---:|---:|',
  `| REST directly | ${callOverhead.restMedianMs} | ${callOverhead.restP99Ms} |`,
  `| REST directly with an Idempotency-Key (what each forward over HTTP used to carry) | ${callOverhead.restKeyedMedianMs} | ${callOverhead.restKeyedP99Ms} |`,
  `| through call_operation (2026-07-28) | ${callOverhead.callOperationMedianMs} | ${callOverhead.callOperationP99Ms} |`,
  `| overhead of call_operation over REST directly (goal ≤ 0.5 ms) | ${callOverhead.medianOverheadMs} ms (ratio ${callOverhead.ratio}) | |`,
  '',
  ...contextTable(context),
  '',
  '| memory (after GC) | heap used MB | RSS MB |',
  '|---|---:|---:|',
  `| after 1,000 calls | ${after1k.heapUsedMb} | ${after1k.rssMb} |`,
  `| after ${memoryCalls.toLocaleString('en')} calls | ${afterMany.heapUsedMb} | ${afterMany.rssMb} |`,
  '',
];
process.stdout.write(`${lines.join('\n')}\n`);
