import { mkdir, writeFile } from 'node:fs/promises';
import pg from 'pg';
import { request } from 'undici';
import { createLogger } from '../src/log.js';
import {
  arg,
  benchPost,
  machineLine,
  measureInTurn,
  openBenchTarget,
  type BenchTarget,
  type Fixtures,
  type Latency,
} from './lib.js';

/**
 * Counts (companyCount, peopleCount) and typeahead (companies, locations) through the real HTTP
 * API: the latency of typical filters, and what each count answered (exact or estimated).
 *
 *   node dist/bench/counts.js [--companies N] [--people M] [--runs R] [--reuse]
 * Uses DATABASE_URL's server when set (a fresh database is created on it, or with --reuse the one
 * an earlier run of the search benchmark left), else embedded PostgreSQL; with BENCH_COMPARE_URL,
 * that server too, side by side, as bench/search.ts does.
 */
const companies = Number(arg('companies', '20000'));
const people = Number(arg('people', '200000'));
const runs = Number(arg('runs', '40'));
const reuse = process.argv.includes('--reuse');

const log = createLogger('warn');
const size = { companies, people, reuse };
const targets: BenchTarget[] = [await openBenchTarget(undefined, size, log)];
if (process.env.BENCH_COMPARE_URL) targets.push(await openBenchTarget(process.env.BENCH_COMPARE_URL, size, log));

/** The parts of the answers this benchmark reads. */
interface Answer {
  count: number;
  exact: boolean;
  data: unknown[];
}

async function call(
  target: BenchTarget,
  method: 'GET' | 'POST',
  pathName: string,
  body?: Record<string, unknown>,
): Promise<Answer> {
  if (method === 'POST') return benchPost<Answer>(target, pathName, body ?? {});
  const response = await request(`${target.bench.service.url}${pathName}&apiKey=${target.bench.apiKey}`, {
    method,
    dispatcher: target.agent,
  });
  const json = (await response.body.json()) as { output?: Answer; error?: unknown };
  if (response.statusCode !== 200 || !json.output)
    throw new Error(`${pathName} answered ${response.statusCode}: ${JSON.stringify(json.error)}`);
  return json.output;
}

// A company name from the catalog itself, so that the prefixes find something at any size.
const catalog = new pg.Client({ connectionString: targets[0]?.database.url });
await catalog.connect();
const names =
  (
    await catalog.query<{ preferred_name: string }>(
      'SELECT preferred_name FROM companies ORDER BY id LIMIT 1 OFFSET 100',
    )
  ).rows[0]?.preferred_name ?? 'Acme';
await catalog.end();

interface Row {
  operation: string;
  query: string;
  /** By target, in the order of `targets`. */
  latency: Array<Latency | null>;
  answers: string[];
}
const rows: Row[] = [];

const seniorTitles = { included: ['VP', 'Director', 'Head of'], excluded: ['Assistant'] };
const counts: Array<{
  operation: 'companyCount' | 'peopleCount';
  query: string;
  body: (f: Fixtures) => Record<string, unknown>;
}> = [
  {
    operation: 'companyCount',
    query: 'country US, industry software-development, headcount 11-1000',
    body: () => ({
      searchParams: {
        headquartersCountryCode: ['US'],
        industriesV2: ['software-development', 'it-services-and-it-consulting'],
        employeeCountV2: { min: 11, max: 1000 },
      },
    }),
  },
  {
    operation: 'companyCount',
    query: 'country US only (broad)',
    body: () => ({ searchParams: { headquartersCountryCode: ['US'] } }),
  },
  {
    operation: 'companyCount',
    query: 'keywords "platform" or "analytics"',
    body: () => ({ searchParams: { keywords: ['platform', 'analytics'] } }),
  },
  {
    operation: 'companyCount',
    query: 'keyword "platform", headcount 51-500',
    body: () => ({ searchParams: { keywords: ['platform'], employeeCountV2: { min: 51, max: 500 } } }),
  },
  {
    operation: 'companyCount',
    query: 'stage SERIES_A or SERIES_B, country DE',
    body: () => ({ searchParams: { stage: ['SERIES_A', 'SERIES_B'], headquartersCountryCode: ['DE'] } }),
  },
  {
    operation: 'companyCount',
    query: 'countries US, GB, DE, headcount 201-5000, minus a 2,000-company exclusion list',
    body: (f) => ({
      searchParams: { headquartersCountryCode: ['US', 'GB', 'DE'], employeeCountV2: { min: 201, max: 5000 } },
      companyExclusionListIDs: [f.companyListId],
    }),
  },
  { operation: 'companyCount', query: 'no filter (every company)', body: () => ({ searchParams: {} }) },
  {
    operation: 'peopleCount',
    query: 'title "engineer" not "manager", countries USA, GBR, DEU, 3-10 years',
    body: () => ({
      searchParams: {
        jobTitleV2: { included: ['engineer'], excluded: ['manager'] },
        country3LetterCode: ['USA', 'GBR', 'DEU'],
        yearsOfExperience: { min: 3, max: 10 },
      },
    }),
  },
  {
    operation: 'peopleCount',
    query: 'seniority: title VP, Director or Head of, not Assistant, country USA',
    body: () => ({ searchParams: { jobTitleV2: seniorTitles, country3LetterCode: ['USA'] } }),
  },
  {
    operation: 'peopleCount',
    query: 'seniority titles, countries USA, GBR, DEU, 10-25 years',
    body: () => ({
      searchParams: {
        jobTitleV2: seniorTitles,
        country3LetterCode: ['USA', 'GBR', 'DEU'],
        yearsOfExperience: { min: 10, max: 25 },
      },
    }),
  },
  {
    operation: 'peopleCount',
    query: 'title "VP of Sales" or "Head of Sales", country USA',
    body: () => ({
      searchParams: { jobTitleV2: { included: ['VP of Sales', 'Head of Sales'] }, country3LetterCode: ['USA'] },
    }),
  },
  {
    operation: 'peopleCount',
    query: 'title "engineer", 5+ years',
    body: () => ({ searchParams: { jobTitleV2: { included: ['engineer'] }, yearsOfExperience: { min: 5 } } }),
  },
  {
    operation: 'peopleCount',
    query: 'tag decision-maker, country USA',
    body: () => ({ searchParams: { tags: { anyOf: ['decision-maker'] }, country3LetterCode: ['USA'] } }),
  },
  {
    operation: 'peopleCount',
    query: 'title "Chief Revenue Officer" (rare)',
    body: () => ({ searchParams: { jobTitleV2: { included: ['Chief Revenue Officer'] } } }),
  },
  {
    operation: 'peopleCount',
    query: 'currentCompanies: 25 large companies by domain',
    body: (f) => ({ searchParams: {}, currentCompanies: f.largeDomains.map((domain) => ({ domain })) }),
  },
  {
    operation: 'peopleCount',
    query: 'seniority titles, country USA, minus 5,000-prospect and 2,000-company exclusion lists',
    body: (f) => ({
      searchParams: { jobTitleV2: seniorTitles, country3LetterCode: ['USA'] },
      prospectExclusionListIDs: [f.prospectListId],
      companyExclusionListIDs: [f.companyListId],
    }),
  },
  { operation: 'peopleCount', query: 'no filter (everyone)', body: () => ({ searchParams: {} }) },
];

