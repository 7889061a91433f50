import pg from 'pg';
import type { PeopleSearchParams } from '../operations/schemas/filters.js';
import { peopleSearchParams } from '../operations/schemas/filters.js';
import { peopleConditions } from '../src/core/search/people-search.js';
import { containsPattern } from '../src/core/search/sql.js';
import { createLogger } from '../src/log.js';
import { createCompanyGenerator } from '../src/seed/generate/companies.js';
import { createPeopleGenerator } from '../src/seed/generate/people.js';
import { arg, machineLine, openBenchDatabase } from './lib.js';

/**
 * Relevance of the title filter (issue 31): a labelled set of title queries, each written in the
 * forms people type, over the demo catalog. A person is relevant to a query when the title the
 * generator chose for them (before writing it as "VP Sales", "Sr. ...", "... @ Company") is one
 * of the query's labelled titles, which are written by hand here, not derived by the normaliser.
 * For each form: precision of the first page of 25, and precision and recall of all its matches
 * (what a count counts), for the title filter as words and, beside it, for the plain
 * case-insensitive substring test it replaced.
 *
 *   node dist/bench/relevance.js [--companies 20000] [--people 200000]
 */
const companies = Number(arg('companies', '20000'));
const people = Number(arg('people', '200000'));
const seed = 42;

const queries: Array<{ query: string; relevant: string[]; forms: string[] }> = [
  {
    query: 'CTO',
    relevant: ['Chief Technology Officer', 'CTO', 'Co-Founder & CTO'],
    forms: ['CTO', 'Chief Technology Officer', 'C.T.O.'],
  },
  {
    query: 'VP of Sales',
    relevant: ['VP of Sales', 'Vice President of Sales', 'SVP of Sales'],
    forms: ['VP Sales', 'VP, Sales', 'VP of Sales', 'Vice President of Sales', 'Vice President - Sales', 'Sales VP'],
  },
  {
    query: 'Senior Software Engineer',
    relevant: ['Senior Software Engineer'],
    forms: ['Senior Software Engineer', 'Sr. Software Engineer', 'Sr Software Engineer', 'Snr Software Engineer'],
  },
  {
    query: 'HR Manager',
    relevant: ['HR Manager'],
    forms: ['HR Manager', 'Human Resources Manager', 'HR Mgr'],
  },
  {
    query: 'CEO',
    relevant: ['Chief Executive Officer', 'CEO', 'President & CEO', 'Founder & CEO', 'Co-Founder & CEO'],
    forms: ['CEO', 'Chief Executive Officer'],
  },
  {
    query: 'Sales Director',
    relevant: ['Director of Sales', 'Sales Director', 'Regional Sales Director'],
    forms: ['Sales Director', 'Director of Sales', 'Director, Sales'],
  },
  {
    query: 'Marketing Director',
    relevant: ['Director of Marketing', 'Marketing Director'],
    forms: ['Marketing Director', 'Director of Marketing', 'Mktg Director'],
  },
  {
    query: 'Software Engineer',
    relevant: [
      'Software Engineer',
      'Junior Software Engineer',
      'Associate Software Engineer',
      'Software Engineer I',
      'Senior Software Engineer',
      'Staff Software Engineer',
      'Principal Software Engineer',
    ],
    forms: ['Software Engineer', 'Software Engineers', 'SWE'],
  },
  { query: 'Head of IT', relevant: ['Head of IT'], forms: ['Head of IT', 'Head of Information Technology'] },
  { query: 'CFO', relevant: ['Chief Financial Officer', 'CFO'], forms: ['CFO', 'Chief Financial Officer'] },
];

// The labels: each person's title as the generator chose it, by id.
const companyGenerator = createCompanyGenerator(seed);
const generator = createPeopleGenerator(seed, companies, companyGenerator);
const canonical: string[] = [''];
for (let id = 1; id <= people; id++) canonical.push(generator.person(id).canonicalTitle);

const database = await openBenchDatabase({
  name: 'relevance',
  companies,
  people,
  reuse: false,
  log: createLogger('warn'),
});
const client = new pg.Client({ connectionString: database.url, options: '-c jit=off' });
await client.connect();

interface Measure {
  page: number;
  precision: number;
  recall: number;
  matched: number;
}

function measure(ids: number[], pageIds: number[], relevant: Set<string>, total: number): Measure {
  const hits = ids.filter((id) => relevant.has(canonical[id] as string)).length;
  const pageHits = pageIds.filter((id) => relevant.has(canonical[id] as string)).length;
  return {
    page: pageIds.length ? pageHits / pageIds.length : 1,
    precision: ids.length ? hits / ids.length : 1,
    recall: total ? hits / total : 1,
    matched: ids.length,
  };
}

async function asWords(form: string): Promise<number[]> {
  const searchParams: PeopleSearchParams = peopleSearchParams.parse({ jobTitleV2: { included: [form] } });
  const sql = await peopleConditions(client, 0, { searchParams });
  if (!sql) return [];
  const result = await client.query<{ id: string }>(
    `SELECT p.id FROM people p ${sql.where()} ORDER BY p.id`,
    sql.params,
  );
  return result.rows.map((row) => Number(row.id));
}

async function asSubstring(form: string): Promise<number[]> {
  const result = await client.query<{ id: string }>('SELECT id FROM people WHERE title ILIKE $1 ORDER BY id', [
    containsPattern(form),
  ]);
  return result.rows.map((row) => Number(row.id));
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const lines: string[] = [];
const totals = { words: [] as Measure[], substring: [] as Measure[] };
for (const { query, relevant, forms } of queries) {
  const labels = new Set(relevant);
  const total = canonical.filter((title) => labels.has(title)).length;
  for (const form of forms) {
    const words = await asWords(form);
    const substring = await asSubstring(form);
    const w = measure(words, words.slice(0, 25), labels, total);
    const s = measure(substring, substring.slice(0, 25), labels, total);
    totals.words.push(w);
    totals.substring.push(s);
    lines.push(
      `| ${query} | ${form} | ${total} | ${w.matched} | ${percent(w.page)} | ${percent(w.precision)} | ${percent(w.recall)} | ${s.matched} | ${percent(s.page)} | ${percent(s.precision)} | ${percent(s.recall)} |`,
    );
  }
}
await client.end();
await database.close();

const mean = (values: Measure[], key: keyof Measure) => values.reduce((sum, m) => sum + m[key], 0) / values.length;
process.stdout.write(
  [
    `#### Title relevance, ${companies.toLocaleString('en')} companies / ${people.toLocaleString('en')} people (seed ${seed}; ${machineLine()})`,
    '',
    'Relevant: people whose generated title is one of the query\'s labelled titles, however it was written. "Page" is the',
    'precision of the first page of 25; "precision" and "recall" are those of all matches, which a count counts.',
    '',
    '| query | form | relevant | as words: matched | page | precision | recall | as substring: matched | page | precision | recall |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...lines,
    `| **mean over ${totals.words.length} forms** | | | | ${percent(mean(totals.words, 'page'))} | ${percent(mean(totals.words, 'precision'))} | ${percent(mean(totals.words, 'recall'))} | | ${percent(mean(totals.substring, 'page'))} | ${percent(mean(totals.substring, 'precision'))} | ${percent(mean(totals.substring, 'recall'))} |`,
    '',
  ].join('\n') + '\n',
);
