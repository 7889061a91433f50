import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containsPattern } from '../../src/core/search/sql.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * Title filters run a bigram-mask test before the substring test (src/core/search/people-filters.ts).
 * Whatever shape the SQL takes, a search must select exactly the people a plain case-insensitive
 * substring test selects: here checked against PostgreSQL's own ILIKE on the same rows, with
 * titles chosen to trip a mask (case, accents, letters whose lower case changes length, LIKE's
 * wildcards, one-letter texts) next to the seeded catalog's.
 */
let app: TestApp;
const trickyTitles = [
  'DIRECTEUR GÉNÉRAL',
  'Directrice générale adjointe',
  'Ärztliche Leiterin',
  'Straßenbau Leiter',
  'STRASSENBAU LEITER',
  'VP, Sales',
  'vp of sales emea',
  'Svp Of Salesforce Programs',
  '50%_Off Sales Lead',
  'R&D Lead',
  'C++ Engineer',
  'İnsan Kaynakları',
  'x',
  '',
  'Head of Sales 😀',
];

beforeAll(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SEARCH_PER_MINUTE: '10000' } });
  await app.db.pool.query(
    `INSERT INTO people (id, first_name, last_name, title, network_slug)
     SELECT (SELECT max(id) FROM people) + n, 'Test', 'Person ' || n, t, 'title-test-' || n
       FROM unnest($1::text[]) WITH ORDINALITY AS u(t, n)`,
    [trickyTitles],
  );
});
afterAll(async () => app?.stop());

async function searchIds(included: string[], excluded: string[], pageSize: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 500; page++) {
    const response = await app.request('POST', '/v1/people-search', {
      apiKey: app.apiKey,
      pageSize,
      cursor,
      searchParams: { jobTitleV2: { included, excluded } },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    ids.push(...response.body.output.data.map((record: { last_sort_key: string }) => record.last_sort_key));
    cursor = response.body.output.nextCursor;
    if (cursor === null) return ids;
  }
  throw new Error('paging did not end');
}

async function ilikeIds(included: string[], excluded: string[]): Promise<string[]> {
  const result = await app.db.pool.query<{ id: string }>(
    `SELECT p.id::text AS id FROM people p
      WHERE p.title ILIKE ANY($1::text[]) AND NOT (p.title ILIKE ANY($2::text[])) ORDER BY p.id`,
    [included.map(containsPattern), excluded.map(containsPattern)],
  );
  return result.rows.map((row) => row.id);
}

describe('title filters select what a case-insensitive substring test selects', () => {
  const cases: Array<[string[], string[]]> = [
    [['VP of Sales'], []],
    [['vp OF sales', 'HEAD of sales'], []],
    [['Head of Sales'], ['emea']],
    [['général'], []],
    [['GÉNÉRAL', 'ärztliche'], ['adjointe']],
    [['straße'], []],
    [['STRASSE'], []],
    [['50%_off'], []],
    [['%'], []],
    [['_'], ['sales']],
    [['r&d', 'c++'], []],
    [['i̇nsan', 'İnsan'], []],
    [['x'], []],
    [['😀'], []],
    [
      ['engineer', 'manager'],
      ['senior', 'assistant'],
    ],
    [['Director', 'VP', 'Head of'], ['Assistant']],
  ];
  it.each(cases)('included %j, excluded %j', async (included, excluded) => {
    const expected = await ilikeIds(included, excluded);
    expect(await searchIds(included, excluded, 1000)).toEqual(expected);
  });

  it('the same through pages of 25, and through the count (exact under its bound)', async () => {
    const [included, excluded] = [['VP of Sales', 'général', 'ärztliche'], ['emea']];
    const expected = await ilikeIds(included, excluded);
    expect(expected.length).toBeGreaterThan(25);
    expect(await searchIds(included, excluded, 25)).toEqual(expected);
    const count = await app.request('POST', '/v1/people-search/count', {
      apiKey: app.apiKey,
      searchParams: { jobTitleV2: { included, excluded } },
    });
    expect(count.status, JSON.stringify(count.body)).toBe(200);
    expect(count.body.output).toMatchObject({ count: expected.length, exact: true });
  });
});
