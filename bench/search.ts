import { mkdir, writeFile } from 'node:fs/promises';
import { createLogger } from '../src/log.js';
import {
  arg,
  benchPost,
  machineLine,
  measureInTurn,
  openBenchTarget,
  reportedSettings,
  type BenchTarget,
  type Fixtures,
  type Latency,
} from './lib.js';

/**
 * Search latency through the real HTTP API: the filter combinations people use, pages of 25 and
 * of 1000, first page and a deep page, for both searches; and the time to seed the catalog.
 *
 *   node dist/bench/search.js [--companies N] [--people M] [--runs R] [--reuse]
 * Uses DATABASE_URL's server when set (a fresh database is created on it), else embedded PostgreSQL
 * with the settings the service gives it. With BENCH_COMPARE_URL (another server's superuser URL)
 * the same seed is loaded there too and every query is measured on both servers in the same run,
 * call after call in turn, so that whatever else loads the machine falls on both alike.
 */
const companies = Number(arg('companies', '20000'));
const people = Number(arg('people', '200000'));
const runs = Number(arg('runs', '40'));
const reuse = process.argv.includes('--reuse');
/** `--queries <text>` measures only the scenarios whose description contains it, and records nothing: for working on one query. */
const onlyQueries = arg('queries') ?? '';
const compareUrl = process.env.BENCH_COMPARE_URL;

const log = createLogger('warn');

type PageOutput = { data: unknown[]; nextCursor: string | null };

/**
 * A cursor about 80% of the way through the first 150,000 matches, reached by paging with
 * 1000-record pages. A cursor means "after this id" for these filters, so it serves any page size.
 */
async function deepCursor(
  target: BenchTarget,
  pathName: string,
  body: Record<string, unknown>,
): Promise<{ cursor: string | null; skipped: number }> {
  const cursors: Array<{ cursor: string; skipped: number }> = [];
  let cursor: string | null = null;
  let skipped = 0;
  for (let pages = 0; pages < 150; pages++) {
    const page: PageOutput = await benchPost<PageOutput>(target, pathName, { ...body, pageSize: 1000, cursor });
    skipped += page.data.length;
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
    cursors.push({ cursor, skipped });
  }
  return cursors[Math.floor(cursors.length * 0.8)] ?? { cursor: null, skipped: 0 };
}

interface Scenario {
  search: 'company' | 'people' | 'similar companies' | 'similar people';
  query: string;
  body: (fixtures: Fixtures) => Record<string, unknown>;
}

