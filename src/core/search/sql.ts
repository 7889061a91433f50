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
