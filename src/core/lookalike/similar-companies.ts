import type { CompanyRecord } from '../../../operations/schemas/records.js';
import { COUNTRIES } from '../../../reference/countries.js';
import { sizeBandOf } from '../../../reference/company-sizes.js';
import type { Queryable } from '../../store/db.js';
import type { Page } from '../search/company-search.js';
import { companyConditions, type CompanyQuery } from '../search/company-search.js';
import type { CursorCodec } from '../search/cursor.js';
import { companyColumns, toCompanyRecord, type CompanyRow } from '../search/records.js';
import { resolveCompanySeeds, type CompanySeed, type UnresolvedSeed } from './seeds.js';
import {
  COMPANY_TRAIT_POINTS as POINTS,
  industriesOfGroups,
  inSizeBands,
  lexemeQuery,
  similarityOf,
  sizeBandsOf,
} from './traits.js';

/**
 * Companies like the seeds: the companies of the seeds' industry groups and size bands (the
 * candidates, found through the industries' and the headcount's indexes, within the company
 * filters and exclusion lists of company search), ranked by the points of the traits each shares
 * with the seeds (traits.ts): the same industry or only the same group, the same size band, the
 * same headquarters country, the same funding stage, and the seeds' most telling description
 * words. Paged by a cursor of (points, id), so that a page follows the last in ranked order.
 */

export type CompanyTraitName = 'industry' | 'industryGroup' | 'sizeBand' | 'country' | 'stage' | 'descriptionTerms';

export interface SimilarCompany extends CompanyRecord {
  similarity: number;
  sharedTraits: CompanyTraitName[];
}

export interface SimilarCompaniesQuery extends CompanyQuery {
  seeds: CompanySeed[];
  pageSize: number;
  cursor?: string | null | undefined;
}

export interface SimilarCompaniesPage extends Page<SimilarCompany> {
  unresolvedSeeds: UnresolvedSeed[];
}

/** Description words compared: the seeds' most common, so that a page is scored on a few index-free tests. */
const DESCRIPTION_TERMS = 8;

interface SeedRow {
  id: number;
  preferred_name: string;
  standard_industries: string[];
  employee_count_min: number | null;
  country_code: string | null;
  stage: string | null;
  city: string | null;
  state_name: string | null;
}

export interface CompanyProfile {
  seedIds: number[];
  industries: string[];
  groupIndustries: string[];
  bands: number[];
  countries: string[];
  stages: string[];
  terms: string[];
}

const countryNames = new Map(COUNTRIES.map((c) => [c.code2, c.name]));
const words = (text: string | null | undefined) => (text ?? '').toLowerCase().split(/[^\p{L}\p{N}]+/u);

/** A word in more descriptions than this share says nothing of what a company does ("customers", "worldwide"). */
const COMMON_WORD_SHARE = 0.05;

/**
 * The words of the seeds' descriptions that say what they do: the most common over the seeds,
 * the rarer in the catalog first among equals. Left out: the words of more than a twentieth of all
 * descriptions, as the planner's statistics of the column count them (pg_stats keeps the commonest
 * elements of a tsvector column with their shares; one cheap read, and a word it does not list is
 * rarer than any it does), English stop words (PostgreSQL's own list), numbers, and the words of a
 * seed's own name and place, which no other company's description holds.
 */
async function descriptionTerms(db: Queryable, seeds: readonly SeedRow[]): Promise<string[]> {
  const own = new Set(
    seeds.flatMap((s) => [
      ...words(s.preferred_name),
      ...words(s.city),
      ...words(s.state_name),
      ...words(s.country_code ? countryNames.get(s.country_code) : null),
    ]),
  );
  const result = await db.query<{ lexeme: string }>(
    `WITH common AS (
       SELECT e.lexeme, e.share
         FROM pg_stats s, unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS e(lexeme, share)
        WHERE s.schemaname = ANY(current_schemas(false)) AND s.tablename = 'companies' AND s.attname = 'description_tsv'
          AND e.lexeme IS NOT NULL)
     SELECT u.lexeme
       FROM companies c CROSS JOIN unnest(c.description_tsv) AS u(lexeme, positions, weights)
       LEFT JOIN common ON common.lexeme = u.lexeme
      WHERE c.id = ANY($1::bigint[]) AND length(u.lexeme) >= 4 AND u.lexeme !~ '^[0-9]+$'
        AND to_tsvector('english', u.lexeme) <> ''::tsvector AND coalesce(common.share, 0) <= $3
      GROUP BY u.lexeme
      ORDER BY count(DISTINCT c.id) DESC, max(coalesce(common.share, 0)), length(u.lexeme) DESC, u.lexeme
      LIMIT $2`,
    [seeds.map((s) => s.id), DESCRIPTION_TERMS + own.size, COMMON_WORD_SHARE],
  );
  return result.rows
    .map((r) => r.lexeme)
    .filter((lexeme) => !own.has(lexeme))
    .slice(0, DESCRIPTION_TERMS);
}

export async function companyProfile(db: Queryable, seedIds: readonly number[]): Promise<CompanyProfile> {
  const seeds = await db.query<SeedRow>(
    `SELECT id, preferred_name, standard_industries, employee_count_min, country_code, stage, city, state_name
       FROM companies WHERE id = ANY($1::bigint[])`,
    [seedIds],
  );
  const distinct = <T>(values: Iterable<T | null>) =>
    [...new Set([...values].filter((v): v is T => v !== null))].sort();
  const industries = distinct(seeds.rows.flatMap((s) => s.standard_industries));
  return {
    seedIds: [...seedIds],
    industries,
    groupIndustries: industriesOfGroups(industries),
    bands: sizeBandsOf(seeds.rows.map((s) => s.employee_count_min)),
    countries: distinct(seeds.rows.map((s) => s.country_code)),
    stages: distinct(seeds.rows.map((s) => s.stage)),
    terms: await descriptionTerms(db, seeds.rows),
  };
}

