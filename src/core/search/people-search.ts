import type { CurrentCompany, PeopleSearchParams } from '../../../operations/schemas/filters.js';
import type { ProfileRecord } from '../../../operations/schemas/records.js';
import type { Queryable } from '../../store/db.js';
import { resolveCompanies } from '../company-resolution.js';
import { requireExclusionLists } from '../exclusion-lists.js';
import type { Page } from './company-search.js';
import type { CursorCodec } from './cursor.js';
import { addPeopleConditions, hasIncludedTitle, type PeopleConditionOptions } from './people-filters.js';
import { profileColumns, toProfileRecord, type ProfileRow } from './records.js';
import { notInExclusionLists, SqlConditions } from './sql.js';
import { readsTitlesByTrigrams } from './title-index.js';

export interface PeopleQuery {
  searchParams: PeopleSearchParams;
  currentCompanies?: CurrentCompany[] | undefined;
  prospectExclusionListIDs?: string[] | undefined;
  companyExclusionListIDs?: string[] | undefined;
}

/**
 * The WHERE clause of a people query for an account, on alias `p`, or null when the query
 * cannot match anyone (currentCompanies given but none of them resolves).
 */
export async function peopleConditions(
  db: Queryable,
  accountId: number,
  query: PeopleQuery,
  options: PeopleConditionOptions = {},
): Promise<SqlConditions | null> {
  const sql = new SqlConditions();
  addPeopleConditions(sql, query.searchParams, options);
  if (query.currentCompanies?.length) {
    const companyIds = [...new Set((await resolveCompanies(db, query.currentCompanies)).flat())];
    if (companyIds.length === 0) return null;
    sql.add(`p.company_id = ANY(${sql.bind(companyIds)}::bigint[])`);
  }
  const prospectLists = await requireExclusionLists(
    db,
    accountId,
    query.prospectExclusionListIDs,
    'prospects',
    'prospectExclusionListIDs',
  );
  const companyLists = await requireExclusionLists(
    db,
    accountId,
    query.companyExclusionListIDs,
    'companies',
    'companyExclusionListIDs',
  );
  if (prospectLists.length) sql.add(notInExclusionLists(sql, 'p.id', accountId, prospectLists));
  if (companyLists.length)
    sql.add(`(p.company_id IS NULL OR ${notInExclusionLists(sql, 'p.company_id', accountId, companyLists)})`);
  return sql;
}

export async function searchPeople(
  db: Queryable,
  cursors: CursorCodec,
  accountId: number,
  query: PeopleQuery & { pageSize: number; cursor?: string | null | undefined },
): Promise<Page<ProfileRecord>> {
  // The detail switches change what each record carries, not which records match: paging may toggle them.
  const { getDetailedEducation, getDetailedWorkExperience, ...filters } = query.searchParams;
  const details = { getDetailedEducation, getDetailedWorkExperience };
  const pages = cursors.scope(accountId, 'peopleSearch', {
    searchParams: filters,
    currentCompanies: query.currentCompanies ?? [],
    prospectLists: query.prospectExclusionListIDs ?? [],
    companyLists: query.companyExclusionListIDs ?? [],
  });
  const after = pages.decode(query.cursor);
  const pageOf = async (options: PeopleConditionOptions) => {
    const sql = await peopleConditions(db, accountId, query, options);
    if (!sql) return null;
    sql.add(`p.id > ${sql.bind(after)}`);
    const ids = `SELECT p.id FROM people p ${sql.where()} ORDER BY p.id LIMIT ${sql.bind(query.pageSize + 1)}`;
    return { sql, ids };
  };
  let read = await pageOf({});
  if (!read) return { data: [], nextCursor: null };
  // A rare title: found through its words rather than its trigrams (decision 0008).
  if (hasIncludedTitle(filters) && (await readsTitlesByTrigrams(db, read.ids, read.sql.params)))
    read = (await pageOf({ titlesByWords: true })) ?? read;
  // The page's ids first, then its rows: the filters most used are then read from a covering index
  // (people_search_cover, people_company_cover) without visiting the wide rows that do not match.
  const result = await db.query<ProfileRow>(
    `SELECT ${profileColumns(details)}
       FROM (${read.ids}) page
       JOIN people p ON p.id = page.id
      ORDER BY p.id`,
    read.sql.params,
  );
  const { rows, nextCursor } = pages.page(result.rows, query.pageSize, (row) => row.id);
  return {
    data: rows.map((row) => toProfileRecord(row, details)),
    nextCursor,
  };
}
