import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import pg from 'pg';
import { Pool } from 'undici';
import { z } from 'zod';
import { loadConfig } from '../src/config.js';
import { createAccount } from '../src/core/accounts.js';
import { createLogger } from '../src/log.js';
import { seedCatalog } from '../src/seed/load.js';
import { startService } from '../src/service.js';
import { openDatabase } from '../src/store/db.js';
import { startEmbeddedPostgres, type EmbeddedServer } from '../src/store/embedded.js';
import { migrate } from '../src/store/migrate.js';
import { arg, machineLine, percentile, round } from './lib.js';

/**
 * The MCP gateway under load, on loopback, load generator in the same process:
 *  - search_endpoints calls per second and p50/p99 latency at 50 concurrent clients, in each
 *    protocol era (2026-07-28 requests with the per-request envelope; 2025-era stateless requests);
 *  - the overhead of call_operation for companySearch (a page of 25) over calling the REST API
 *    directly, one call at a time, interleaved;
 *  - memory (heap after GC, RSS) after 1,000 gateway calls and after 100,000.
 *
 *   node dist/bench/mcp.js [--seconds 10] [--concurrency 50] [--calls 100000]
 * Uses DATABASE_URL's server when set (a fresh database is created on it), else embedded PostgreSQL.
 */
const seconds = Number(arg('seconds', '10'));
const concurrency = Number(arg('concurrency', '50'));
const memoryCalls = Number(arg('calls', '100000'));
const overheadRuns = Number(arg('runs', '300'));

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
  embedded = await startEmbeddedPostgres(path.join(scratch, 'pg'), log);
  adminUrl = embedded.connectionString;
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
  }),
  { log },
);
const account = await createAccount(service.context.db, { name: 'mcp bench', plan: 'enterprise', initialCredits: 1_000_000_000 });
const pool = new Pool(service.url, { connections: concurrency, keepAliveTimeout: 30_000 });

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

type Era = 'modern' | 'legacy';
let nextId = 1;

/** One tools/call as the official clients send it in each era (the 2026-07-28 one carries the envelope and its headers). */
function toolCall(era: Era, name: string, args: Record<string, unknown>): { headers: Record<string, string>; body: string } {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'x-api-key': account.apiKey,
  };
  const params: Record<string, unknown> = { name, arguments: args };
  if (era === 'modern') {
    Object.assign(headers, { 'mcp-method': 'tools/call', 'mcp-name': name, 'mcp-protocol-version': '2026-07-28' });
    params._meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
  }
  return { headers, body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params }) };
}

async function mcpCall(era: Era, name: string, args: Record<string, unknown>, target: Pool = pool): Promise<void> {
  const { headers, body } = toolCall(era, name, args);
  const response = await target.request({ method: 'POST', path: '/mcp', headers, body });
  const text = await response.body.text();
  if (response.statusCode !== 200 || !text.includes('"result"') || text.includes('"isError":true')) {
    throw new Error(`${name} (${era}) answered ${response.statusCode}: ${text.slice(0, 300)}`);
  }
}

async function restCompanySearch(): Promise<void> {
  const response = await pool.request({
    method: 'POST',
    path: '/v1/company-search',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey: account.apiKey, ...companyPage }),
  });
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`company-search answered ${response.statusCode}: ${text.slice(0, 300)}`);
}

interface Throughput {
  era: Era;
  concurrency: number;
  seconds: number;
  calls: number;
  callsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU time of this process (server and load generator) per call: unlike calls/s, not skewed by other work on the machine. */
  cpuMsPerCall: number;
}

async function throughput(era: Era, target: Pool = pool): Promise<Throughput> {
  const run = async (durationMs: number, samples: number[] | null) => {
    const until = Date.now() + durationMs;
    let calls = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async (_, worker) => {
        let i = worker;
        while (Date.now() < until) {
          const started = process.hrtime.bigint();
          await mcpCall(era, 'search_endpoints', { query: queries[i++ % queries.length] }, target);
          samples?.push(Number(process.hrtime.bigint() - started) / 1e6);
          calls += 1;
        }
      }),
    );
    return calls;
  };
  await run(2000, null);
  const samples: number[] = [];
  const started = Date.now();
  const cpuBefore = process.cpuUsage();
  const calls = await run(seconds * 1000, samples);
  const cpu = process.cpuUsage(cpuBefore);
  const elapsed = (Date.now() - started) / 1000;
  samples.sort((a, b) => a - b);
  return {
    era, concurrency, seconds: round(elapsed, 1), calls, callsPerSecond: Math.round(calls / elapsed),
    p50Ms: round(percentile(samples, 50)), p99Ms: round(percentile(samples, 99)), cpuMsPerCall: round((cpu.user + cpu.system) / 1000 / calls, 3),
  };
}

const companyPage = { searchParams: { headquartersCountryCode: ['US'] }, pageSize: 25 };

