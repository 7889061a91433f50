import { Pool } from 'undici';
import { percentile, round } from './lib.js';

/**
 * The MCP benchmark's load generator, run as a process of its own (forked by bench/mcp.ts) so
 * that the server under test keeps its event loop and the figures measure the server, not the
 * client sharing its thread. It receives one task over IPC, runs it and sends the figures back.
 */

export type Era = 'modern' | 'legacy';

export interface ThroughputTask {
  kind: 'throughput';
  url: string;
  apiKey: string;
  /** The MCP surface (default /mcp); with `bearerToken`, /mcp/v3 and its OAuth access token instead of the key. */
  path?: string;
  bearerToken?: string;
  era: Era;
  concurrency: number;
  seconds: number;
  warmupSeconds: number;
  queries: string[];
  /** Another tool than search_endpoints, called with these arguments every time (a free call_operation). */
  tool?: { name: string; arguments: Record<string, unknown> };
}

export interface OverheadTask {
  kind: 'overhead';
  url: string;
  apiKey: string;
  runs: number;
  warmup: number;
  companyPage: Record<string, unknown>;
}

export interface MixTask {
  kind: 'mix';
  url: string;
  apiKey: string;
  concurrency: number;
  calls: number;
  queries: string[];
}

export type LoadTask = ThroughputTask | OverheadTask | MixTask;

