import { describe, expect, it } from 'vitest';
import type { CompanySearchParams } from '../../../../operations/schemas/filters.js';
import { addCompanyConditions, addIntegerBound, addRange } from '../../../../src/core/search/company-filters.js';
import { substringTerms } from '../../../../src/core/search/cost.js';
import { SqlConditions } from '../../../../src/core/search/sql.js';

function compiled(params: Partial<CompanySearchParams>): { where: string; params: unknown[] } {
  const sql = new SqlConditions();
  addCompanyConditions(sql, params as CompanySearchParams);
  return { where: sql.where(), params: sql.params };
}

describe('company filters compiled to SQL', () => {
  it('add nothing for no filter, nor for empty lists', () => {
    expect(compiled({})).toEqual({ where: '', params: [] });
    expect(compiled({ keywords: [], domains: [], stage: [], industriesV2: [] })).toEqual({ where: '', params: [] });
  });

  it.each<[string, Partial<CompanySearchParams>, string, unknown[]]>([
    [
      'keywords as phrases, any of them',
      { keywords: ['machine learning', 'robots'] },
      "c.description_tsv @@ (phraseto_tsquery('simple', $1) || phraseto_tsquery('simple', $2))",
      ['machine learning', 'robots'],
    ],
    ['a name anywhere, wildcards literal', { nameLike: '50%_off' }, 'c.preferred_name ILIKE $1', ['%50\\%\\_off%']],
    [
      'countries as char(2) for the index',
      { headquartersCountryCode: ['US', 'DE'] },
      'c.country_code = ANY($1::bpchar[])',
      [['US', 'DE']],
    ],
    [
      'state names in lower case',
      { headquartersStateName: ['Texas', 'NEW YORK'] },
      'lower(c.state_name) = ANY($1::text[])',
      [['texas', 'new york']],
    ],
    [
      'locations as substrings',
      { headquartersLocation: ['Austin', 'a_b'] },
      'c.location_text ILIKE ANY($1::text[])',
      [['%Austin%', '%a\\_b%']],
    ],
    ['stages as given', { stage: ['seed', 'series_a'] as never }, 'c.stage = ANY($1::text[])', [['seed', 'series_a']]],
    [
      'industries in lower case, overlapping',
      { industriesV2: ['Software', 'fintech'] },
      'c.standard_industries && $1::text[]',
      [['software', 'fintech']],
    ],
    [
      'domains normalised from URLs',
      { domains: ['https://www.Acme.com/about', 'beta.io.'] },
      'c.domains && $1::text[]',
      [['acme.com', 'beta.io']],
    ],
    [
      'network slugs in lower case',
      { networkSlugs: ['Acme-Robotics'] },
      'c.network_primary_slug = ANY($1::text[])',
      [['acme-robotics']],
    ],
    ['top-level domains', { tlds: ['io', 'ai'] }, 'c.tlds && $1::text[]', [['io', 'ai']]],
    [
      'special flags in upper case',
      { specialFlags: ['yc', 'Public'] as never },
      'c.special_flags && $1::text[]',
      [['YC', 'PUBLIC']],
    ],
  ])('compile %s', (_what, params, where, bound) => {
    expect(compiled(params)).toEqual({ where: `WHERE ${where}`, params: bound });
  });

  it("match a headcount range when the company's own range lies within it", () => {
    expect(compiled({ employeeCountV2: { min: 51, max: 200 } })).toEqual({
      where: 'WHERE c.employee_count_min >= $1::bigint\n  AND c.employee_count_max <= $2::bigint',
      params: [51, 200],
    });
    expect(compiled({ employeeCountV2: { max: 10 } }).where).toBe('WHERE c.employee_count_max <= $1::bigint');
  });

  it('compile funding as integer bounds and dates as dates', () => {
    expect(compiled({ totalFundingUSD: { min: 1_000_000 }, foundedOn: { max: '2020-01-01' } as never })).toEqual({
      where: 'WHERE c.total_funding_usd >= $1::bigint\n  AND c.founded_on <= $2::date',
      params: [1_000_000, '2020-01-01'],
    });
    expect(compiled({ lastFundedOn: { min: '2024-01-01', max: '2024-12-31' } as never }).params).toEqual([
      '2024-01-01',
      '2024-12-31',
    ]);
  });

  it('combine several filters with AND, each value bound in turn', () => {
    const { where, params } = compiled({ nameLike: 'acme', stage: ['seed'] as never, tlds: ['io'] });
    expect(where.split('\n  AND ')).toHaveLength(3);
    expect(params).toEqual(['%acme%', ['seed'], ['io']]);
    expect(where).not.toContain('acme');
  });
});

describe('integer bounds', () => {
  const bound = (operator: '>=' | '<=', value: number | string | undefined) => {
    const sql = new SqlConditions();
    addIntegerBound(sql, 'x', operator, value);
    return { where: sql.where(), params: sql.params };
  };

  it.each<['>=' | '<=', number | string, number]>([
    ['>=', 2.5, 3],
    ['<=', 2.5, 2],
    ['>=', -1.5, -1],
    ['<=', -1.5, -2],
    ['>=', '7', 7],
    ['<=', 10, 10],
  ])('round %s %j inwards to %j', (operator, value, whole) => {
    expect(bound(operator, value)).toEqual({ where: `WHERE x ${operator} $1::bigint`, params: [whole] });
  });

  it('keep a bound no integer can reach as numeric', () => {
    expect(bound('>=', 1e300)).toEqual({ where: 'WHERE x >= $1::numeric', params: [1e300] });
  });

  it('add nothing without a bound', () => {
    expect(bound('>=', undefined)).toEqual({ where: '', params: [] });
  });
});

describe('ranges', () => {
  it('add nothing for no range, and one side for a half-open one', () => {
    const sql = new SqlConditions();
    addRange(sql, 'y', undefined);
    expect(sql.clauses).toEqual([]);
    addRange(sql, 'y', { max: 9 });
    expect(sql.clauses).toEqual(['y <= $1::bigint']);
  });
});

describe('substringTerms', () => {
  it('counts every term compared as a substring, and nothing else', () => {
    expect(substringTerms({})).toBe(0);
    expect(substringTerms({ company: { keywords: ['x'], tlds: ['io'] } as never })).toBe(0);
    expect(
      substringTerms({
        company: { nameLike: 'acme', headquartersLocation: ['Austin', 'Paris'] } as never,
        people: {
          jobTitleV2: { included: ['CEO', 'CTO'], excluded: ['intern'] },
          education: { schools: ['MIT'] },
        } as never,
      }),
    ).toBe(7);
  });
});
