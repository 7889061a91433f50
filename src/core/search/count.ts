import type pg from 'pg';
import type { Queryable } from '../../store/db.js';
import { companyConditions, type CompanyQuery } from './company-search.js';
import { peopleConditions, type PeopleQuery } from './people-search.js';
import { hasIncludedTitle, hasShortTitlePhrase } from './people-filters.js';
import type { SqlConditions } from './sql.js';
import { readsTitlesByTrigrams } from './title-index.js';

/**
 * Counts of what a search would match, for sizing a market before paying for records.
 *
 * A count reads the matches in id order (the order of search pages) with a LIMIT of one more than
 * `exactCountBound`, so it never reads more than that many matching rows. What it answers depends
 * on the rows alone, never on how long they took to read: at most the bound found is the exact
 * count (0 included); more than the bound is PostgreSQL's planner estimate of the query's rows
 * (from the table statistics ANALYZE keeps), never below the bound plus one, marked `exact: false`.
 * The same request gets the same answer on a quiet machine and a loaded one. Time is only a guard:
 * a count that runs past `timeoutMs` (the searches' statement timeout) is stopped and fails as a
 * search does (503 query_timeout, nothing charged).
 */

/**
 * Matches counted exactly before a count becomes an estimate. A count reads about bound /
 * selectivity rows whatever the size of the catalog, so the bound, not the catalog, sets its cost
 * (docs/decisions/0008-counts.md).
 */
export const exactCountBound = 1_000;

export interface CountResult {
  count: number;
  exact: boolean;
}

export interface CountOptions {
  /** Longest the count may run, in milliseconds: past it, the statement is stopped and the count fails (57014). */
  timeoutMs: number;
  bound?: number;
  /** The caller went away. */
  signal?: AbortSignal | undefined;
}

export async function countCompanies(
  db: Queryable,
  accountId: number,
  query: CompanyQuery,
  options: CountOptions,
): Promise<CountResult> {
  return withOneConnection(db, async (client) => {
    const sql = await companyConditions(client, accountId, query);
    const { nameLike, headquartersLocation } = query.searchParams;
    return countWhere(client, 'companies c', sql, {
      ...options,
      unindexableSubstring: anyShort([nameLike, ...(headquartersLocation ?? [])]),
    });
  });
}

export async function countPeople(
  db: Queryable,
  accountId: number,
  query: PeopleQuery,
  options: CountOptions,
): Promise<CountResult> {
  return withOneConnection(db, async (client) => {
    const sql = await peopleConditions(client, accountId, query);
    // currentCompanies given and none of them exists: nobody can match, and that is certain.
    if (!sql) return { count: 0, exact: true };
    const { education } = query.searchParams;
    return countWhere(client, 'people p', sql, {
      ...options,
      unindexableSubstring: hasShortTitlePhrase(query.searchParams) || anyShort(education?.schools ?? []),
      titlesByWords: hasIncludedTitle(query.searchParams)
        ? async () => (await peopleConditions(client, accountId, query, { titlesByWords: true })) ?? sql
        : undefined,
    });
  });
}

/**
 * A substring shorter than a trigram (`VP`) gives the trigram index nothing to narrow: a bitmap
 * scan of it reads the whole index, and a GIN scan heeds a cancel only when it is done, well past
 * its timeout (docs/decisions/0008-counts.md). Counts with one read in row order instead, which
 * stops when the guard says.
 */
const anyShort = (terms: ReadonlyArray<string | undefined>): boolean =>
  terms.some((term) => term !== undefined && term.trim().length < 3);

async function countWhere(
  client: Queryable,
  from: 'companies c' | 'people p',
  sql: SqlConditions,
  options: CountOptions & {
    unindexableSubstring: boolean;
    /** The same conditions with titles found by their words (people-filters.ts, PeopleConditionOptions). */
    titlesByWords?: (() => Promise<SqlConditions>) | undefined;
  },
): Promise<CountResult> {
  const bound = options.bound ?? exactCountBound;
  const select = `SELECT 1 FROM ${from} ${sql.where()}`;
  await client.query('BEGIN READ ONLY');
  try {
    await client.query(`SELECT set_config('statement_timeout', $1, true)`, [
      String(Math.max(1, Math.round(options.timeoutMs))),
    ]);
    if (options.unindexableSubstring) await client.query('SET LOCAL enable_bitmapscan = off');
    // A count reads at most bound + 1 rows: a parallel worker takes longer to start than it saves.
    await client.query('SET LOCAL max_parallel_workers_per_gather = 0');
    // In id order, as search pages read: the planner then walks the primary key and stops at the
    // bound for broad filters, instead of building a bitmap of every match first.
    const alias = from.slice(-1);
    const boundedRead = (conditions: SqlConditions) =>
      `SELECT count(*)::bigint AS n FROM (SELECT ${alias}.id FROM ${from} ${conditions.where()} ORDER BY ${alias}.id LIMIT ${bound + 1}) matches`;
    let read = sql;
    if (
      options.titlesByWords &&
      !options.unindexableSubstring &&
      (await readsTitlesByTrigrams(client, boundedRead(sql), sql.params))
    )
      read = await options.titlesByWords();
    const result = await client.query<{ n: number }>(boundedRead(read), read.params);
    const counted = Number(result.rows[0]?.n ?? 0);
    if (counted <= bound) {
      await client.query('COMMIT');
      return { count: counted, exact: true };
    }
    const estimated = await plannerRows(client, select, sql.params);
    await client.query('COMMIT');
    return { count: Math.max(estimated, bound + 1), exact: false };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** The planner's estimate of the rows a query returns. */
async function plannerRows(client: Queryable, select: string, params: unknown[]): Promise<number> {
  const result = await client.query<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>(
    `EXPLAIN (FORMAT JSON) ${select}`,
    params,
  );
  const rows = result.rows[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0;
  return Math.max(0, Math.round(rows));
}

/** Whether a count failed because it ran past its guard (the statement was stopped). */
export function isCountTimeout(error: unknown): boolean {
  return (error as { code?: string }).code === '57014';
}

/**
 * The count runs a transaction (its statement timeout is local to it), so it needs one
 * connection throughout: the catalog read hands one over when the request can be cancelled;
 * given a pool, take one from it.
 */
async function withOneConnection<T>(db: Queryable, work: (client: Queryable) => Promise<T>): Promise<T> {
  if ('release' in db || !('connect' in db)) return work(db);
  const client = await (db as pg.Pool).connect();
  try {
    return await work(client);
  } finally {
    client.release();
  }
}