const describeAnswer = (answer: Answer) =>
  `${answer.count.toLocaleString('en')} (${answer.exact ? 'exact' : 'estimate'})`;
for (const scenario of counts) {
  process.stderr.write(`  ${scenario.operation}: ${scenario.query}\n`);
  const path = scenario.operation === 'companyCount' ? '/v1/company-count' : '/v1/people-search/count';
  const bodies = targets.map((target) => scenario.body(target.fixtures));
  const answers = await Promise.all(targets.map((target, i) => call(target, 'POST', path, bodies[i])));
  rows.push({
    operation: scenario.operation,
    query: scenario.query,
    latency: await measureInTurn(
      targets.map((target, i) => () => call(target, 'POST', path, bodies[i])),
      runs,
    ),
    answers: answers.map(describeAnswer),
  });
}

const prefixes = [...new Set([1, 2, 3, 5].map((length) => names.slice(0, length).toLowerCase()))];
const typeaheads = [
  ...prefixes.map((prefix) => ({
    operation: 'companyTypeahead',
    query: `"${prefix}", limit 10`,
    path: `/v1/typeahead/companies?query=${encodeURIComponent(prefix)}&limit=10`,
  })),
  ...['san', 'new y', 'bavaria'].map((text) => ({
    operation: 'locationTypeahead',
    query: `"${text}", limit 10`,
    path: `/v1/typeahead/locations?query=${encodeURIComponent(text)}&limit=10`,
  })),
];
for (const typeahead of typeaheads) {
  const answers = await Promise.all(targets.map((target) => call(target, 'GET', typeahead.path)));
  rows.push({
    operation: typeahead.operation,
    query: typeahead.query,
    latency: await measureInTurn(
      targets.map((target) => () => call(target, 'GET', typeahead.path)),
      runs,
    ),
    answers: answers.map((answer) => `${answer.data.length} suggestions`),
  });
}

for (const target of targets) {
  await target.bench.stop();
  await target.agent.close();
  await target.database.close();
}

const result = {
  benchmark: 'counts',
  date: new Date().toISOString(),
  machine: machineLine(),
  companies,
  people,
  servers: targets.map((target) => ({
    name: target.name,
    seedSeconds: target.database.seedSeconds,
    settings: target.database.settings,
  })),
  rows,
};
await mkdir('bench/results', { recursive: true });
await writeFile(`bench/results/counts-${companies}-${people}.json`, `${JSON.stringify(result, null, 2)}\n`);

const cell = (latency: Latency | null | undefined) => (latency ? `${latency.medianMs} | ${latency.p95Ms}` : '– | –');
const lines = [
  `#### Counts and typeahead: ${companies.toLocaleString('en')} companies / ${people.toLocaleString('en')} people, ${targets.map((t) => t.name).join(' and ')}`,
  '',
  ...targets.map(
    (t) =>
      `- ${t.name}: ${t.database.seedSeconds === null ? 'reused an existing database' : `seeded in ${t.database.seedSeconds} s`}.`,
  ),
  '',
  'Each call through the HTTP API (authentication, validation, the count or lookup, the 1-credit charge in its own transaction, JSON); ' +
    `${runs} calls after 3 warm-up calls${targets.length > 1 ? ', one on each server in turn' : ''}. Counts are exact up to 1,000 matches, however long counting takes (up to the searches' statement timeout); past 1,000 the planner's estimate answers.`,
  '',
  `| operation | query | answer | ${targets.map((t) => `${t.name} median ms | p95 ms`).join(' | ')} |`,
  `|---|---|---|${targets.map(() => '---:|---:|').join('')}`,
  ...rows.map(
    (r) =>
      `| ${r.operation} | ${r.query} | ${[...new Set(r.answers)].join(' / ')} | ${targets.map((_, i) => cell(r.latency[i])).join(' | ')} |`,
  ),
  '',
];
process.stdout.write(`${lines.join('\n')}\n`);
