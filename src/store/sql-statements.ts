/**
 * Splits a migration's SQL into its statements at the semicolons that end them, for the
 * migrations run outside a transaction (one statement per query: PostgreSQL runs the statements
 * of one query string in one transaction, which CREATE INDEX CONCURRENTLY refuses). A semicolon
 * inside a string (standard, or `E'…'` with backslash escapes), a quoted name, a comment or a
 * dollar-quoted body ends nothing. The rules are PostgreSQL's lexer's (sql-syntax-lexical): a
 * string's `E` prefix and a dollar quote's tag start a token only where a name does not go on.
 */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let i = 0;
  const push = (end: number) => {
    const statement = sql.slice(start, end).trim();
    if (statement && !isOnlyComments(statement)) statements.push(statement);
    start = end + 1;
  };
  while (i < sql.length) {
    const char = sql[i];
    const next = sql[i + 1];
    if (char === '-' && next === '-') {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end + 1;
    } else if (char === '/' && next === '*') {
      i = skipBlockComment(sql, i);
    } else if ((char === 'E' || char === 'e') && next === "'" && !continuesName(sql, i)) {
      i = skipEscapeString(sql, i + 1);
    } else if (char === "'" || char === '"') {
      i = skipQuoted(sql, i, char);
    } else if (char === '$' && !continuesName(sql, i)) {
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i))?.[0];
      if (tag) {
        const end = sql.indexOf(tag, i + tag.length);
        if (end === -1) throw new Error(`Unterminated dollar-quoted string opened with ${tag}`);
        i = end + tag.length;
      } else i += 1;
    } else if (char === ';') {
      push(i);
      i += 1;
    } else i += 1;
  }
  push(sql.length);
  return statements;
}

/** Whether the character at `at` goes on a name or a number (`abc$1$`, `xE'…'` are no dollar quote, no E string). */
function continuesName(sql: string, at: number): boolean {
  return at > 0 && /[A-Za-z0-9_$\u0080-\uffff]/.test(sql[at - 1] as string);
}

/** Past an E'…' string: a backslash escapes the next character (`\'` among them), a doubled quote stands for itself. */
function skipEscapeString(sql: string, from: number): number {
  let i = from + 1;
  while (i < sql.length) {
    const char = sql[i];
    if (char === '\\') i += 2;
    else if (char === "'" && sql[i + 1] === "'") i += 2;
    else if (char === "'") return i + 1;
    else i += 1;
  }
  throw new Error('Unterminated string in SQL');
}

/** Past a quoted string or name; a doubled quote inside stands for itself. */
function skipQuoted(sql: string, from: number, quote: string): number {
  let i = from + 1;
  for (;;) {
    const end = sql.indexOf(quote, i);
    if (end === -1) throw new Error(`Unterminated ${quote === "'" ? 'string' : 'quoted name'} in SQL`);
    if (sql[end + 1] === quote) i = end + 2;
    else return end + 1;
  }
}

/** Past a block comment; PostgreSQL's nest. */
function skipBlockComment(sql: string, from: number): number {
  let depth = 0;
  let i = from;
  while (i < sql.length) {
    if (sql.startsWith('/*', i)) {
      depth += 1;
      i += 2;
    } else if (sql.startsWith('*/', i)) {
      depth -= 1;
      i += 2;
      if (depth === 0) return i;
    } else i += 1;
  }
  throw new Error('Unterminated block comment in SQL');
}

function isOnlyComments(statement: string): boolean {
  return statement.split('\n').every((line) => line.trim() === '' || line.trim().startsWith('--'));
}
