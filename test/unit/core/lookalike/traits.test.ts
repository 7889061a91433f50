import { describe, expect, it } from 'vitest';
import { COMPANY_SIZE_BANDS, sizeBandOf } from '../../../../reference/company-sizes.js';
import { INDUSTRIES } from '../../../../reference/industries.js';
import {
  industriesOfGroups,
  inSizeBands,
  lexemeQuery,
  similarityOf,
  sizeBandsOf,
} from '../../../../src/core/lookalike/traits.js';
import { SqlConditions } from '../../../../src/core/search/sql.js';

describe('lookalike traits', () => {
  it('put a headcount in the band its smallest figure falls in, the last band open-ended', () => {
    expect(sizeBandOf(null)).toBeNull();
    expect(sizeBandOf(1)).toBe(0);
    expect(sizeBandOf(10)).toBe(0);
    expect(sizeBandOf(11)).toBe(1);
    expect(sizeBandOf(5000)).toBe(5);
    expect(sizeBandOf(2_000_000)).toBe(COMPANY_SIZE_BANDS.length - 1);
    expect(sizeBandsOf([51, null, 120, 3])).toEqual([0, 2]);
  });

  it("widen the seeds' industries to every industry of their groups, and keep an unknown one as its own", () => {
    const software = INDUSTRIES.find((i) => i.slug === 'software-development');
    const sameGroup = INDUSTRIES.filter((i) => i.group === software?.group).map((i) => i.slug);
    const widened = industriesOfGroups(['software-development', 'imported-industry']);
    expect(widened).toEqual(expect.arrayContaining([...sameGroup, 'imported-industry']));
    expect(widened).toHaveLength(sameGroup.length + 1);
    expect(widened.some((slug) => INDUSTRIES.find((i) => i.slug === slug && i.group !== software?.group))).toBe(false);
  });

  it('test contiguous bands as one range, and the last band without a top', () => {
    const sql = new SqlConditions();
    expect(inSizeBands(sql, 'c.n', [1, 2, 4])).toBe(
      '(c.n BETWEEN $1::integer AND $2::integer OR c.n BETWEEN $3::integer AND $4::integer)',
    );
    expect(sql.params).toEqual([11, 200, 501, 1000]);
    const top = new SqlConditions();
    expect(inSizeBands(top, 'c.n', [6, 7])).toBe('(c.n >= $1::integer)');
    expect(top.params).toEqual([5001]);
    expect(inSizeBands(new SqlConditions(), 'c.n', [])).toBe('false');
  });

  it('quote a lexeme as a tsquery of that one word', () => {
    expect(lexemeQuery('cloud')).toBe("'cloud'");
    expect(lexemeQuery("o'neil")).toBe("'o''neil'");
  });

  it('weigh points against what the seeds make possible', () => {
    expect(similarityOf(50, 100)).toBe(0.5);
    expect(similarityOf(70, 70)).toBe(1);
    expect(similarityOf(1, 3)).toBe(0.333);
    expect(similarityOf(0, 0)).toBe(0);
  });
});
