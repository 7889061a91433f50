import { checkBatchSize, checkFetchConcurrency } from '../src/core/watch-lists/checks.js';
import { createLogger } from '../src/log.js';
import { arg, machineLine, openBenchDatabase, round, startBenchService } from './lib.js';

/**
 * Watch-list checks at scale (issue 33): one people list of `--items` tracked people (100,000, a
 * list's limit) on the embedded default, checked through the simulated live source with each fetch
 * taking `--latency-ms` (250), on the real clock. Measures the time from the items' adding to the
 * moment every one has been checked once (polled every second), and so the share of a day that a
 * daily list of that size needs. The first check of an item does the work of every later one (a
 * fetch through the source, the charge, the snapshot and the next check time settled in a batch's
 * transaction); only comparing with a previous snapshot is left out, which costs no I/O.
 *
 *   npm run build && node dist/bench/watch-lists.js [--items N] [--latency-ms L] [--reuse]
 *   (or: npm run bench -- --only=watch-lists)
 * Uses DATABASE_URL's server when set, else embedded PostgreSQL. Prints a Markdown table.
 */
const items = Number(arg('items', '100000'));
const latencyMs = Number(arg('latency-ms', '250'));
const people = Math.max(200_000, items);
const companies = Math.round(people / 10);
const reuse = process.argv.includes('--reuse');
const dayMs = 86_400_000;

const log = createLogger('warn');
const database = await openBenchDatabase({ name: 'watch_lists', companies, people, reuse, log });
const bench = await startBenchService(
  database.url,
  {
    JOB_POLL_INTERVAL_MS: '20',
    NETWORK_SOURCE_LATENCY_MS: String(latencyMs),
    NETWORK_SOURCE_FAILURE_RATE: '0',
    RATE_LIMIT_STANDARD_PER_MINUTE: '1000000',
  },
  log,
);
const { service, apiKey } = bench;
const pool = service.context.db.pool;

async function call(method: string, pathName: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await fetch(`${service.url}${pathName}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const json = (await response.json()) as { output?: Record<string, unknown>; error?: unknown };
  if (response.status !== 200 || !json.output)
    throw new Error(`${method} ${pathName} answered ${response.status}: ${JSON.stringify(json.error)}`);
  return json.output;
}

try {
  const slugs = (
    await pool.query<{ network_slug: string }>(
      'SELECT network_slug FROM people WHERE network_slug IS NOT NULL ORDER BY id LIMIT $1',
      [items],
    )
  ).rows.map((row) => row.network_slug);
  if (slugs.length < items) throw new Error(`the catalog has ${slugs.length} people with a profile, not ${items}`);
  const list = await call('POST', '/v1/watch-lists', { name: 'bench', kind: 'people', checkEvery: 'day' });
  const listId = String(list.watchListId);
  const addStarted = performance.now();
  for (let start = 0; start < slugs.length; start += 1000)
    await call('POST', `/v1/watch-lists/${listId}/items`, { items: slugs.slice(start, start + 1000) });
  const addMs = performance.now() - addStarted;
  const checkStarted = performance.now();
  let checked = 0;
  const deadline = checkStarted + dayMs;
  while (checked < items) {
    if (performance.now() > deadline) throw new Error(`only ${checked} of ${items} items checked within a day`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const counted = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM watch_list_items WHERE watch_list_id = $1 AND last_checked_at IS NOT NULL`,
      [listId],
    );
    checked = counted.rows[0]?.n ?? 0;
  }
  const checkMs = performance.now() - checkStarted;
  const charged = await pool.query<{ credits: number; batches: number }>(
    `SELECT coalesce(sum(credits_charged), 0)::int AS credits, count(*)::int AS batches FROM watch_list_checks WHERE watch_list_id = $1`,
    [listId],
  );
  const perSecond = items / (checkMs / 1000);
  const lines = [
    `Machine: ${machineLine()}. Catalog: ${companies.toLocaleString('en')} companies, ${people.toLocaleString('en')} people` +
      `${database.seedSeconds === null ? ' (reused)' : ` (seeded in ${database.seedSeconds} s)`}.`,
    '',
    '| Tracked people | Live fetch latency | Adding them | Checking each once | Items checked a second | Share of a day | Credits charged |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${items.toLocaleString('en')} | ${latencyMs} ms | ${round(addMs / 1000, 1)} s | ${round(checkMs / 1000, 1)} s | ${round(perSecond, 1)} | ${round((100 * checkMs) / dayMs, 2)} % | ${charged.rows[0]?.credits.toLocaleString('en')} in ${charged.rows[0]?.batches} batches |`,
    '',
    `One list's check job fetches ${checkFetchConcurrency} items at a time and settles each batch of ${checkBatchSize} in one` +
      ` transaction, so with a fetch of ${latencyMs} ms its ceiling is ${round((checkFetchConcurrency * 1000) / latencyMs, 1)} items a second; the time to check each once is from the` +
      ' last item added to the moment a poll (every second) sees every item checked.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await bench.stop();
  await database.close();
}