/** The points a company earns, as SQL on alias `c`, and the points the profile makes possible. */
function scoring(sql: CompanyConditionsSql, profile: CompanyProfile): { points: string; possible: number } {
  const parts: string[] = [];
  let possible = 0;
  if (profile.industries.length) {
    possible += POINTS.industry;
    parts.push(`CASE WHEN c.standard_industries && ${sql.bind(profile.industries)}::text[] THEN ${POINTS.industry}
      WHEN c.standard_industries && ${sql.bind(profile.groupIndustries)}::text[] THEN ${POINTS.industryGroup} ELSE 0 END`);
  }
  if (profile.bands.length) {
    possible += POINTS.sizeBand;
    parts.push(
      `CASE WHEN ${inSizeBands(sql, 'c.employee_count_min', profile.bands)} THEN ${POINTS.sizeBand} ELSE 0 END`,
    );
  }
  if (profile.countries.length) {
    possible += POINTS.country;
    parts.push(
      `CASE WHEN c.country_code = ANY(${sql.bind(profile.countries)}::bpchar[]) THEN ${POINTS.country} ELSE 0 END`,
    );
  }
  if (profile.stages.length) {
    possible += POINTS.stage;
    parts.push(`CASE WHEN c.stage = ANY(${sql.bind(profile.stages)}::text[]) THEN ${POINTS.stage} ELSE 0 END`);
  }
  if (profile.terms.length) {
    possible += POINTS.descriptionTerms;
    parts.push(`(${termsMatched(sql, profile.terms)}) * ${POINTS.descriptionTerms} / ${profile.terms.length}`);
  }
  return { points: parts.length ? parts.map((p) => `(${p})`).join('\n + ') : '0', possible };
}

type CompanyConditionsSql = Awaited<ReturnType<typeof companyConditions>>;

/** How many of the terms a description holds: an integer SQL expression on `c`. */
function termsMatched(sql: CompanyConditionsSql, terms: readonly string[]): string {
  return terms.map((term) => `(c.description_tsv @@ ${sql.bind(lexemeQuery(term))}::tsquery)::int`).join(' + ');
}

interface ScoredRow extends CompanyRow {
  points: number;
  terms_matched: number;
}

function sharedTraits(row: ScoredRow, profile: CompanyProfile): CompanyTraitName[] {
  const shared: CompanyTraitName[] = [];
  if (row.standard_industries.some((i) => profile.industries.includes(i))) shared.push('industry');
  else if (row.standard_industries.some((i) => profile.groupIndustries.includes(i))) shared.push('industryGroup');
  const band = sizeBandOf(row.employee_count_min);
  if (band !== null && profile.bands.includes(band)) shared.push('sizeBand');
  if (row.country_code && profile.countries.includes(row.country_code)) shared.push('country');
  if (row.stage && profile.stages.includes(row.stage)) shared.push('stage');
  if (row.terms_matched > 0) shared.push('descriptionTerms');
  return shared;
}

export async function findSimilarCompanies(
  db: Queryable,
  cursors: CursorCodec,
  accountId: number,
  query: SimilarCompaniesQuery,
): Promise<SimilarCompaniesPage> {
  const pages = cursors.rankedScope(accountId, 'findSimilarCompanies', {
    seeds: query.seeds,
    searchParams: query.searchParams,
    lists: query.companyExclusionListIDs ?? [],
  });
  const after = pages.decode(query.cursor);
  const seeds = await resolveCompanySeeds(db, query.seeds);
  const profile = await companyProfile(db, seeds.ids);
  const sql = await companyConditions(db, accountId, query);
  sql.add(`c.id <> ALL(${sql.bind(seeds.ids)}::bigint[])`);
  // The candidates: the seeds' industry groups and size bands, each found through its index.
  if (profile.groupIndustries.length) sql.add(`c.standard_industries && ${sql.bind(profile.groupIndustries)}::text[]`);
  if (profile.bands.length) sql.add(inSizeBands(sql, 'c.employee_count_min', profile.bands));
  const { points, possible } = scoring(sql, profile);
  const position = after
    ? `WHERE s.points < ${sql.bind(after.rank)} OR (s.points = ${sql.bind(after.rank)} AND s.id > ${sql.bind(after.id)})`
    : '';
  const terms = profile.terms.length ? termsMatched(sql, profile.terms) : '0';
  const result = await db.query<ScoredRow>(
    `SELECT ${companyColumns}, page.points, ${terms} AS terms_matched
       FROM (SELECT s.id, s.points FROM (SELECT c.id, ${points} AS points FROM companies c ${sql.where()}) s
              ${position}
              ORDER BY s.points DESC, s.id LIMIT ${sql.bind(query.pageSize + 1)}) page
       JOIN companies c ON c.id = page.id
      ORDER BY page.points DESC, page.id`,
    sql.params,
  );
  const { rows, nextCursor } = pages.page(result.rows, query.pageSize, (row) => ({ rank: row.points, id: row.id }));
  return {
    data: rows.map((row) => ({
      ...toCompanyRecord(row),
      similarity: similarityOf(row.points, possible),
      sharedTraits: sharedTraits(row, profile),
    })),
    nextCursor,
    unresolvedSeeds: seeds.unresolved,
  };
}
