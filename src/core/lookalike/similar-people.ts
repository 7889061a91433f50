import type { ProfileRecord } from '../../../operations/schemas/records.js';
import { sizeBandOf } from '../../../reference/company-sizes.js';
import { TITLE_STOP_WORDS } from '../../../reference/job-titles.js';
import type { Queryable } from '../../store/db.js';
import type { Page } from '../search/company-search.js';
import type { CursorCodec } from '../search/cursor.js';
import { peopleConditions, type PeopleQuery } from '../search/people-search.js';
import { profileColumns, toProfileRecord, type ProfileRow } from '../search/records.js';
import type { SqlConditions } from '../search/sql.js';
import { titleVariants } from '../titles/normalise.js';
import { resolvePersonSeeds, type PersonSeed, type UnresolvedSeed } from './seeds.js';
import { PERSON_TRAIT_POINTS as POINTS, industriesOfGroups, inSizeBands, similarityOf, sizeBandsOf } from './traits.js';

/**
 * People like the seeds: people in the seeds' job functions at companies of the seeds' companies'
 * industry groups and size bands (or, with currentCompanies, at those companies whatever they are),
 * within the people filters and exclusion lists of people search, ranked by the points of the
 * traits each shares with the seeds (traits.ts): the words of their titles, seniority, job
 * function, their company's industry (or only its group) and size band, and their country. Paged
 * by a cursor of (points, id).
 */

export type PersonTraitName =
  'titleWords' | 'seniority' | 'jobFunction' | 'industry' | 'industryGroup' | 'sizeBand' | 'country';

export interface SimilarPerson extends ProfileRecord {
  similarity: number;
  sharedTraits: PersonTraitName[];
}

export interface SimilarPeopleQuery extends PeopleQuery {
  seeds: PersonSeed[];
  excludeSeedCompanies: boolean;
  pageSize: number;
  cursor?: string | null | undefined;
}

export interface SimilarPeoplePage extends Page<SimilarPerson> {
  unresolvedSeeds: UnresolvedSeed[];
}

/** Title words compared: the seeds' most common. */
const TITLE_WORDS = 6;
const titleStopWords = new Set(TITLE_STOP_WORDS);

interface SeedRow {
  title: string;
  seniority: string | null;
  job_function: string | null;
  country3: string | null;
  company_id: number | null;
  standard_industries: string[] | null;
  employee_count_min: number | null;
}

export interface PersonProfile {
  seedIds: number[];
  titleWords: string[];
  seniorities: string[];
  functions: string[];
  countries: string[];
  companyIds: number[];
  industries: string[];
  groupIndustries: string[];
  bands: number[];
}

