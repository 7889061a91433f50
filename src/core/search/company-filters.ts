import type { CompanySearchParams } from '../../../operations/schemas/filters.js';
import { normaliseDomain } from '../network-urls.js';
import { containsPattern, type SqlConditions } from './sql.js';

/**
 * Adds the conditions of the company filters, on table alias `c`. Semantics (documented in
 * the README): list filters match any listed value; ranges are inclusive; a range filter
 * excludes companies whose value is unknown; all filters combine with AND.
 */
export function addCompanyConditions(sql: SqlConditions, params: CompanySearchParams): void {
  if (params.keywords?.length) {
    // Whole words, case-insensitive; a multi-word term matches as a phrase.
    const queries = params.keywords.map((term) => `phraseto_tsquery('simple', ${sql.bind(term)})`);
    sql.add(`c.description_tsv @@ (${queries.join(' || ')})`);
  }
  if (params.nameLike) sql.add(`c.preferred_name ILIKE ${sql.bind(containsPattern(params.nameLike))}`);
  // bpchar[] matches the char(2) column: a text[] would cast the column, hiding its statistics and index.
  if (params.headquartersCountryCode?.length) sql.add(`c.country_code = ANY(${sql.bind(params.headquartersCountryCode)}::bpchar[])`);
  if (params.headquartersStateName?.length) {
    sql.add(`lower(c.state_name) = ANY(${sql.bind(params.headquartersStateName.map((s) => s.toLowerCase()))}::text[])`);
  }
  if (params.headquartersLocation?.length) {
    sql.add(`c.location_text ILIKE ANY(${sql.bind(params.headquartersLocation.map(containsPattern))}::text[])`);
  }
  if (params.employeeCountV2) {
    // A company's headcount is a range; it matches when that range lies within the filter's.
    if (params.employeeCountV2.min !== undefined) addIntegerBound(sql, 'c.employee_count_min', '>=', params.employeeCountV2.min, 'integer');
    if (params.employeeCountV2.max !== undefined) addIntegerBound(sql, 'c.employee_count_max', '<=', params.employeeCountV2.max, 'integer');
  }
  addIntegerRange(sql, 'c.total_funding_usd', params.totalFundingUSD, 'bigint');
  addIntegerRange(sql, 'c.last_funding_usd', params.lastFundingUSD, 'bigint');
  addRange(sql, 'c.last_funded_on', params.lastFundedOn, 'date');
  addRange(sql, 'c.founded_on', params.foundedOn, 'date');
  if (params.stage?.length) sql.add(`c.stage = ANY(${sql.bind(params.stage)}::text[])`);
  if (params.industriesV2?.length) sql.add(`c.standard_industries && ${sql.bind(params.industriesV2.map((s) => s.toLowerCase()))}::text[]`);
  if (params.domains?.length) sql.add(`c.domains && ${sql.bind(params.domains.map(normaliseDomain))}::text[]`);
  if (params.networkSlugs?.length) {
    sql.add(`c.network_primary_slug = ANY(${sql.bind(params.networkSlugs.map((s) => s.toLowerCase()))}::text[])`);
  }
  if (params.tlds?.length) sql.add(`c.tlds && ${sql.bind(params.tlds)}::text[]`);
  if (params.specialFlags?.length) sql.add(`c.special_flags && ${sql.bind(params.specialFlags.map((f) => f.toUpperCase()))}::text[]`);
}

export function addRange(
  sql: SqlConditions,
  column: string,
  range: { min?: number | string; max?: number | string } | undefined,
  cast: 'date' | 'numeric' = 'numeric',
): void {
  if (!range) return;
  if (range.min !== undefined) sql.add(`${column} >= ${sql.bind(range.min)}::${cast}`);
  if (range.max !== undefined) sql.add(`${column} <= ${sql.bind(range.max)}::${cast}`);
}

const integerColumnLimits = { integer: 2_147_483_647, bigint: Number.MAX_SAFE_INTEGER } as const;

/** An inclusive {min, max} filter on an integer column (see addIntegerBound). */
export function addIntegerRange(sql: SqlConditions, column: string, range: { min?: number; max?: number } | undefined, type: 'integer' | 'bigint'): void {
  if (range?.min !== undefined) addIntegerBound(sql, column, '>=', range.min, type);
  if (range?.max !== undefined) addIntegerBound(sql, column, '<=', range.max, type);
}

/**
 * An inclusive bound on an integer column from any JSON number the schema lets through (1.5,
 * 1e80): rounded inward, which keeps its meaning on whole numbers (>= 1.5 is >= 2), and compared in
 * the column's own type so that its index serves. A bound past what that type holds exactly is
 * compared as numeric instead, which is exact too ("at least 1e80" matches nothing); as an integer
 * parameter it was refused by PostgreSQL, and the request answered 500.
 */
export function addIntegerBound(sql: SqlConditions, column: string, comparison: '>=' | '<=', value: number, type: 'integer' | 'bigint'): void {
  const bound = comparison === '>=' ? Math.ceil(value) : Math.floor(value);
  const fits = Number.isSafeInteger(bound) && Math.abs(bound) <= integerColumnLimits[type];
  sql.add(`${column} ${comparison} ${sql.bind(fits ? bound : String(bound))}::${fits ? type : 'numeric'}`);
}
