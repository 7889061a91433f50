import { describe, expect, it } from 'vitest';
import { concurrentIndexName, migrationOf, noTransactionMarker } from '../../../src/store/migrate.js';
import { splitStatements } from '../../../src/store/sql-statements.js';

/** How a migration that runs outside a transaction is cut into statements, and how one is recognised. */
describe('splitStatements', () => {
  it('ends a statement only at a semicolon outside strings, quoted names, comments and dollar quotes', () => {
    const sql = [
      '-- a comment; with a semicolon',
      "INSERT INTO t (a, \"b;c\") VALUES ('x;y', 'it''s; fine');",
      '/* block; /* nested; */ still; */ CREATE INDEX CONCURRENTLY IF NOT EXISTS t_a ON t (a);',
      'CREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $body$ BEGIN RETURN 1; END $body$;',
      'DO $$ BEGIN PERFORM 1; END $$;',
      'SELECT 1',
      '-- only a comment at the end;',
    ].join('\n');
    const statements = splitStatements(sql);
    expect(statements).toHaveLength(5);
    expect(statements[0]).toMatch(
      /^-- a comment; with a semicolon\nINSERT INTO t \(a, "b;c"\) VALUES \('x;y', 'it''s; fine'\)$/,
    );
    expect(statements[1]).toMatch(/CREATE INDEX CONCURRENTLY IF NOT EXISTS t_a ON t \(a\)$/);
    expect(statements[2]).toBe('CREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $body$ BEGIN RETURN 1; END $body$');
    expect(statements[3]).toBe('DO $$ BEGIN PERFORM 1; END $$');
    // A semicolon in a trailing comment ends nothing: the comment stays with the statement before it.
    expect(statements[4]).toBe('SELECT 1\n-- only a comment at the end;');
  });

  it("reads E'…' strings with backslash escapes, the escaped quote among them", () => {
    expect(splitStatements("SELECT E'it\\'s; x'; SELECT 2")).toEqual(["SELECT E'it\\'s; x'", 'SELECT 2']);
    expect(splitStatements("SELECT e'a\\\\'; SELECT 'b'")).toEqual(["SELECT e'a\\\\'", "SELECT 'b'"]);
    expect(splitStatements("SELECT E'x''; y'; SELECT 3")).toEqual(["SELECT E'x''; y'", 'SELECT 3']);
    // A name ending in E before a standard string is no E string: its backslash escapes nothing.
    expect(splitStatements("SELECT 1 AS somE'a\\'; SELECT 4")).toEqual(["SELECT 1 AS somE'a\\'", 'SELECT 4']);
    expect(() => splitStatements("SELECT E'open\\';")).toThrow(/Unterminated string/);
  });

  it('takes a dollar quote with a tag for a body, and a $ inside a name or a parameter for neither', () => {
    expect(splitStatements('SELECT $fn$ a; $x$ b; $fn$; SELECT 2')).toEqual(['SELECT $fn$ a; $x$ b; $fn$', 'SELECT 2']);
    expect(splitStatements('SELECT a$b$c FROM t; SELECT $1')).toEqual(['SELECT a$b$c FROM t', 'SELECT $1']);
    expect(splitStatements("SELECT $$ it's; $$; SELECT 3")).toEqual(["SELECT $$ it's; $$", 'SELECT 3']);
  });

  it('refuses an unterminated string, quoted name, comment or dollar quote rather than guess', () => {
    expect(() => splitStatements("SELECT 'open;")).toThrow(/Unterminated string/);
    expect(() => splitStatements('SELECT "open;')).toThrow(/Unterminated quoted name/);
    expect(() => splitStatements('/* open; SELECT 1;')).toThrow(/Unterminated block comment/);
    expect(() => splitStatements('DO $x$ BEGIN; END;')).toThrow(/\$x\$/);
  });
});

describe('a migration file', () => {
  it('runs outside a transaction only with the marker among its opening comments', () => {
    expect(
      migrationOf('1.sql', `${noTransactionMarker}\n-- why\nCREATE INDEX CONCURRENTLY i ON t (a);`).transactional,
    ).toBe(false);
    expect(migrationOf('2.sql', `-- why\n\n${noTransactionMarker}\nSELECT 1;`).transactional).toBe(false);
    expect(migrationOf('3.sql', `SELECT 1;\n${noTransactionMarker}\n`).transactional).toBe(true);
    expect(migrationOf('4.sql', 'CREATE INDEX i ON t (a);').transactional).toBe(true);
  });

  it('has one checksum whatever the line endings of the checkout', () => {
    const unix = migrationOf('1.sql', '-- a\nSELECT 1;\n');
    expect(migrationOf('1.sql', '-- a\r\nSELECT 1;\r\n').checksum).toBe(unix.checksum);
    expect(migrationOf('1.sql', '-- a\nSELECT 2;\n').checksum).not.toBe(unix.checksum);
    expect(unix.checksum).toMatch(/^[0-9a-f]{64}$/);
  });

  it('names the index a concurrent build makes, and nothing for any other statement', () => {
    expect(concurrentIndexName('CREATE INDEX CONCURRENTLY IF NOT EXISTS people_cover ON people (id)')).toBe(
      'people_cover',
    );
    expect(concurrentIndexName('-- why\ncreate unique index concurrently "Odd Name" on t (a)')).toBe('"Odd Name"');
    expect(concurrentIndexName('CREATE INDEX people_cover ON people (id)')).toBeNull();
    expect(concurrentIndexName('DROP INDEX CONCURRENTLY IF EXISTS people_cover')).toBeNull();
  });
});