const seniorTitles = { included: ['VP', 'Director', 'Head of'], excluded: ['Assistant'] };
const scenarios: Scenario[] = [
  {
    search: 'company',
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
    search: 'company',
    query: 'country US only (broad)',
    body: () => ({ searchParams: { headquartersCountryCode: ['US'] } }),
  },
  {
    search: 'company',
    query: 'keywords "platform" or "analytics"',
    body: () => ({ searchParams: { keywords: ['platform', 'analytics'] } }),
  },
  {
    search: 'company',
    query: 'keyword "platform", headcount 51-500',
    body: () => ({ searchParams: { keywords: ['platform'], employeeCountV2: { min: 51, max: 500 } } }),
  },
  {
    search: 'company',
    query: 'countries US, GB, DE, headcount 201-5000, minus a 2,000-company exclusion list',
    body: (f) => ({
      searchParams: { headquartersCountryCode: ['US', 'GB', 'DE'], employeeCountV2: { min: 201, max: 5000 } },
      companyExclusionListIDs: [f.companyListId],
    }),
  },
  {
    search: 'people',
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
    search: 'people',
    query: 'seniority: title VP, Director or Head of, not Assistant, country USA',
    body: () => ({ searchParams: { jobTitleV2: seniorTitles, country3LetterCode: ['USA'] } }),
  },
  {
    search: 'people',
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
    search: 'people',
    query: 'title "VP of Sales" or "Head of Sales", country USA',
    body: () => ({
      searchParams: { jobTitleV2: { included: ['VP of Sales', 'Head of Sales'] }, country3LetterCode: ['USA'] },
    }),
  },
  {
    search: 'people',
    query: 'title "engineer", 5+ years',
    body: () => ({ searchParams: { jobTitleV2: { included: ['engineer'] }, yearsOfExperience: { min: 5 } } }),
  },
  {
    search: 'people',
    query: 'title "Chief Compliance Officer" (rare)',
    body: () => ({ searchParams: { jobTitleV2: { included: ['Chief Compliance Officer'] } } }),
  },
  {
    search: 'people',
    query: 'tag decision-maker, country USA',
    body: () => ({ searchParams: { tags: { anyOf: ['decision-maker'] }, country3LetterCode: ['USA'] } }),
  },
  {
    search: 'people',
    query: 'currentCompanies: 25 large companies by domain',
    body: (f) => ({ searchParams: {}, currentCompanies: f.largeDomains.map((domain) => ({ domain })) }),
  },
  {
    search: 'people',
    query: 'currentCompanies: 25 large companies, seniority titles',
    body: (f) => ({
      searchParams: { jobTitleV2: seniorTitles },
      currentCompanies: f.largeDomains.map((domain) => ({ domain })),
    }),
  },
  {
    search: 'people',
    query: 'seniority titles, country USA, minus 5,000-prospect and 2,000-company exclusion lists',
    body: (f) => ({
      searchParams: { jobTitleV2: seniorTitles, country3LetterCode: ['USA'] },
      prospectExclusionListIDs: [f.prospectListId],
      companyExclusionListIDs: [f.companyListId],
    }),
  },
  {
    search: 'similar companies',
    query: 'seeds: 3 software companies of 51-200 by domain',
    body: (f) => ({ seeds: f.seedDomains.map((domain) => ({ domain })) }),
  },
  {
    search: 'similar companies',
    query: 'seeds: 3 software companies of 51-200, country US, minus a 2,000-company exclusion list',
    body: (f) => ({
      seeds: f.seedDomains.map((domain) => ({ domain })),
      searchParams: { headquartersCountryCode: ['US'] },
      companyExclusionListIDs: [f.companyListId],
    }),
  },
  {
    search: 'similar people',
    query: 'seeds: 3 engineers by profile slug',
    body: (f) => ({ seeds: f.seedProfiles.map((slug) => ({ slug })) }),
  },
  {
    search: 'similar people',
    query: 'seeds: 3 engineers, at 25 large companies',
    body: (f) => ({
      seeds: f.seedProfiles.map((slug) => ({ slug })),
      currentCompanies: f.largeDomains.map((domain) => ({ domain })),
    }),
  },
];

const paths: Record<Scenario['search'], string> = {
  company: '/v1/company-search',
  people: '/v1/people-search',
  'similar companies': '/v1/companies/similar',
  'similar people': '/v1/people/similar',
};

const size = { companies, people, reuse };
const targets: BenchTarget[] = [await openBenchTarget(undefined, size, log)];
if (compareUrl) targets.push(await openBenchTarget(compareUrl, size, log));

interface Row {
  search: string;
  query: string;
  pageSize: number;
  page: string;
  /** By target, in the order of `targets`; null where that target had no deep page. */
  latency: Array<Latency | null>;
}
const rows: Row[] = [];

/** A query that fails (a statement timeout, say) is noted under the table rather than ending the run. */
const failures: string[] = [];
async function measureOrNote(
  what: string,
  works: Array<(() => Promise<unknown>) | null>,
  iterations: number,
): Promise<Array<Latency | null>> {
  try {
    const latency = await measureInTurn(works, iterations);
    process.stderr.write(`    ${what}: ${latency.map((l) => l?.medianMs ?? '-').join(' / ')} ms\n`);
    return latency;
  } catch (error) {
    failures.push(`${what}: ${(error as Error).message}`);
    return works.map(() => null);
  }
}

