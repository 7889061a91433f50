import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { titleColumns, titleMatches } from '../../src/core/titles/normalise.js';
import { fillTitleTerms } from '../../src/seed/title-terms.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * Title filters match words (src/core/search/people-filters.ts, docs/concepts.md "Titles"): the
 * SQL (a word-mask test, then a phrase test on title_words) must select exactly the people the
 * in-memory matcher selects, on the seeded catalog and on titles added in the forms people write.
 */
let app: TestApp;
let people: Array<{ id: string; title: string; seniority: string | null; job_function: string | null }>;
const writtenTitles = [
  'CTO',
  'Chief Technology Officer',
  'Co-Founder & CTO',
  'CTO @ Acme Robotics',
  'Managing Director',
  'Director of Marketing',
  'Plant Director',
  'VP Sales',
  'VP, Sales',
  'Vice President - Sales',
  'Vice President of Sales',
  'Sales VP',
  'Sr. Software Engineer',
  'Senior Software Engineer',
  'Software Engineer II',
  'HR Manager',
  'Human Resources Manager',
  'CEO',
  'Chief Executive Officer',
  'Sales Director',
  'Director, Sales',
  'Director of Sales',
  'Head of IT | Fintech',
  'PM',
  'Straßenbau Leiter',
  'DIRECTEUR GÉNÉRAL',
  '50%_Off Sales Lead',
  'x',
  '',
];

beforeAll(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SEARCH_PER_MINUTE: '10000' } });
  const titled = writtenTitles.map(titleColumns);
  await app.db.pool.query(
    `INSERT INTO people (id, first_name, last_name, title, network_slug, title_words, title_mask, seniority, job_function)
     SELECT (SELECT max(id) FROM people) + n, 'Test', 'Person ' || n, t, 'title-test-' || n, w, m, s, f
       FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[]) WITH ORDINALITY AS u(t, w, m, s, f, n)`,
    [
      writtenTitles,
      titled.map((t) => t.title_words),
      titled.map((t) => t.title_mask),
      titled.map((t) => t.seniority),
      titled.map((t) => t.job_function),
    ],
  );
  people = (
    await app.db.pool.query('SELECT id::text AS id, title, seniority, job_function FROM people ORDER BY people.id')
  ).rows;
});
afterAll(async () => app?.stop());

