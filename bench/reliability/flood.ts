import { Pool } from 'undici';
import pg from 'pg';
import { inputLimits } from '../../operations/schemas/common.js';
import { createAccount } from '../../src/core/accounts.js';
import { createLogger } from '../../src/log.js';
import { openDatabase } from '../../src/store/db.js';
import { arg, openBenchDatabase, percentile, round } from '../lib.js';
import { startServiceProcess } from './service-process.js';

/**
 * One account floods the service with the most expensive searches the input bounds still allow,
 * many at once, and abandons some mid-way; another account's ordinary search is timed beside
 * the same search on a quiet service. The probe saw the flood take the whole pool and the other
 * account wait 100 s, and the abandoned queries keep running.
 */
const reduced = process.argv.includes('--ci');
const runs = Number(arg('runs', reduced ? '60' : '200'));
const flooders = Number(arg('flooders', '12'));
const companies = Number(arg('companies', reduced ? '5000' : '20000'));
const people = Number(arg('people', reduced ? '50000' : '200000'));
const log = createLogger('warn');

const database = await openBenchDatabase({ name: 'flood', companies, people, reuse: !reduced, log });
// Rate limits per minute are set out of reach: what is measured is what holds when only concurrency and timeouts stand in the way.
const service = await startServiceProcess({
  DATABASE_URL: database.url,
  DEMO_CREDITS: '0',
  RATE_LIMIT_SEARCH_PER_MINUTE: '1000000',
});
const db = openDatabase(database.url, 2);
const pool = new Pool(service.url, { connections: flooders + 4, keepAliveTimeout: 30_000 });

const quietAccount = await createAccount(db, { name: 'quiet', plan: 'enterprise', initialCredits: 1_000_000_000 });
const flooder = await createAccount(db, { name: 'flooder', plan: 'enterprise', initialCredits: 1_000_000_000 });

const ordinarySearch = JSON.stringify({
  apiKey: quietAccount.apiKey,
  pageSize: 25,
  searchParams: {
    jobTitleV2: { included: ['Engineer'], excluded: ['Intern'] },
    country3LetterCode: ['USA', 'GBR', 'DEU'],
    yearsOfExperience: { min: 3, max: 20 },
  },
});
/** The worst the bounds allow: every substring filter full, each term at its longest, none matching, so every row is read. */
const longTerms = (prefix: string) =>
  Array.from({ length: inputLimits.substringsPerFilter }, (_, i) =>
    `${prefix}${i}`.padEnd(inputLimits.substringLength, 'q'),
  );
const worstSearch = JSON.stringify({
  apiKey: flooder.apiKey,
  pageSize: 1000,
  searchParams: {
    jobTitleV2: { included: longTerms('t'), excluded: longTerms('x') },
    education: { schools: longTerms('s') },
  },
});

async function post(body: string, signal?: AbortSignal): Promise<{ status: number; ms: number }> {
  const started = process.hrtime.bigint();
  const response = await pool.request({
    method: 'POST',
    path: '/v1/people-search',
    headers: { 'content-type': 'application/json' },
    body,
    signal,
  });
  await response.body.text();
  return { status: response.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 };
}

async function timeOrdinarySearches(
  count: number,
): Promise<{ p50: number; p99: number; statuses: Record<number, number> }> {
  const samples: number[] = [];
  const statuses: Record<number, number> = {};
  for (let i = 0; i < count; i++) {
    const { status, ms } = await post(ordinarySearch);
    statuses[status] = (statuses[status] ?? 0) + 1;
    samples.push(ms);
  }
  samples.sort((a, b) => a - b);
  return { p50: round(percentile(samples, 50)), p99: round(percentile(samples, 99)), statuses };
}

async function activeServiceQueries(): Promise<number> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const rows = await client.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'prospecting-data-service' AND state = 'active' AND query ILIKE '%FROM people%'`,
    );
    return (rows.rows[0] as { n: number }).n;
  } finally {
    await client.end();
  }
}

try {
  await timeOrdinarySearches(10);
  const quiet = await timeOrdinarySearches(runs);

  const floodStatuses: Record<number, number> = {};
  let flooding = true;
  const floodLoops = Array.from({ length: flooders }, async (_, i) => {
    while (flooding) {
      // A third of the flooders give up mid-query, as impatient clients and proxies do.
      const abandon = i % 3 === 0 ? AbortSignal.timeout(100) : undefined;
      try {
        const { status } = await post(worstSearch, abandon);
        floodStatuses[status] = (floodStatuses[status] ?? 0) + 1;
      } catch {
        floodStatuses[0] = (floodStatuses[0] ?? 0) + 1;
      }
    }
  });
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const healthStarted = Date.now();
  const health = await pool.request({ method: 'GET', path: '/healthz' });
  await health.body.text();
  const healthMs = Date.now() - healthStarted;
  const underFlood = await timeOrdinarySearches(runs);
  flooding = false;
  await Promise.all(floodLoops);
  // What is still running 2 s after the last flooder stopped waiting: abandoned queries cancelled, not left on the server.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const leftRunning = await activeServiceQueries();

  const table = [
    `One account floods people search with ${flooders} clients at once, each sending the costliest search the input bounds allow`,
    `(100 titles, 100 excluded titles and 100 schools of 100 characters, page of 1000; a third abandon after 100 ms; per-minute`,
    `rate limits lifted, so only the concurrency cap and the timeouts stand in the way); another account`,
    `times an ordinary search (title include and exclude, three countries, an experience range, page of 25), ${runs} runs each,`,
    `at ${companies.toLocaleString('en')} companies / ${people.toLocaleString('en')} people on the embedded PostgreSQL, the service in a process of its own.`,
    '',
    '| | p50 ms | p99 ms | statuses |',
    '|---|---|---|---|',
    `| other account, quiet service | ${quiet.p50} | ${quiet.p99} | ${JSON.stringify(quiet.statuses)} |`,
    `| other account, during the flood | ${underFlood.p50} | ${underFlood.p99} | ${JSON.stringify(underFlood.statuses)} |`,
    `| flooding account's requests | | | ${JSON.stringify(floodStatuses)} (0 = abandoned by the client) |`,
    '',
    `/healthz during the flood: ${health.statusCode} in ${healthMs} ms. Service queries still running 2 s after the flood ended: ${leftRunning} (must be 0).`,
  ].join('\n');
  process.stdout.write(`${table}\n`);
  const failures: string[] = [];
  if (leftRunning !== 0) failures.push(`${leftRunning} abandoned queries still running`);
  if (health.statusCode !== 200) failures.push(`/healthz answered ${health.statusCode}`);
  if ((underFlood.statuses[200] ?? 0) !== runs)
    failures.push(`the other account got ${JSON.stringify(underFlood.statuses)}`);
  if (Object.keys(floodStatuses).some((s) => Number(s) >= 500 && Number(s) !== 503))
    failures.push(`the flood saw a 5xx other than 503: ${JSON.stringify(floodStatuses)}`);
  if (failures.length) {
    process.stderr.write(`FAILED: ${failures.join('; ')}\n`);
    process.exitCode = 1;
  }
} finally {
  await pool.close();
  await db.close();
  await service.stop();
  await database.close();
}
