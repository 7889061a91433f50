import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createAccount } from '../../src/core/accounts.js';
import { createLogger } from '../../src/log.js';
import { openDatabase } from '../../src/store/db.js';
import { arg, openBenchDatabase, round } from '../lib.js';
import { freePort } from '../free-port.js';
import { startServiceProcess, type ServiceProcess } from './service-process.js';

/**
 * Watch-list checks killed with SIGKILL: people and company lists checked every simulated day on
 * a fast network clock (the simulated source drifting), with the source's latency simulated so
 * that the kills land inside batches, the service killed at random points and started again on
 * the same database. When everything has settled: every check charged once (the ledger's sum for
 * watch-list checks equal to the items the recorded checks checked, no check without its ledger
 * entry), no change recorded twice (one per item, kind and time), no change lost (the changes of
 * each item chain: each one's `before` is the previous one's `after`), and every change with an
 * event type has exactly one event in the outbox, received by the endpoint (the same webhook-id
 * for a repeat).
 */
const reduced = process.argv.includes('--ci');
/** Kinds whose changes of one item chain, each starting where the last one ended. */
const chained = new Set(['job_changed', 'funding_raised', 'moved', 'location_changed']);
const kills = Number(arg('kills', reduced ? '4' : '10'));
const peoplePerList = Number(arg('people', reduced ? '150' : '400'));
const seed = Number(arg('seed', String(Math.floor(Math.random() * 2 ** 31))));
const random = mulberry32(seed);
const log = createLogger('warn');

const database = await openBenchDatabase({ name: 'watchlists', companies: 1000, people: 8000, reuse: false, log });
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pds-rel-watch-'));
const port = await freePort();
const db = openDatabase(database.url, 3);
const env: Record<string, string> = {
  DATABASE_URL: database.url,
  PORT: String(port),
  DEMO_CREDITS: '0',
  JOB_POLL_INTERVAL_MS: '50',
  JOB_CONCURRENCY: '4',
  JOB_LEASE_SECONDS: '2',
  JOB_RETRY_BASE_MS: '500',
  NETWORK_SIMULATION_DAYS_PER_SECOND: '20',
  NETWORK_SOURCE_LATENCY_MS: '15',
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_RETRY_SCHEDULE: ['250ms', '500ms', '1s', ...Array.from({ length: 25 }, () => '2s')].join(','),
  RATE_LIMIT_STANDARD_PER_MINUTE: '1000000',
  RATE_LIMIT_STATUS_PER_MINUTE: '1000000',
};
const receiver = await startReceiver();
let service: ServiceProcess = await startServiceProcess(env, dataDir);
const account = await createAccount(db, { name: 'watch lists', plan: 'pro', initialCredits: 10_000_000 });
const accountId = account.account.id;

// The outputs of the operations, read field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Output = Record<string, any>;