async function overhead(): Promise<Record<string, number>> {
  const rest: number[] = [];
  const gateway: number[] = [];
  const time = async (work: () => Promise<void>, into: number[] | null) => {
    const started = process.hrtime.bigint();
    await work();
    into?.push(Number(process.hrtime.bigint() - started) / 1e6);
  };
  const viaMcp = () => mcpCall('modern', 'call_operation', { operationId: 'companySearch', payload: companyPage });
  for (let i = 0; i < 30; i++) {
    await time(restCompanySearch, null);
    await time(viaMcp, null);
  }
  for (let i = 0; i < overheadRuns; i++) {
    await time(restCompanySearch, rest);
    await time(viaMcp, gateway);
  }
  rest.sort((a, b) => a - b);
  gateway.sort((a, b) => a - b);
  const restMedian = percentile(rest, 50);
  const gatewayMedian = percentile(gateway, 50);
  return {
    runs: overheadRuns,
    restMedianMs: round(restMedian),
    restP99Ms: round(percentile(rest, 99)),
    callOperationMedianMs: round(gatewayMedian),
    callOperationP99Ms: round(percentile(gateway, 99)),
    medianOverheadMs: round(gatewayMedian - restMedian),
    ratio: round(gatewayMedian / restMedian),
  };
}

/** A mix of what agents send: mostly searches, some details and free calls through the gateway, both eras. */
async function mixedCalls(count: number): Promise<void> {
  let issued = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (issued < count) {
        const i = issued++;
        const era: Era = i % 2 === 0 ? 'modern' : 'legacy';
        if (i % 10 === 8) await mcpCall(era, 'get_endpoint_details_full', { operationId: 'peopleSearch' });
        else if (i % 10 === 9) await mcpCall(era, 'call_operation', { operationId: 'getCreditBalance', payload: {} });
        else await mcpCall(era, 'search_endpoints', { query: queries[i % queries.length] });
      }
    }),
  );
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
async function sdkBaseline(era: Era): Promise<Throughput> {
  const echo = z.object({ query: z.string() });
  const handler = toNodeHandler(
    createMcpHandler(() => {
      const server = new McpServer({ name: 'baseline', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.registerTool('search_endpoints', { inputSchema: echo }, async (args) => ({ content: [{ type: 'text', text: args.query }] }));
      return server;
    }),
  );
  const server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const target = new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { connections: concurrency });
  try {
    return await throughput(era, target);
  } finally {
    await target.close();
    await new Promise((resolve) => server.close(resolve));
  }
}

say(`search_endpoints, ${concurrency} concurrent clients, ${seconds} s per era ...`);
const searchModern = await throughput('modern');
const searchLegacy = await throughput('legacy');
say('the same load against a trivial tool on the bare SDK (yardstick) ...');
const baselineModern = await sdkBaseline('modern');
const baselineLegacy = await sdkBaseline('legacy');
say('call_operation overhead over REST (companySearch, page of 25) ...');
const callOverhead = await overhead();
say(`memory: 1,000 then ${memoryCalls.toLocaleString('en')} gateway calls ...`);
await mixedCalls(1_000);
const after1k = memory();
const memoryStarted = Date.now();
await mixedCalls(memoryCalls - 1_000);
const afterMany = memory();
const memorySeconds = round((Date.now() - memoryStarted) / 1000, 1);

await pool.close();
await service.stop();
{
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  await client.end();
}
await embedded?.stop();
await rm(scratch, { recursive: true, force: true });

const result = {
  benchmark: 'mcp',
  date: new Date().toISOString(),
  machine: machineLine(),
  searchEndpoints: [searchModern, searchLegacy],
  sdkTrivialToolBaseline: [baselineModern, baselineLegacy],
  callOperationOverhead: callOverhead,
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
  '#### MCP gateway (loopback, load generator in the same process)',
  '',
  '| measure | 2026-07-28 era | 2025 era (stateless) |',
  '|---|---:|---:|',
  `| search_endpoints calls/s, ${concurrency} concurrent | ${searchModern.callsPerSecond} | ${searchLegacy.callsPerSecond} |`,
  `| search_endpoints p50 ms | ${searchModern.p50Ms} | ${searchLegacy.p50Ms} |`,
  `| search_endpoints p99 ms | ${searchModern.p99Ms} | ${searchLegacy.p99Ms} |`,
  `| search_endpoints CPU ms per call (server + load generator) | ${searchModern.cpuMsPerCall} | ${searchLegacy.cpuMsPerCall} |`,
  `| yardstick: trivial tool on the bare SDK, calls/s | ${baselineModern.callsPerSecond} | ${baselineLegacy.callsPerSecond} |`,
  `| yardstick: CPU ms per call | ${baselineModern.cpuMsPerCall} | ${baselineLegacy.cpuMsPerCall} |`,
  '',
  `| call_operation companySearch, page of 25 (${callOverhead.runs} runs each, interleaved) | median ms | p99 ms |`,
  '|---|---:|---:|',
  `| REST directly | ${callOverhead.restMedianMs} | ${callOverhead.restP99Ms} |`,
  `| through call_operation (2026-07-28) | ${callOverhead.callOperationMedianMs} | ${callOverhead.callOperationP99Ms} |`,
  `| overhead | ${callOverhead.medianOverheadMs} ms (ratio ${callOverhead.ratio}) | |`,
  '',
  '| memory (after GC) | heap used MB | RSS MB |',
  '|---|---:|---:|',
  `| after 1,000 calls | ${after1k.heapUsedMb} | ${after1k.rssMb} |`,
  `| after ${memoryCalls.toLocaleString('en')} calls | ${afterMany.heapUsedMb} | ${afterMany.rssMb} |`,
  '',
];
process.stdout.write(`${lines.join('\n')}\n`);