async function search(searchParams: Record<string, unknown>, pageSize = 1000) {
  const records: Array<Record<string, any>> = [];
  let cursor: string | null = null;
  for (let page = 0; page < 500; page++) {
    const response = await app.request('POST', '/v1/people-search', {
      apiKey: app.apiKey,
      pageSize,
      cursor,
      searchParams,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    records.push(...response.body.output.data);
    cursor = response.body.output.nextCursor;
    if (cursor === null) return records;
  }
  throw new Error('paging did not end');
}
const ids = (records: Array<Record<string, any>>) => records.map((r) => r.last_sort_key as string);

async function count(searchParams: Record<string, unknown>): Promise<number> {
  const response = await app.request('POST', '/v1/people-search/count', { apiKey: app.apiKey, searchParams });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body.output.exact).toBe(true);
  return response.body.output.count as number;
}

const expectedIds = (included: string[], excluded: string[]) =>
  people
    .filter(
      (p) =>
        (!included.length || included.some((f) => titleMatches(f, p.title))) &&
        !excluded.some((f) => titleMatches(f, p.title)),
    )
    .map((p) => p.id);

describe('title filters match words, in the forms people write', () => {
  it('"CTO" finds only titles that say CTO or Chief Technology Officer, never a Director', async () => {
    const found = await search({ jobTitleV2: { included: ['CTO'], excluded: [] } });
    expect(found.length).toBeGreaterThan(4);
    for (const record of found) expect(record.title).toMatch(/\bCTO\b|Chief Technology Officer/i);
    expect(found.map((r) => r.title)).not.toContain('Managing Director');
    expect(found.some((r) => /director/i.test(r.title))).toBe(false);
    expect(found.map((r) => r.title)).toEqual(
      expect.arrayContaining(['CTO', 'Co-Founder & CTO', 'CTO @ Acme Robotics']),
    );
  });

  const cases: Array<[string[], string[]]> = [
    [['VP of Sales'], []],
    [['vp sales', 'HEAD of sales'], []],
    [['Sales Director'], ['regional']],
    [['Director of Sales'], []],
    [
      ['engineer', 'manager'],
      ['Sr', 'assistant'],
    ],
    [['Director', 'VP', 'Head of'], ['Assistant']],
    [['PM'], []],
    [['Straße'], []],
    [['50%_off'], []],
    [['x'], []],
    [['général'], []],
  ];
  it.each(cases)('included %j, excluded %j: what the matcher selects', async (included, excluded) => {
    expect(ids(await search({ jobTitleV2: { included, excluded } }))).toEqual(expectedIds(included, excluded));
  });

  it('the same through pages of 25, and through the count', async () => {
    const [included, excluded] = [['VP of Sales', 'CTO'], ['EMEA']];
    const expected = expectedIds(included, excluded);
    expect(expected.length).toBeGreaterThan(25);
    expect(ids(await search({ jobTitleV2: { included, excluded } }, 25))).toEqual(expected);
    expect(await count({ jobTitleV2: { included, excluded } })).toBe(expected.length);
  });

  it.each([
    ['VP Sales', 'Vice President of Sales'],
    ['Sr. Software Engineer', 'Senior Software Engineer'],
    ['HR Manager', 'Human Resources Manager'],
    ['CEO', 'Chief Executive Officer'],
    ['Director, Sales', 'Sales Director'],
  ])('an abbreviation and its words count the same: %s and %s', async (short, long) => {
    const [a, b] = [
      await count({ jobTitleV2: { included: [short] } }),
      await count({ jobTitleV2: { included: [long] } }),
    ];
    expect(a).toBeGreaterThan(0);
    expect(a).toBe(b);
  });

  it('excluded titles take the same forms: excluding "Sr" removes every "Senior ..."', async () => {
    const found = await search({ jobTitleV2: { included: ['Software Engineer'], excluded: ['Sr'] } });
    expect(found.length).toBeGreaterThan(0);
    expect(found.some((r) => /senior|\bsr\b/i.test(r.title))).toBe(false);
    const withSenior = await search({ jobTitleV2: { included: ['Software Engineer'], excluded: [] } });
    expect(withSenior.some((r) => /senior/i.test(r.title))).toBe(true);
  });

  it('a title of stop words or punctuation alone is a 400 naming the field, and charges nothing', async () => {
    const before = (await app.request('GET', `/v1/credits?apiKey=${app.apiKey}`)).body.output.balance;
    for (const [jobTitleV2, field] of [
      [{ included: ['of the'] }, 'searchParams.jobTitleV2.included.0'],
      [{ included: ['CTO', ' & '] }, 'searchParams.jobTitleV2.included.1'],
      [{ excluded: ['-'] }, 'searchParams.jobTitleV2.excluded.0'],
    ] as const) {
      const response = await app.request('POST', '/v1/people-search', {
        apiKey: app.apiKey,
        searchParams: { jobTitleV2 },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(400);
      expect(response.body.error.details.issues.map((i: { field: string }) => i.field)).toContain(field);
      expect(response.body.error.message).toContain('stop words');
    }
    expect((await app.request('GET', `/v1/credits?apiKey=${app.apiKey}`)).body.output.balance).toBe(before);
  });
});

describe('seniority and job function', () => {
  it('every profile carries them, as its title reads', async () => {
    const found = await search({ jobTitleV2: { included: ['VP Sales'] } }, 25);
    expect(found.length).toBeGreaterThan(0);
    for (const record of found) {
      expect(record).toMatchObject({ seniority: 'vp', job_function: 'sales' });
    }
    for (const person of people.slice(0, 2000)) {
      const derived = titleColumns(person.title);
      expect([person.seniority, person.job_function]).toEqual([derived.seniority, derived.job_function]);
    }
  });

  it('filter people search and count (any of)', async () => {
    const searchParams = { seniority: ['vp', 'c_suite'], jobFunction: ['sales'] };
    const expected = people
      .filter((p) => ['vp', 'c_suite'].includes(p.seniority ?? '') && p.job_function === 'sales')
      .map((p) => p.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(await search(searchParams))).toEqual(expected);
    expect(await count(searchParams)).toBe(expected.length);
  });

  it('an unknown value is a 400 naming the field and listing the valid ones', async () => {
    const response = await app.request('POST', '/v1/people-search/count', {
      apiKey: app.apiKey,
      searchParams: { seniority: ['vp', 'boss'] },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.details.issues.map((i: { field: string }) => i.field)).toContain(
      'searchParams.seniority.1',
    );
    expect(response.body.error.message).toMatch(/c_suite/);
    const functions = await app.request('POST', '/v1/people-search', {
      apiKey: app.apiKey,
      searchParams: { jobFunction: ['wizardry'] },
    });
    expect(functions.status).toBe(400);
    expect(functions.body.error.message).toMatch(/engineering/);
  });

  it('are listed, free, by listJobTitleTaxonomy', async () => {
    const response = await app.request('GET', `/v1/enums/job-titles?apiKey=${app.apiKey}`);
    expect(response.status).toBe(200);
    expect(response.body.output.seniorities.map((s: { slug: string }) => s.slug)).toEqual(
      expect.arrayContaining(['owner', 'c_suite', 'vp', 'director', 'manager', 'senior', 'entry']),
    );
    expect(response.body.output.jobFunctions.map((s: { slug: string }) => s.slug)).toEqual(
      expect.arrayContaining(['engineering', 'sales', 'marketing']),
    );
  });
});

describe('a database migrated from before titles were words', () => {
  it('gets its profiles read as words at start, and they are found again', async () => {
    const sample = people.filter((p) => p.title).slice(0, 300);
    await app.db.pool.query(
      'UPDATE people SET title_words = NULL, title_mask = NULL, seniority = NULL, job_function = NULL WHERE id = ANY($1::bigint[])',
      [sample.map((p) => p.id)],
    );
    expect(await fillTitleTerms(app.db)).toBe(sample.length);
    const rows = (
      await app.db.pool.query(
        'SELECT title, title_words, title_mask::text, seniority, job_function FROM people WHERE id = ANY($1::bigint[])',
        [sample.map((p) => p.id)],
      )
    ).rows;
    for (const row of rows) {
      const derived = titleColumns(row.title);
      expect(row).toMatchObject({
        title_words: derived.title_words,
        title_mask: String(derived.title_mask),
        seniority: derived.seniority,
        job_function: derived.job_function,
      });
    }
    expect(await fillTitleTerms(app.db)).toBe(0);
  });
});
