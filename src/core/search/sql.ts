/**
 * Collects SQL conditions and their parameters; values are always bound, never spliced.
 */
export class SqlConditions {
  readonly params: unknown[] = [];
  readonly clauses: string[] = [];

  /** Binds a value and returns its placeholder ($n). */
  bind(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  add(clause: string): void {
    this.clauses.push(clause);
  }

  where(): string {
    return this.clauses.length ? `WHERE ${this.clauses.join('\n  AND ')}` : '';
  }
}

/** A LIKE pattern that matches `text` anywhere, with LIKE's own wildcards taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * `column` is in none of an account's exclusion lists. Written as NOT IN over the lists' items so
 * that PostgreSQL hashes the items once per query and tests each row in constant time, whatever its
 * statistics say. As NOT EXISTS it became an anti-join chosen from statistics, and a list made just
 * before the search (statistics not yet refreshed, estimated at one entry) got a nested loop that
 * compared every row with every entry (docs/decisions/0006-search-on-postgresql.md). Items are
 * never null, so NOT IN means "not one of them".
 */
export function notInExclusionLists(
  sql: SqlConditions,
  column: string,
  accountId: number,
  listIds: readonly number[],
): string {
  return `${column} NOT IN (SELECT x.item_id FROM exclusion_list_items x
    WHERE x.account_id = ${sql.bind(accountId)} AND x.list_id = ANY(${sql.bind(listIds)}::bigint[]))`;
}