/** The words of the seeds' titles as the title filter reads them, the most common first, then in order. */
function commonTitleWords(titles: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const title of titles) {
    const first = titleVariants(title)[0] ?? [];
    for (const word of new Set(first)) if (!titleStopWords.has(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TITLE_WORDS)
    .map(([word]) => word);
}

async function personProfile(db: Queryable, seedIds: readonly number[]): Promise<PersonProfile> {
  const seeds = await db.query<SeedRow>(
    `SELECT p.title, p.seniority, p.job_function, p.country3, p.company_id, c.standard_industries, c.employee_count_min
       FROM people p LEFT JOIN companies c ON c.id = p.company_id
      WHERE p.id = ANY($1::bigint[])`,
    [seedIds],
  );
  const distinct = <T>(values: Iterable<T | null>) =>
    [...new Set([...values].filter((v): v is T => v !== null))].sort();
  const industries = distinct(seeds.rows.flatMap((s) => s.standard_industries ?? []));
  return {
    seedIds: [...seedIds],
    titleWords: commonTitleWords(seeds.rows.map((s) => s.title)),
    seniorities: distinct(seeds.rows.map((s) => s.seniority)),
    functions: distinct(seeds.rows.map((s) => s.job_function)),
    countries: distinct(seeds.rows.map((s) => s.country3)),
    companyIds: distinct(seeds.rows.map((s) => s.company_id)),
    industries,
    groupIndustries: industriesOfGroups(industries),
    bands: sizeBandsOf(seeds.rows.filter((s) => s.company_id !== null).map((s) => s.employee_count_min)),
  };
}

/** How many of the title words a title holds: an integer SQL expression on `p`. */
function titleWordsMatched(sql: SqlConditions, words: readonly string[]): string {
  return words.map((word) => `(p.title_words LIKE ${sql.bind(`% ${word} %`)})::int`).join(' + ');
}

/** The points a person earns, as SQL on `p` and their company `c`, and the points the profile makes possible. */
function scoring(sql: SqlConditions, profile: PersonProfile): { points: string; possible: number } {
  const parts: string[] = [];
  let possible = 0;
  const when = (test: string, points: number) => {
    possible += points;
    parts.push(`CASE WHEN ${test} THEN ${points} ELSE 0 END`);
  };
  if (profile.titleWords.length) {
    possible += POINTS.titleWords;
    parts.push(`(${titleWordsMatched(sql, profile.titleWords)}) * ${POINTS.titleWords} / ${profile.titleWords.length}`);
  }
  if (profile.seniorities.length) when(`p.seniority = ANY(${sql.bind(profile.seniorities)}::text[])`, POINTS.seniority);
  if (profile.functions.length)
    when(`p.job_function = ANY(${sql.bind(profile.functions)}::text[])`, POINTS.jobFunction);
  if (profile.industries.length) {
    possible += POINTS.industry;
    parts.push(`CASE WHEN c.standard_industries && ${sql.bind(profile.industries)}::text[] THEN ${POINTS.industry}
      WHEN c.standard_industries && ${sql.bind(profile.groupIndustries)}::text[] THEN ${POINTS.industryGroup} ELSE 0 END`);
  }
  if (profile.bands.length) when(inSizeBands(sql, 'c.employee_count_min', profile.bands), POINTS.sizeBand);
  if (profile.countries.length) when(`p.country3 = ANY(${sql.bind(profile.countries)}::bpchar[])`, POINTS.country);
  return { points: parts.length ? parts.map((p) => `(${p})`).join('\n + ') : '0', possible };
}

type ScoredRow = ProfileRow & {
  points: number;
  title_matched: number;
  company_industries: string[] | null;
  company_employee_min: number | null;
};

function sharedTraits(row: ScoredRow, profile: PersonProfile): PersonTraitName[] {
  const shared: PersonTraitName[] = [];
  if (row.title_matched > 0) shared.push('titleWords');
  if (row.seniority && profile.seniorities.includes(row.seniority)) shared.push('seniority');
  if (row.job_function && profile.functions.includes(row.job_function)) shared.push('jobFunction');
  const industries = row.company_industries ?? [];
  if (industries.some((i) => profile.industries.includes(i))) shared.push('industry');
  else if (industries.some((i) => profile.groupIndustries.includes(i))) shared.push('industryGroup');
  const band = sizeBandOf(row.company_employee_min);
  if (band !== null && profile.bands.includes(band)) shared.push('sizeBand');
  if (row.country3 && profile.countries.includes(row.country3)) shared.push('country');
  return shared;
}

export async function findSimilarPeople(
  db: Queryable,
  cursors: CursorCodec,
  accountId: number,
  query: SimilarPeopleQuery,
): Promise<SimilarPeoplePage> {
  // The detail switches change what each record carries, not which records match: paging may toggle them.
  const { getDetailedEducation, getDetailedWorkExperience, ...filters } = query.searchParams;
  const details = { getDetailedEducation, getDetailedWorkExperience };
  const pages = cursors.rankedScope(accountId, 'findSimilarPeople', {
    seeds: query.seeds,
    excludeSeedCompanies: query.excludeSeedCompanies,
    searchParams: filters,
    currentCompanies: query.currentCompanies ?? [],
    prospectLists: query.prospectExclusionListIDs ?? [],
    companyLists: query.companyExclusionListIDs ?? [],
  });
  const after = pages.decode(query.cursor);
  const seeds = await resolvePersonSeeds(db, query.seeds);
  const profile = await personProfile(db, seeds.ids);
  const sql = await peopleConditions(db, accountId, query);
  const empty = { data: [], nextCursor: null, unresolvedSeeds: seeds.unresolved };
  if (!sql) return empty;
  sql.add(`p.id <> ALL(${sql.bind(seeds.ids)}::bigint[])`);
  if (query.excludeSeedCompanies && profile.companyIds.length)
    sql.add(`(p.company_id IS NULL OR p.company_id <> ALL(${sql.bind(profile.companyIds)}::bigint[]))`);
  // The candidates: the seeds' job functions, at companies like theirs unless the caller named the companies.
  if (profile.functions.length) sql.add(`p.job_function = ANY(${sql.bind(profile.functions)}::text[])`);
  if (!query.currentCompanies?.length) {
    if (profile.groupIndustries.length)
      sql.add(`c.standard_industries && ${sql.bind(profile.groupIndustries)}::text[]`);
    if (profile.bands.length) sql.add(inSizeBands(sql, 'c.employee_count_min', profile.bands));
  }
  const { points, possible } = scoring(sql, profile);
  const position = after
    ? `WHERE s.points < ${sql.bind(after.rank)} OR (s.points = ${sql.bind(after.rank)} AND s.id > ${sql.bind(after.id)})`
    : '';
  const titleMatched = profile.titleWords.length ? titleWordsMatched(sql, profile.titleWords) : '0';
  const result = await db.query<ScoredRow>(
    `SELECT ${profileColumns(details)}, page.points, ${titleMatched} AS title_matched,
            c.standard_industries AS company_industries, c.employee_count_min AS company_employee_min
       FROM (SELECT s.id, s.points
               FROM (SELECT p.id, ${points} AS points
                       FROM people p LEFT JOIN companies c ON c.id = p.company_id ${sql.where()}) s
              ${position}
              ORDER BY s.points DESC, s.id LIMIT ${sql.bind(query.pageSize + 1)}) page
       JOIN people p ON p.id = page.id
       LEFT JOIN companies c ON c.id = p.company_id
      ORDER BY page.points DESC, page.id`,
    sql.params,
  );
  const { rows, nextCursor } = pages.page(result.rows, query.pageSize, (row) => ({ rank: row.points, id: row.id }));
  return {
    data: rows.map((row) => ({
      ...toProfileRecord(row, details),
      similarity: similarityOf(row.points, possible),
      sharedTraits: sharedTraits(row, profile),
    })),
    nextCursor,
    unresolvedSeeds: seeds.unresolved,
  };
}
