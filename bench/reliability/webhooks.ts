import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { createAccount } from '../../src/core/accounts.js';
import { createLogger } from '../../src/log.js';
import { openDatabase } from '../../src/store/db.js';
import { arg, openBenchDatabase, round } from '../lib.js';
import { freePort } from '../free-port.js';
import { startServiceProcess, type ServiceProcess } from './service-process.js';

/**
 * Webhooks delivered at least once through a receiver that goes down and a service killed with
 * SIGKILL in the middle of its deliveries. Each round starts work that ends in an event (test
 * events, an audience build, an export, a saved-search run, a charge that takes the balance below
 * the account's threshold); some rounds take the receiver down (connections refused) for a while,
 * the others kill the service once deliveries are in flight at the receiver and start it again on
 * the same database. When everything has settled, every event of the outbox must have reached the
 * receiver (lost: 0), every piece of finished work must have its one event (work without event: 0),
 * a request received twice must carry the same webhook-id and body, and every signature must verify
 * with the standardwebhooks library.
 */
const reduced = process.argv.includes('--ci');
const rounds = Number(arg('rounds', reduced ? '4' : '10'));
const testEventsPerRound = Number(arg('events', reduced ? '12' : '40'));
const downSeconds = Number(arg('down', reduced ? '5' : '15'));
const seed = Number(arg('seed', String(Math.floor(Math.random() * 2 ** 31))));
const random = mulberry32(seed);
const log = createLogger('warn');

const database = await openBenchDatabase({ name: 'webhooks', companies: 1000, people: 8000, reuse: false, log });
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pds-rel-webhooks-'));
const port = await freePort();
const db = openDatabase(database.url, 3);
/** Waits between the attempts of a delivery: about 80 s in all, longer than the receiver is ever down. */
const retrySchedule = ['250ms', '500ms', '1s', '2s', ...Array.from({ length: 25 }, () => '3s')].join(',');
const env: Record<string, string> = {
  DATABASE_URL: database.url,
  PORT: String(port),
  DEMO_CREDITS: '0',
  JOB_POLL_INTERVAL_MS: '50',
  JOB_CONCURRENCY: '2',
  JOB_LEASE_SECONDS: '2',
  JOB_RETRY_BASE_MS: '500',
  WEBHOOK_DELIVERY_CONCURRENCY: '4',
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_TIMEOUT_MS: '2000',
  // 400 test events for one endpoint: the scenario is about delivery, not the bound on test events.
  WEBHOOK_MANUAL_DELIVERIES_PER_HOUR: '100000',
  WEBHOOK_RETRY_SCHEDULE: retrySchedule,
  ACCOUNT_CONCURRENT_REQUESTS: '64',
  RATE_LIMIT_SEARCH_PER_MINUTE: '1000000',
  RATE_LIMIT_HEAVY_PER_MINUTE: '1000000',
  RATE_LIMIT_STANDARD_PER_MINUTE: '1000000',
  RATE_LIMIT_STATUS_PER_MINUTE: '1000000',
};

const receiver = await startReceiver();
let service: ServiceProcess = await startServiceProcess(env, dataDir);
const account = await createAccount(db, { name: 'webhooks', plan: 'pro', initialCredits: 10_000_000 });
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
        signal: AbortSignal.timeout(30_000),
      });
      const parsed = (await response.json()) as { output: Output };
      if (response.status >= 300)
        throw new Error(`${method} ${pathAndQuery}: ${response.status} ${JSON.stringify(parsed)}`);
      return parsed.output;
    } catch (error) {
      // A call that met a kill: the same call again once the service is back.
      if (
        attempt > 100 ||
        !/fetch failed|ECONNREFUSED|ECONNRESET|other side closed/.test(String((error as Error).cause ?? error))
      )
        throw error;
      await sleep(200);
    }
  }
}

