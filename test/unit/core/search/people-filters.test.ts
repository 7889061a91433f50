import { describe, expect, it } from 'vitest';
import type { PeopleSearchParams } from '../../../../operations/schemas/filters.js';
import { addPeopleConditions } from '../../../../src/core/search/people-filters.js';
import { SqlConditions } from '../../../../src/core/search/sql.js';

/** The people filters other than titles (their compilation has tests of its own). */
function compiled(params: Partial<PeopleSearchParams>): { clauses: string[]; params: unknown[] } {
  const sql = new SqlConditions();
  addPeopleConditions(sql, params as PeopleSearchParams);
  return { clauses: sql.clauses, params: sql.params };
}

describe('people filters compiled to SQL, titles aside', () => {
  it('add nothing for no filter, nor for empty lists', () => {
    expect(compiled({})).toEqual({ clauses: [], params: [] });
    expect(compiled({ country3LetterCode: [], tags: { anyOf: [], allOf: [], noneOf: [] } as never })).toEqual({
      clauses: [],
      params: [],
    });
  });

  it('compare one country as an equality, for the per-country index', () => {
    expect(compiled({ country3LetterCode: ['DEU'] })).toEqual({
      clauses: ['p.country3 = $1::bpchar'],
      params: ['DEU'],
    });
  });

  it('compare several countries as one list', () => {
    expect(compiled({ country3LetterCode: ['DEU', 'FRA'] })).toEqual({
      clauses: ['p.country3 = ANY($1::bpchar[])'],
      params: [['DEU', 'FRA']],
    });
  });

  it('bound years of experience as integers, rounded inwards', () => {
    expect(compiled({ yearsOfExperience: { min: 2.5, max: 10 } as never })).toEqual({
      clauses: ['p.years_experience >= $1::bigint', 'p.years_experience <= $2::bigint'],
      params: [3, 10],
    });
  });

  it.each<[string, PeopleSearchParams['tags'], string]>([
    ['any of', { anyOf: ['founder'] } as never, 'p.tags && $1::text[]'],
    ['all of', { allOf: ['founder', 'hiring'] } as never, 'p.tags @> $1::text[]'],
    ['none of', { noneOf: ['student'] } as never, 'NOT (p.tags && $1::text[])'],
  ])('compile tags %s', (_what, tags, clause) => {
    expect(compiled({ tags }).clauses).toEqual([clause]);
  });

  it('compile degree types as an overlap and schools as substrings, wildcards literal', () => {
    const { clauses, params } = compiled({ education: { degreeTypes: ['master'], schools: ['MIT', '100%'] } as never });
    expect(clauses[0]).toBe('p.degree_types && $1::text[]');
    expect(clauses[1]).toMatch(
      /^EXISTS \(SELECT 1 FROM unnest\(p\.schools\) AS school WHERE school ILIKE ANY\(\$2::text\[\]\)\)$/,
    );
    expect(params).toEqual([['master'], ['%MIT%', '%100\\%%']]);
  });

  it('bind every value, whatever it holds', () => {
    const { clauses, params } = compiled({ country3LetterCode: ["X'); DROP TABLE people; --"] });
    expect(clauses.join(' ')).not.toContain('DROP');
    expect(params).toEqual(["X'); DROP TABLE people; --"]);
  });

  it('find titles by their words only when asked, and only for words the text-search parser reads alike everywhere', () => {
    const titles = (included: string[], titlesByWords: boolean) => {
      const sql = new SqlConditions();
      addPeopleConditions(sql, { jobTitleV2: { included } } as PeopleSearchParams, { titlesByWords });
      return { where: sql.where(), params: sql.params };
    };
    expect(titles(['Chief Revenue Officer'], false).where).not.toContain('to_tsvector');
    const byWords = titles(['Chief Revenue Officer'], true);
    expect(byWords.where).toContain(`to_tsvector('simple', p.title_words) @@ plainto_tsquery('simple', $1)`);
    expect(byWords.params[0]).toBe('chief revenue officer');
    // The phrase test stays: the words say which titles to read, the LIKE which of them match.
    expect(byWords.params).toContain('% chief revenue officer %');
    const cyrillic = titles(['Директор по продажам'], true);
    expect(cyrillic.where).not.toContain('to_tsvector');
    expect(cyrillic.where).toContain('p.title_words LIKE');
  });
});
