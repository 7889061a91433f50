import type { CompanySearchParams } from '../../../operations/schemas/filters.js';
import type { CompanyRecord } from '../../../operations/schemas/records.js';
import type { Queryable } from '../../store/db.js';
import { requireExclusionLists } from '../exclusion-lists.js';
import { addCompanyConditions } from './company-filters.js';
import type { CursorCodec } from './cursor.js';
import { companyColumns, toCompanyRecord, type CompanyRow } from './records.js';
import { notInExclusionLists, SqlConditions } from './sql.js';

export interface CompanyQuery {
  searchParams: CompanySearchParams;
  companyExclusionListIDs?: string[] | undefined;
}

/** The WHERE clause of a company query for an account, on alias `c`. */
export async function companyConditions(db: Queryable, accountId: number, query: CompanyQuery): Promise<SqlConditions> {
  const sql = new SqlConditions();
  addCompanyConditions(sql, query.searchParams);
  const excluded = await requireExclusionLists(
    db,
    accountId,
    query.companyExclusionListIDs,
    'companies',
    'companyExclusionListIDs',
  );
  if (excluded.length) {
    sql.add(notInExclusionLists(sql, 'c.id', accountId, excluded));
  }
  return sql;
}

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

export async function searchCompanies(
  db: Queryable,
  cursors: CursorCodec,
  accountId: number,
  query: CompanyQuery & { pageSize: number; cursor?: string | null | undefined },
): Promise<Page<CompanyRecord>> {
  const pages = cursors.scope(accountId, 'companySearch', {
    searchParams: query.searchParams,
    lists: query.companyExclusionListIDs ?? [],
  });
  const after = pages.decode(query.cursor);
  const sql = await companyConditions(db, accountId, query);
  sql.add(`c.id > ${sql.bind(after)}`);
  const result = await db.query<CompanyRow>(
    `SELECT ${companyColumns} FROM companies c ${sql.where()} ORDER BY c.id LIMIT ${sql.bind(query.pageSize + 1)}`,
    sql.params,
  );
  const { rows, nextCursor } = pages.page(result.rows, query.pageSize, (row) => row.id);
  return {
    data: rows.map(toCompanyRecord),
    nextCursor,
  };
}