for (const scenario of scenarios.filter((s) => s.query.includes(onlyQueries))) {
  process.stderr.write(`  ${scenario.search}: ${scenario.query}\n`);
  const pathName = paths[scenario.search];
  const bodies = targets.map((target) => scenario.body(target.fixtures));
  const deep = await Promise.all(
    targets.map((target, i) =>
      deepCursor(target, pathName, bodies[i] as Record<string, unknown>).catch((error: Error) => {
        failures.push(`${target.name}, ${scenario.query}, paging to a deep cursor: ${error.message}`);
        return { cursor: null, skipped: 0 };
      }),
    ),
  );
  for (const pageSize of [25, 1000]) {
    const iterations = pageSize === 1000 ? Math.max(10, Math.floor(runs / 2)) : runs;
    rows.push({
      search: scenario.search,
      query: scenario.query,
      pageSize,
      page: 'first',
      latency: await measureOrNote(
        `${scenario.query}, page of ${pageSize}`,
        targets.map((target, i) => () => benchPost(target, pathName, { ...bodies[i], pageSize })),
        iterations,
      ),
    });
    if (deep.some((d) => d.cursor)) {
      const skipped = deep.find((d) => d.cursor)?.skipped ?? 0;
      rows.push({
        search: scenario.search,
        query: scenario.query,
        pageSize,
        page: `deep (after ${skipped.toLocaleString('en')} matches)`,
        latency: await measureOrNote(
          `${scenario.query}, deep page of ${pageSize}`,
          targets.map((target, i) =>
            deep[i]?.cursor
              ? () => benchPost(target, pathName, { ...bodies[i], pageSize, cursor: deep[i]?.cursor })
              : null,
          ),
          iterations,
        ),
      });
    }
  }
}

for (const target of targets) {
  await target.bench.stop();
  await target.agent.close();
  await target.database.close();
}

const result = {
  benchmark: 'search',
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
  failures,
};
await mkdir('bench/results', { recursive: true });
if (!onlyQueries)
  await writeFile(`bench/results/search-${companies}-${people}.json`, `${JSON.stringify(result, null, 2)}\n`);

const cell = (latency: Latency | null | undefined) => (latency ? `${latency.medianMs} | ${latency.p95Ms}` : '– | –');
const lines = [
  `#### Search: ${companies.toLocaleString('en')} companies / ${people.toLocaleString('en')} people, ${targets.map((t) => t.name).join(' and ')}`,
  '',
  ...targets.map(
    (t) =>
      `- ${t.name}: ${t.database.seedSeconds === null ? 'reused an existing database' : `seeded in ${t.database.seedSeconds} s`}.`,
  ),
  targets.length > 1
    ? '- Both servers hold the same seed (42) and are measured in the same run, one call on each in turn.'
    : '',
  '',
  `| setting | ${targets.map((t) => t.name).join(' | ')} |`,
  `|---|${targets.map(() => '---|').join('')}`,
  ...reportedSettings
    .filter((name) => name !== 'server_version')
    .map((name) => `| ${name} | ${targets.map((t) => t.database.settings[name]).join(' | ')} |`),
  '',
  `| search | filters | pageSize | page | ${targets.map((t) => `${t.name} median ms | p95 ms`).join(' | ')} |`,
  `|---|---|---:|---|${targets.map(() => '---:|---:|').join('')}`,
  ...rows.map(
    (r) =>
      `| ${r.search} | ${r.query} | ${r.pageSize} | ${r.page} | ${targets.map((_, i) => cell(r.latency[i])).join(' | ')} |`,
  ),
  '',
  ...(failures.length ? ['Failed (no figure above):', '', ...failures.map((f) => `- ${f}`), ''] : []),
];
process.stdout.write(`${lines.join('\n')}\n`);