const started = Date.now();
let failed = false;
try {
  const endpoint = await call('POST', '/v1/webhook-endpoints', {
    url: `${receiver.url}/events`,
    events: [
      'audience.build.completed',
      'audience.build.failed',
      'export.ready',
      'saved_search.new_matches',
      'credits.low',
    ],
    description: 'reliability scenario',
  });
  const secret = endpoint.secret as string;
  const endpointId = endpoint.webhookEndpointId as string;
  const savedSearchIds: string[] = [];
  for (let i = 0; i < rounds; i++) {
    const saved = await call('POST', '/v1/saved-searches', {
      name: `Watched ${i}`,
      kind: 'people',
      peopleSearchParams: { jobTitleV2: { included: ['Engineer'], excluded: [] } },
      maxNewRecordsPerRun: 5,
    });
    savedSearchIds.push(saved.savedSearchId as string);
  }

  const kills = { total: 0, midDelivery: 0 };
  let downFor = 0;
  const builtAudiences: string[] = [];
  let crossings = 0;
  for (let round = 0; round < rounds; round++) {
    // Some rounds take the receiver down: what happens meanwhile is delivered once it is back.
    const down = round % 3 === 1;
    if (down) receiver.goDown();
    const downSince = Date.now();
    const work: Array<Promise<unknown>> = [];
    for (let i = 0; i < testEventsPerRound; i++)
      work.push(call('POST', `/v1/webhook-endpoints/${endpointId}/test`, {}));
    work.push(
      (async () => {
        const created = await call('POST', '/v1/audiences/create', { name: `Round ${round}` });
        const id = created.audienceId as string;
        await call('PATCH', `/v1/audiences/${id}/search-params`, {
          companySearchParams: { headquartersCountryCode: ['US'] },
          maxCompanies: 5,
          maxProspects: 20,
        });
        await call('POST', `/v1/audiences/${id}/build`, {});
        builtAudiences.push(id);
      })(),
    );
    const built = builtAudiences[round - 1];
    if (built) work.push(call('POST', `/v1/audiences/${built}/export/prospects`, {}).catch(() => undefined));
    work.push(call('POST', `/v1/saved-searches/${savedSearchIds[round]}/runs`, { maxNewRecords: 5 }));
    await Promise.all(work);
    // The threshold at the balance: the next charge (this search, or a build settling first) takes the balance below
    // it, and writes credits.low in its own statement; the charges after it, below already, write none. A build that
    // settles between the read and the setting leaves the balance below the threshold set: set it again.
    for (;;) {
      const balance = (await call('GET', '/v1/credits')).balance as number;
      const set = await call('PUT', '/v1/credits/low-balance-threshold', { lowBalanceThreshold: balance });
      if (!set.belowThreshold) break;
    }
    await call('POST', '/v1/company-search', { pageSize: 1, searchParams: {} });
    crossings += 1;
    if (down) {
      const left = downSeconds * 1000 - (Date.now() - downSince);
      if (left > 0) await sleep(left);
      downFor += Date.now() - downSince;
      receiver.comeBack();
    } else {
      // The kill lands once the receiver holds deliveries in flight (it answers each after a short wait), at a random
      // point of the next half second.
      const inFlight = await receiver.inFlight(15_000);
      await sleep(Math.floor(random() * 500));
      if (inFlight && receiver.pending() > 0) kills.midDelivery += 1;
      await service.stop('SIGKILL');
      kills.total += 1;
      service = await startServiceProcess(env, dataDir);
    }
  }

  // Everything settles: work finishes, every delivery is delivered (or, a failure, given up).
  const settleStart = Date.now();
  await waitUntil(
    'every job and delivery to settle',
    async () => {
      const left = await db.pool.query<{ jobs: number; deliveries: number }>(
        `SELECT (SELECT count(*) FROM jobs WHERE account_id = $1 AND status IN ('queued', 'running'))::int AS jobs,
                (SELECT count(*) FROM webhook_deliveries WHERE account_id = $1 AND status = 'pending')::int AS deliveries`,
        [account.account.id],
      );
      return left.rows[0]?.jobs === 0 && left.rows[0]?.deliveries === 0;
    },
    reduced ? 60_000 : 150_000,
  ).catch((error: unknown) => process.stderr.write(`${(error as Error).message}\n`));
  const settledIn = Date.now() - settleStart;

  // What the receiver got, verified as a receiver would.
  const byId = new Map<string, { bodies: Set<string>; count: number; type: string; data: Output }>();
  let badSignatures = 0;
  for (const request of receiver.received) {
    let payload: { type: string; data: Output };
    try {
      payload = new Webhook(secret).verify(request.body, request.headers) as { type: string; data: Output };
    } catch {
      badSignatures += 1;
      continue;
    }
    const id = request.headers['webhook-id'] as string;
    const seen = byId.get(id) ?? { bodies: new Set<string>(), count: 0, type: payload.type, data: payload.data };
    seen.bodies.add(request.body);
    seen.count += 1;
    byId.set(id, seen);
  }
  const events = await db.pool.query<{ message_id: string; type: string; payload: { data: Output } }>(
    'SELECT message_id, type, payload FROM webhook_events WHERE account_id = $1 ORDER BY id',
    [account.account.id],
  );
  const lost = events.rows.filter((e) => !byId.has(e.message_id));
  const unknown = [...byId.keys()].filter((id) => !events.rows.some((e) => e.message_id === id));
  const repeated = [...byId.values()].filter((r) => r.count > 1);
  const inconsistent = [...byId.values()].filter((r) => r.bodies.size > 1).length;
  const deliveries = await db.pool.query<{ status: string; n: number }>(
    'SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE account_id = $1 GROUP BY status',
    [account.account.id],
  );
  const deliveryCounts = Object.fromEntries(deliveries.rows.map((r) => [r.status, r.n]));

  // Finished work and its one event each: the outbox is written with the change, whatever the kills.
  const eventsOf = (type: string, key: string) => {
    const counts = new Map<string, number>();
    for (const e of events.rows.filter((row) => row.type === type)) {
      const id = String(e.payload.data[key]);
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
  };
  const missing: string[] = [];
  const twice: string[] = [];
  const expectOne = (what: string, ids: string[], counts: Map<string, number>) => {
    for (const id of ids) {
      const n = counts.get(id) ?? 0;
      if (n === 0) missing.push(`${what} ${id}`);
      if (n > 1) twice.push(`${what} ${id} (${n} events)`);
    }
    for (const [id] of counts) if (!ids.includes(id)) twice.push(`${what} ${id}: an event without the work`);
  };
  const audiences = await db.pool.query<{ id: number; status: string }>(
    'SELECT id, status FROM audiences WHERE account_id = $1',
    [account.account.id],
  );
  expectOne(
    'built audience',
    audiences.rows.filter((a) => a.status === 'NORMAL').map((a) => String(a.id)),
    eventsOf('audience.build.completed', 'audienceId'),
  );
  expectOne(
    'failed build',
    audiences.rows.filter((a) => a.status === 'FAILED').map((a) => String(a.id)),
    eventsOf('audience.build.failed', 'audienceId'),
  );
  const exports = await db.pool.query<{ id: number }>(
    `SELECT id FROM audience_exports WHERE account_id = $1 AND status = 'READY'`,
    [account.account.id],
  );
  expectOne(
    'ready export',
    exports.rows.map((e) => String(e.id)),
    eventsOf('export.ready', 'exportId'),
  );
  const runs = await db.pool.query<{ id: number }>(
    `SELECT id FROM saved_search_runs WHERE account_id = $1 AND status = 'DONE' AND new_records > 0`,
    [account.account.id],
  );
  expectOne(
    'saved-search run with new records',
    runs.rows.map((r) => String(r.id)),
    eventsOf('saved_search.new_matches', 'runId'),
  );
  const lowEvents = events.rows.filter((e) => e.type === 'credits.low');
  if (lowEvents.length !== crossings)
    twice.push(`${crossings} crossings of the threshold, ${lowEvents.length} credits.low events`);
  for (const e of lowEvents)
    if (!((e.payload.data.balance as number) < (e.payload.data.lowBalanceThreshold as number)))
      twice.push(
        `credits.low at ${String(e.payload.data.balance)}, not below ${String(e.payload.data.lowBalanceThreshold)}`,
      );
  const stuckWork = audiences.rows.filter((a) => a.status === 'BUILDING').length;
  const testEvents = events.rows.filter((e) => e.type === 'webhook.test').length;
  const workEvents = events.rows.length - testEvents;
  const extraRequests = repeated.reduce((sum, r) => sum + r.count - 1, 0);

  const lines = [
    `${rounds} rounds; each starts ${testEventsPerRound} test events, an audience build (5 companies, 20 prospects), an export of the previous`,
    "round's audience, a saved-search run and a charge that takes the balance below the low-balance threshold, all for one endpoint on a",
    `receiver over loopback that answers each request after 50 to 300 ms. In ${rounds - kills.total} of the rounds the receiver is down (connections refused)`,
    `for ${downSeconds} s while the work goes on; in the other ${kills.total} the service is killed with SIGKILL once the receiver holds deliveries in flight,`,
    `at a random point of the next half second (seed ${seed}: \`--seed ${seed}\` replays the same points), and started again on the same`,
    'database. Deliveries are retried after 250 ms, 500 ms, 1 s, 2 s, then every 3 s (about 80 s in all, WEBHOOK_RETRY_SCHEDULE); leases of',
    '2 s, 4 delivery slots; 1,000 companies, 8,000 people, on the embedded PostgreSQL.',
    '',
    '| measure | value |',
    '|---|---|',
    `| events written (outbox) | ${events.rows.length} (${testEvents} test events, ${workEvents} of finished work) |`,
    `| kills with SIGKILL (with deliveries in flight at the receiver) | ${kills.total} (${kills.midDelivery}) |`,
    `| receiver down | ${round(downFor / 1000, 1)} s in all |`,
    `| requests received (each answered 200) | ${receiver.received.length} |`,
    `| events received more than once (same webhook-id, same body) | ${repeated.length} (${extraRequests} extra requests) |`,
    `| deliveries by status once settled | ${JSON.stringify(deliveryCounts)} |`,
    `| everything delivered, after the last restart or outage | ${round(settledIn / 1000, 1)} s |`,
    '',
    `Lost (written, never received): **${lost.length}** (must be 0). Received twice with different bodies: **${inconsistent}** (must be 0).`,
    `Work finished without its event: **${missing.length}**; work with more than one event, or an event without its work: **${twice.length}** (must be 0).`,
    `Signatures that did not verify with the standardwebhooks library: **${badSignatures}** (must be 0). Requests with an unknown webhook-id: **${unknown.length}** (must be 0).`,
    `Deliveries not delivered: **${(deliveryCounts.pending ?? 0) + (deliveryCounts.failed ?? 0)}** (must be 0). Builds stuck: **${stuckWork}** (must be 0).`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const failures: string[] = [];
  if (lost.length)
    failures.push(
      `${lost.length} events lost: ${lost
        .slice(0, 5)
        .map((e) => `${e.type} ${e.message_id}`)
        .join(', ')}`,
    );
  if (inconsistent) failures.push(`${inconsistent} webhook-ids with different bodies`);
  if (missing.length) failures.push(`work without its event: ${missing.join('; ')}`);
  if (twice.length) failures.push(`work with a wrong number of events: ${twice.join('; ')}`);
  if (badSignatures) failures.push(`${badSignatures} bad signatures`);
  if (unknown.length) failures.push(`${unknown.length} unknown webhook-ids`);
  if ((deliveryCounts.pending ?? 0) + (deliveryCounts.failed ?? 0))
    failures.push(`deliveries not delivered: ${JSON.stringify(deliveryCounts)}`);
  if (stuckWork) failures.push(`${stuckWork} builds stuck`);
  if (failures.length) {
    failed = true;
    process.stderr.write(`FAILED: ${failures.join('\n')}\n${service.recentOutput().slice(-3000)}\n`);
  }
  process.stderr.write(`webhooks: ${round((Date.now() - started) / 1000, 1)} s\n`);
} finally {
  await service.stop('SIGTERM').catch(() => undefined);
  await receiver.close();
  await db.close();
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
}
if (failed) process.exitCode = 1;

interface Received {
  headers: Record<string, string>;
  body: string;
}

/** The receiver: records every request, answers 200 after 50 to 300 ms; down, it refuses connections. */
async function startReceiver() {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  let pending = 0;
  const waiters = new Set<() => void>();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    pending += 1;
    for (const wake of waiters) wake();
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      setTimeout(
        () => {
          pending -= 1;
          received.push({
            headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
            body: Buffer.concat(chunks).toString('utf8'),
          });
          res.writeHead(200).end('ok');
        },
        50 + Math.floor(random() * 250),
      );
    });
  };
  let server: Server = createServer(handler);
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  server.on('connection', track);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const receiverPort = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${receiverPort}`,
    received,
    pending: () => pending,
    /** Resolves true once a request is in flight (false after `timeoutMs`). */
    inFlight: (timeoutMs: number) =>
      new Promise<boolean>((resolve) => {
        if (pending > 0) return resolve(true);
        const timer = setTimeout(() => {
          waiters.delete(wake);
          resolve(false);
        }, timeoutMs);
        const wake = () => {
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(true);
        };
        waiters.add(wake);
      }),
    goDown: () => {
      server.close();
      for (const socket of sockets) socket.destroy();
    },
    comeBack: () => {
      server = createServer(handler);
      server.on('connection', track);
      server.listen(receiverPort, '127.0.0.1');
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
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
