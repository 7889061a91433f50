import type { CompanySearchParams } from '../../../operations/schemas/filters.js';
import { normaliseDomain } from '../network-urls.js';
import { containsPattern, type SqlConditions } from './sql.js';

/**
 * Adds the conditions of the company filters, on table alias `c`. Semantics (documented in
 * docs/concepts.md): list filters match any listed value; ranges are inclusive; a range filter
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
  if (params.headquartersCountryCode?.length)
    sql.add(`c.country_code = ANY(${sql.bind(params.headquartersCountryCode)}::bpchar[])`);
  if (params.headquartersStateName?.length) {
    sql.add(`lower(c.state_name) = ANY(${sql.bind(params.headquartersStateName.map((s) => s.toLowerCase()))}::text[])`);
  }
  if (params.headquartersLocation?.length) {
    sql.add(`c.location_text ILIKE ANY(${sql.bind(params.headquartersLocation.map(containsPattern))}::text[])`);
  }
  if (params.employeeCountV2) {
    // A company's headcount is a range; it matches when that range lies within the filter's.
    addIntegerBound(sql, 'c.employee_count_min', '>=', params.employeeCountV2.min);
    addIntegerBound(sql, 'c.employee_count_max', '<=', params.employeeCountV2.max);
  }
  addRange(sql, 'c.total_funding_usd', params.totalFundingUSD);
  addRange(sql, 'c.last_funding_usd', params.lastFundingUSD);
  addRange(sql, 'c.last_funded_on', params.lastFundedOn, 'date');
  addRange(sql, 'c.founded_on', params.foundedOn, 'date');
  if (params.stage?.length) sql.add(`c.stage = ANY(${sql.bind(params.stage)}::text[])`);
  if (params.industriesV2?.length)
    sql.add(`c.standard_industries && ${sql.bind(params.industriesV2.map((s) => s.toLowerCase()))}::text[]`);
  if (params.domains?.length) sql.add(`c.domains && ${sql.bind(params.domains.map(normaliseDomain))}::text[]`);
  if (params.networkSlugs?.length) {
    sql.add(`c.network_primary_slug = ANY(${sql.bind(params.networkSlugs.map((s) => s.toLowerCase()))}::text[])`);
  }
  if (params.tlds?.length) sql.add(`c.tlds && ${sql.bind(params.tlds)}::text[]`);
  if (params.specialFlags?.length)
    sql.add(`c.special_flags && ${sql.bind(params.specialFlags.map((f) => f.toUpperCase()))}::text[]`);
}

export function addRange(
  sql: SqlConditions,
  column: string,
  range: { min?: number | string; max?: number | string } | undefined,
  cast: 'date' | 'integer' = 'integer',
): void {
  if (!range) return;
  if (cast === 'date') {
    if (range.min !== undefined) sql.add(`${column} >= ${sql.bind(range.min)}::date`);
    if (range.max !== undefined) sql.add(`${column} <= ${sql.bind(range.max)}::date`);
    return;
  }
  addIntegerBound(sql, column, '>=', range.min);
  addIntegerBound(sql, column, '<=', range.max);
}

/**
 * A bound on an integer column, compared as an integer: a numeric parameter would cast the
 * column instead, which hides its index and statistics from the planner, and it then misjudges
 * the range's rows (docs/decisions/0006-search-on-postgresql.md). A fractional bound is rounded inwards (at least 2.5 years is at least 3), which
 * matches the same rows; a bound no integer column can reach keeps the numeric comparison.
 */
export function addIntegerBound(
  sql: SqlConditions,
  column: string,
  operator: '>=' | '<=',
  bound: number | string | undefined,
): void {
  if (bound === undefined) return;
  const value = Number(bound);
  const whole = operator === '>=' ? Math.ceil(value) : Math.floor(value);
  if (Number.isSafeInteger(whole)) sql.add(`${column} ${operator} ${sql.bind(whole)}::bigint`);
  else sql.add(`${column} ${operator} ${sql.bind(bound)}::numeric`);
}
