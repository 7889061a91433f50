import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { startScratchService } from './scratch-service.js';

/**
 * The signals demo (issue 33): the service on its embedded defaults with the simulated network's
 * clock at NETWORK_SIMULATION_DAYS_PER_SECOND (1 unless given: a simulated month in 30 s), a
 * webhook receiver on loopback that verifies every delivery's signature, an endpoint for job and
 * title changes, and a daily watch list of 30 people of the demo catalog. It prints each verified
 * event as it arrives, and ends at the first job change (exit 0) or after `DEMO_SECONDS` (120;
 * exit 1 when no job change came). Nothing here reads the simulator's bookkeeping: what it prints
 * is what the service sent.
 *
 *   npm run demo:signals
 */

const daysPerSecond = process.env.NETWORK_SIMULATION_DAYS_PER_SECOND ?? '1';
const seconds = Number(process.env.DEMO_SECONDS ?? '120');
const people = 30;

interface Employment {
  company: { name: string | null } | null;
  title: string;
}

/** A change as the webhook carries it: a job change's before and after are employments, a title change's are titles. */
interface ChangeEvent {
  type: string;
  data: { kind: string; detectedAt: string; item: { input: string }; before: unknown; after: unknown };
}

const { service, apiKey, stop } = await startScratchService('signals-demo', {
  NETWORK_SIMULATION_DAYS_PER_SECOND: daysPerSecond,
  JOB_WORKER: 'true',
  // The receiver listens on loopback.
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
});
const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0).padStart(3)} s`;
let secret = '';
let onJobChange: () => void = () => {};
const jobChanged = new Promise<void>((resolve) => (onJobChange = resolve));

const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    let event: ChangeEvent;
    try {
      event = new Webhook(secret).verify(body, headers) as ChangeEvent;
    } catch (error) {
      process.stdout.write(`${elapsed()}  refused a delivery whose signature does not verify: ${String(error)}\n`);
      res.writeHead(400).end();
      return;
    }
    res.writeHead(200).end('ok');
    const { data } = event;
    const day = data.detectedAt.slice(0, 10);
    const before = data.before as Employment | null;
    const after = data.after as Employment | null;
    const what =
      event.type === 'person.job_changed'
        ? `moved from ${before?.company?.name ?? 'no company'} to ${after?.company?.name ?? 'no company'} as "${after?.title ?? ''}"`
        : `is now "${String(data.after)}" (was "${String(data.before)}")`;
    process.stdout.write(`${elapsed()}  verified ${event.type}  (simulated ${day})  ${data.item.input} ${what}\n`);
    if (event.type === 'person.job_changed') onJobChange();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

async function call<Output>(method: string, path: string, body?: unknown): Promise<Output> {
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(15_000),
  });
  const answer = (await response.json()) as { output: Output };
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer.output;
}

let exitCode = 1;
try {
  const endpoint = await call<{ secret: string }>('POST', '/v1/webhook-endpoints', {
    url: receiverUrl,
    events: ['person.job_changed', 'person.title_changed'],
  });
  secret = endpoint.secret;
  const slugs = (
    await service.context.db.pool.query<{ network_slug: string }>(
      'SELECT network_slug FROM people WHERE network_slug IS NOT NULL ORDER BY id LIMIT $1',
      [people],
    )
  ).rows.map((row) => row.network_slug);
  const list = await call<{ watchListId: string }>('POST', '/v1/watch-lists', {
    name: 'Demo champions',
    kind: 'people',
    checkEvery: 'day',
  });
  const added = await call<{ added: number }>('POST', `/v1/watch-lists/${list.watchListId}/items`, { items: slugs });
  process.stdout.write(
    `${elapsed()}  service ${service.url}, network clock at ${daysPerSecond} simulated day(s) a second\n` +
      `${elapsed()}  watch list ${list.watchListId}: ${added.added} people checked every day; webhooks to ${receiverUrl}\n`,
  );
  const deadline = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), seconds * 1000).unref());
  if ((await Promise.race([jobChanged.then(() => 'arrived' as const), deadline])) === 'arrived') {
    exitCode = 0;
    const view = await call<{ changes: number }>('GET', `/v1/watch-lists/${list.watchListId}`);
    process.stdout.write(
      `${elapsed()}  a job change arrived as a verified webhook; the list has ${view.changes} change(s) so far.\n`,
    );
  } else {
    process.stdout.write(`${elapsed()}  no job change within ${seconds} s.\n`);
  }
} finally {
  receiver.close();
  await stop();
}
process.exit(exitCode);
