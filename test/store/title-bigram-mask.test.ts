import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containsPattern } from '../../src/core/search/sql.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

/**
 * title_bigram_mask (migration 086) lets a title filter skip the substring test on titles that
 * cannot contain the text. That is only sound if no title that ILIKE matches is ever ruled out,
 * whatever its letters, case, accents or LIKE wildcards; and only useful if it rules out most of
 * the titles that do not match.
 */
describe('title bigram masks', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('seeded');
  });
  afterAll(async () => {
    await database?.drop();
  });

  // Letters of several scripts and cases, the LIKE wildcards and escape, and characters whose
  // lower case differs in length or is locale-dependent (ß, İ, ǅ), plus a character outside the BMP.
  const letters = [...'aAbBsSzZéÉäÄßİıǅ€😀 ,.&%_\\-/0'];
  const title = fc.array(fc.constantFrom(...letters), { minLength: 0, maxLength: 24 }).map((chars) => chars.join(''));
  const flipCase = (text: string, flips: boolean[]) =>
    [...text]
      .map((char, index) => (flips[index % Math.max(flips.length, 1)] ? char.toUpperCase() : char.toLowerCase()))
      .join('');

  it('never rules out a title that contains the text as ILIKE sees it (fast-check, 3,000 cases)', async () => {
    const cases = fc
      .sample(fc.tuple(title, fc.nat(), fc.nat(), fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), title), {
        numRuns: 3000,
        seed: 86,
      })
      .map(([text, start, length, flips, other]) => {
        const chars = [...text];
        const from = chars.length ? start % chars.length : 0;
        const part = chars.slice(from, from + (length % 8)).join('');
        // Half the texts are pieces of the title in another case, half are unrelated strings.
        return { title: text, search: start % 2 ? flipCase(part, flips) : other };
      });
    const result = await database.db.pool.query<{ matched: number; lost: string[] }>(
      `SELECT count(*) FILTER (WHERE t ILIKE p)::int AS matched,
              coalesce(array_agg(t || ' ⟵ ' || s) FILTER (WHERE t ILIKE p
                AND (title_bigram_mask(t) & title_bigram_mask(s)) <> title_bigram_mask(s)), '{}') AS lost
         FROM unnest($1::text[], $2::text[], $3::text[]) AS c(t, s, p)`,
      [cases.map((c) => c.title), cases.map((c) => c.search), cases.map((c) => containsPattern(c.search))],
    );
    const row = result.rows[0] as { matched: number; lost: string[] };
    expect(row.matched, 'enough cases where the title contains the text').toBeGreaterThan(1000);
    expect(row.lost).toEqual([]);
  });

  it('rules out most titles of the catalog that do not contain the text', async () => {
    const result = await database.db.pool.query<{ text: string; others: number; ruled_out: number }>(
      `SELECT s AS text, count(*)::int AS others,
              count(*) FILTER (WHERE (title_bigram_mask(title) & title_bigram_mask(s)) <> title_bigram_mask(s))::int AS ruled_out
         FROM (SELECT DISTINCT title FROM people) t, unnest($1::text[]) AS s
        WHERE title NOT ILIKE '%' || s || '%'
        GROUP BY s`,
      [['VP of Sales', 'Head of Sales', 'engineer', 'Director']],
    );
    expect(result.rows).toHaveLength(4);
    for (const row of result.rows) {
      expect(row.others, row.text).toBeGreaterThan(20);
      expect(row.ruled_out / row.others, `${row.text}: share of other titles ruled out`).toBeGreaterThan(0.75);
    }
  });
});