async function call(method: string, pathAndQuery: string, body?: Record<string, unknown>): Promise<Output> {
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await fetch(`${service.url}${pathAndQuery}`, {
        method,
        headers: { 'x-api-key': account.apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(30_000),
      });
      const parsed = (await response.json()) as { output: Output };
      if (response.status >= 300)
        throw new Error(`${method} ${pathAndQuery}: ${response.status} ${JSON.stringify(parsed)}`);
      return parsed.output;
    } catch (error) {
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
  await call('POST', '/v1/webhook-endpoints', {
    url: `${receiver.url}/events`,
    events: ['person.job_changed', 'person.title_changed', 'company.headcount_changed', 'company.funding_raised'],
  });
  const people = (
    await db.pool.query<{ network_slug: string }>(
      'SELECT network_slug FROM people WHERE network_slug IS NOT NULL ORDER BY id LIMIT $1',
      [3 * peoplePerList],
    )
  ).rows.map((r) => r.network_slug);
  const companies = (
    await db.pool.query<{ network_primary_slug: string }>(
      'SELECT network_primary_slug FROM companies WHERE network_primary_slug IS NOT NULL ORDER BY id LIMIT $1',
      [peoplePerList],
    )
  ).rows.map((r) => r.network_primary_slug);
  const lists: string[] = [];
  for (let i = 0; i < 3; i++) {
    const list = await call('POST', '/v1/watch-lists', { name: `People ${i}`, kind: 'people', checkEvery: 'day' });
    await call('POST', `/v1/watch-lists/${list.watchListId}/items`, {
      items: people.slice(i * peoplePerList, (i + 1) * peoplePerList),
    });
    lists.push(list.watchListId as string);
  }
  const companyList = await call('POST', '/v1/watch-lists', {
    name: 'Accounts',
    kind: 'companies',
    checkEvery: 'day',
    headcountChangeThreshold: 5,
  });
  await call('POST', `/v1/watch-lists/${companyList.watchListId}/items`, { items: companies });
  lists.push(companyList.watchListId as string);

  // Kills at random points while batches are in flight.
  let killedMidBatch = 0;
  for (let kill = 0; kill < kills; kill++) {
    await sleep(1000 + Math.floor(random() * 2000));
    const running = await db.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM jobs WHERE kind = 'watch-list.check' AND account_id = $1 AND status = 'running'",
      [accountId],
    );
    if ((running.rows[0]?.n ?? 0) > 0) killedMidBatch += 1;
    await service.stop('SIGKILL');
    service = await startServiceProcess(env, dataDir);
  }
  await sleep(2000);
  // Stop the checks, and let what is under way and the deliveries settle.
  for (const id of lists) await call('PATCH', `/v1/watch-lists/${id}`, { paused: true });
  const settleStart = Date.now();
  await waitUntil(
    'every check job and delivery to settle',
    async () => {
      const left = await db.pool.query<{ jobs: number; deliveries: number }>(
        `SELECT (SELECT count(*) FROM jobs WHERE account_id = $1 AND kind = 'watch-list.check' AND status IN ('queued', 'running'))::int AS jobs,
                (SELECT count(*) FROM webhook_deliveries WHERE account_id = $1 AND status = 'pending')::int AS deliveries`,
        [accountId],
      );
      return left.rows[0]?.jobs === 0 && left.rows[0]?.deliveries === 0;
    },
    90_000,
  ).catch((error: unknown) => process.stderr.write(`${(error as Error).message}\n`));
  const settledIn = Date.now() - settleStart;

  const checks = await db.pool.query<{ checks: number; items: number; credits: number; changes: number }>(
    `SELECT count(*)::int AS checks, coalesce(sum(items_checked), 0)::int AS items, coalesce(sum(credits_charged), 0)::int AS credits,
            coalesce(sum(changes_found), 0)::int AS changes
       FROM watch_list_checks WHERE account_id = $1`,
    [accountId],
  );
  const ledger = await db.pool.query<{ entries: number; amount: number }>(
    `SELECT count(*)::int AS entries, coalesce(-sum(amount), 0)::int AS amount FROM credit_ledger
      WHERE account_id = $1 AND unit = 'watchListCheck'`,
    [accountId],
  );
  const charged = checks.rows[0] as { checks: number; items: number; credits: number; changes: number };
  const paid = ledger.rows[0] as { entries: number; amount: number };
  const changes = await db.pool.query<{
    id: number;
    item_id: number;
    kind: string;
    before: unknown;
    after: unknown;
    detected_at: Date;
  }>(
    'SELECT id, item_id, kind, before, after, detected_at FROM watch_list_changes WHERE account_id = $1 ORDER BY item_id, kind, detected_at, id',
    [accountId],
  );
  const seen = new Set<string>();
  let twice = 0;
  let broken = 0;
  const last = new Map<string, string>();
  for (const change of changes.rows) {
    const key = `${change.item_id}:${change.kind}:${change.detected_at.toISOString()}`;
    if (seen.has(key)) twice += 1;
    seen.add(key);
    // Each change of these kinds starts where the item's last one of its kind ended: a gap is a lost change. (A title
    // also changes with a job, and a headcount below the threshold moves without a change: those do not chain.)
    if (!chained.has(change.kind)) continue;
    const chainKey = `${change.item_id}:${change.kind}`;
    const before = JSON.stringify(chainValue(change.kind, change.before));
    const previous = last.get(chainKey);
    if (previous !== undefined && previous !== before) broken += 1;
    last.set(chainKey, JSON.stringify(chainValue(change.kind, change.after)));
  }
  const eventful = changes.rows.filter((c) =>
    ['job_changed', 'title_changed', 'headcount_changed', 'funding_raised'].includes(c.kind),
  );
  const events = await db.pool.query<{ message_id: string; change_id: string }>(
    "SELECT message_id, payload->'data'->>'changeId' AS change_id FROM webhook_events WHERE account_id = $1",
    [accountId],
  );
  const eventsPerChange = new Map<string, number>();
  for (const e of events.rows) eventsPerChange.set(e.change_id, (eventsPerChange.get(e.change_id) ?? 0) + 1);
  const withoutEvent = eventful.filter((c) => !eventsPerChange.has(String(c.id))).length;
  const eventTwice = [...eventsPerChange.values()].filter((n) => n > 1).length;
  const receivedIds = new Map<string, Set<string>>();
  for (const r of receiver.received) {
    const bodies = receivedIds.get(r.id) ?? new Set<string>();
    bodies.add(r.body);
    receivedIds.set(r.id, bodies);
  }
  const notReceived = events.rows.filter((e) => !receivedIds.has(e.message_id)).length;
  const inconsistent = [...receivedIds.values()].filter((b) => b.size > 1).length;

  const lines = [
    `Three people lists of ${peoplePerList} and a company list of ${companies.length}, each checked every simulated day`,
    `(NETWORK_SIMULATION_DAYS_PER_SECOND=20, the simulated source drifting, 15 ms a fetch), one webhook endpoint for the change`,
    `events on a receiver over loopback; the service killed with SIGKILL ${kills} times at random points 1 to 3 s apart (seed ${seed}),`,
    'and started again on the same database; then the lists paused and everything left to settle. 1,000 companies, 8,000 people,',
    'on the embedded PostgreSQL.',
    '',
    '| measure | value |',
    '|---|---|',
    `| kills with SIGKILL (with a check job running) | ${kills} (${killedMidBatch}) |`,
    `| checks recorded (batches), items checked | ${charged.checks}, ${charged.items} |`,
    `| credits charged for checks (ledger entries) | ${paid.amount} (${paid.entries}) |`,
    `| changes recorded (with a webhook event type) | ${changes.rows.length} (${eventful.length}) |`,
    `| events in the outbox, received by the endpoint | ${events.rows.length}, ${events.rows.length - notReceived} |`,
    `| settled after the last restart | ${round(settledIn / 1000, 1)} s |`,
    '',
    `Credits charged other than the items the recorded checks checked: **${paid.amount - charged.items}** (must be 0); checks recorded without their charge: **${charged.checks - paid.entries}** (must be 0).`,
    `Changes recorded twice: **${twice}** (must be 0). Changes lost (an item's changes that do not chain): **${broken}** (must be 0).`,
    `Changes without their event: **${withoutEvent}**; changes with more than one event: **${eventTwice}** (must be 0).`,
    `Events never received: **${notReceived}**; webhook-ids received with different bodies: **${inconsistent}** (must be 0).`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const failures: string[] = [];
  if (paid.amount !== charged.items) failures.push(`charged ${paid.amount} for ${charged.items} items checked`);
  if (paid.entries !== charged.checks) failures.push(`${paid.entries} ledger entries for ${charged.checks} checks`);
  if (twice) failures.push(`${twice} changes recorded twice`);
  if (broken) failures.push(`${broken} changes lost`);
  if (withoutEvent || eventTwice) failures.push(`${withoutEvent} changes without event, ${eventTwice} with two`);
  if (notReceived || inconsistent) failures.push(`${notReceived} events not received, ${inconsistent} inconsistent`);
  if (charged.items === 0) failures.push('nothing was checked');
  if (failures.length) {
    failed = true;
    process.stderr.write(`FAILED: ${failures.join('\n')}\n${service.recentOutput().slice(-3000)}\n`);
  }
  process.stderr.write(`watch-lists: ${round((Date.now() - started) / 1000, 1)} s\n`);
} finally {
  await service.stop('SIGTERM').catch(() => undefined);
  await receiver.close();
  await db.close();
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
}
if (failed) process.exitCode = 1;

/** What a change's before and after say that the next change of the same kind starts from. */
function chainValue(kind: string, value: unknown): unknown {
  if (kind === 'job_changed') return (value as { company: { slug: string | null } | null }).company?.slug ?? null;
  return value;
}

/** Records every request with its webhook-id; answers 200. */
async function startReceiver() {
  const received: Array<{ id: string; body: string }> = [];
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ id: String(req.headers['webhook-id']), body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
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