export interface ThroughputFigures {
  calls: number;
  seconds: number;
  callsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export interface OverheadFigures {
  runs: number;
  restMedianMs: number;
  restP99Ms: number;
  /** The same REST call with a new Idempotency-Key each time (what the gateway's forward sends). */
  restKeyedMedianMs: number;
  restKeyedP99Ms: number;
  callOperationMedianMs: number;
  callOperationP99Ms: number;
  medianOverheadMs: number;
  ratio: number;
}

export interface MixFigures {
  calls: number;
  seconds: number;
}

let nextId = 1;

/** One tools/call as the official clients send it in each era (the 2026-07-28 one carries the envelope and its headers). */
function toolCall(
  apiKey: string,
  era: Era,
  name: string,
  args: Record<string, unknown>,
  bearerToken?: string,
): { headers: Record<string, string>; body: string } {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...(bearerToken ? { authorization: `Bearer ${bearerToken}` } : { 'x-api-key': apiKey }),
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

async function mcpCall(
  pool: Pool,
  apiKey: string,
  era: Era,
  name: string,
  args: Record<string, unknown>,
  surface?: { path?: string; bearerToken?: string },
): Promise<void> {
  const { headers, body } = toolCall(apiKey, era, name, args, surface?.bearerToken);
  const response = await pool.request({ method: 'POST', path: surface?.path ?? '/mcp', headers, body });
  const text = await response.body.text();
  if (response.statusCode !== 200 || !text.includes('"result"') || text.includes('"isError":true')) {
    throw new Error(`${name} (${era}) answered ${response.statusCode}: ${text.slice(0, 300)}`);
  }
}

async function throughput(task: ThroughputTask): Promise<ThroughputFigures> {
  const pool = new Pool(task.url, { connections: task.concurrency, keepAliveTimeout: 30_000 });
  const run = async (durationMs: number, samples: number[] | null) => {
    const until = Date.now() + durationMs;
    let calls = 0;
    await Promise.all(
      Array.from({ length: task.concurrency }, async (_, worker) => {
        let i = worker;
        while (Date.now() < until) {
          const started = process.hrtime.bigint();
          await mcpCall(
            pool,
            task.apiKey,
            task.era,
            task.tool?.name ?? 'search_endpoints',
            task.tool?.arguments ?? { query: task.queries[i++ % task.queries.length] },
            task,
          );
          samples?.push(Number(process.hrtime.bigint() - started) / 1e6);
          calls += 1;
        }
      }),
    );
    return calls;
  };
  try {
    await run(task.warmupSeconds * 1000, null);
    const samples: number[] = [];
    const started = Date.now();
    const calls = await run(task.seconds * 1000, samples);
    const elapsed = (Date.now() - started) / 1000;
    samples.sort((a, b) => a - b);
    return {
      calls,
      seconds: round(elapsed, 1),
      callsPerSecond: Math.round(calls / elapsed),
      p50Ms: round(percentile(samples, 50)),
      p99Ms: round(percentile(samples, 99)),
    };
  } finally {
    await pool.close();
  }
}

/** One call at a time, REST and call_operation interleaved, so both see the same machine. */
async function overhead(task: OverheadTask): Promise<OverheadFigures> {
  const pool = new Pool(task.url, { connections: 2, keepAliveTimeout: 30_000 });
  const rest: number[] = [];
  const restKeyed: number[] = [];
  const gateway: number[] = [];
  let keys = 0;
  const restCompanySearch = async (keyed = false) => {
    const response = await pool.request({
      method: 'POST',
      path: '/v1/company-search',
      headers: {
        'content-type': 'application/json',
        ...(keyed ? { 'idempotency-key': `bench-${process.pid}-${Date.now()}-${keys++}` } : {}),
      },
      body: JSON.stringify({ apiKey: task.apiKey, ...task.companyPage }),
    });
    const text = await response.body.text();
    if (response.statusCode !== 200)
      throw new Error(`company-search answered ${response.statusCode}: ${text.slice(0, 300)}`);
  };
  const viaMcp = () =>
    mcpCall(pool, task.apiKey, 'modern', 'call_operation', { operationId: 'companySearch', payload: task.companyPage });
  const time = async (work: () => Promise<void>, into: number[] | null) => {
    const started = process.hrtime.bigint();
    await work();
    into?.push(Number(process.hrtime.bigint() - started) / 1e6);
  };
  try {
    for (let i = 0; i < task.warmup; i++) {
      await time(restCompanySearch, null);
      await time(() => restCompanySearch(true), null);
      await time(viaMcp, null);
    }
    for (let i = 0; i < task.runs; i++) {
      await time(restCompanySearch, rest);
      await time(() => restCompanySearch(true), restKeyed);
      await time(viaMcp, gateway);
    }
  } finally {
    await pool.close();
  }
  rest.sort((a, b) => a - b);
  restKeyed.sort((a, b) => a - b);
  gateway.sort((a, b) => a - b);
  const restMedian = percentile(rest, 50);
  const gatewayMedian = percentile(gateway, 50);
  return {
    runs: task.runs,
    restMedianMs: round(restMedian),
    restP99Ms: round(percentile(rest, 99)),
    restKeyedMedianMs: round(percentile(restKeyed, 50)),
    restKeyedP99Ms: round(percentile(restKeyed, 99)),
    callOperationMedianMs: round(gatewayMedian),
    callOperationP99Ms: round(percentile(gateway, 99)),
    medianOverheadMs: round(gatewayMedian - restMedian),
    ratio: round(gatewayMedian / restMedian),
  };
}

/** A mix of what agents send: mostly searches, some details and free calls through the gateway, both eras. */
async function mix(task: MixTask): Promise<MixFigures> {
  const pool = new Pool(task.url, { connections: task.concurrency, keepAliveTimeout: 30_000 });
  const started = Date.now();
  let issued = 0;
  try {
    await Promise.all(
      Array.from({ length: task.concurrency }, async () => {
        while (issued < task.calls) {
          const i = issued++;
          const era: Era = i % 2 === 0 ? 'modern' : 'legacy';
          if (i % 10 === 8)
            await mcpCall(pool, task.apiKey, era, 'get_endpoint_details_full', { operationId: 'peopleSearch' });
          else if (i % 10 === 9)
            await mcpCall(pool, task.apiKey, era, 'call_operation', { operationId: 'getCreditBalance', payload: {} });
          else
            await mcpCall(pool, task.apiKey, era, 'search_endpoints', { query: task.queries[i % task.queries.length] });
        }
      }),
    );
  } finally {
    await pool.close();
  }
  return { calls: task.calls, seconds: round((Date.now() - started) / 1000, 1) };
}

async function runTask(task: LoadTask): Promise<unknown> {
  switch (task.kind) {
    case 'throughput':
      return throughput(task);
    case 'overhead':
      return overhead(task);
    case 'mix':
      return mix(task);
  }
}

if (process.send) {
  process.on('message', (task: LoadTask) => {
    runTask(task).then(
      (figures) => process.send?.({ ok: true, figures }),
      (error: unknown) =>
        process.send?.({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    );
  });
}
