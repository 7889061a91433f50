import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../src/store/db.js';
import {
  EditedMigrationError,
  migrate,
  migrationOf,
  noTransactionMarker,
  PendingMigrationsError,
  readMigrations,
} from '../../src/store/migrate.js';
import { withDatabase } from '../helpers/global-setup.js';

/**
 * The migration runner on a real server: checksums of applied migrations, migrations outside a
 * transaction (concurrent index builds, a failure part-way and the run after it), pending
 * migrations a start is told not to apply, and instances migrating at once.
 */
const opened: Database[] = [];
const names: string[] = [];

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject('adminUrl') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A database with nothing in it, dropped after the file (its name ends as the run's do, so a crashed run's are swept too). */
async function blankDatabase(): Promise<Database> {
  const runSuffix = inject('emptyTemplate').replace(/^pds_tpl_empty_/, '');
  const name = `pds_t_${randomBytes(4).toString('hex')}_${runSuffix}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  names.push(name);
  const db = openDatabase(withDatabase(inject('adminUrl'), name), 4);
  opened.push(db);
  return db;
}

afterAll(async () => {
  for (const db of opened) await db.close().catch(() => undefined);
  await admin(async (client) => {
    for (const name of names) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
});

const recorded = async (db: Database) =>
  (
    await db.pool.query<{ name: string; checksum: string | null }>(
      'SELECT name, checksum FROM schema_migrations ORDER BY name',
    )
  ).rows;

describe('migrations', () => {
  it("record each applied file's checksum, and an edited one stops the run before anything applies", async () => {
    const db = await blankDatabase();
    const first = [
      migrationOf('001_a.sql', 'CREATE TABLE a (id int);'),
      migrationOf('002_b.sql', 'CREATE TABLE b (id int);'),
    ];
    expect(await migrate(db.pool, { migrations: first })).toEqual(['001_a.sql', '002_b.sql']);
    expect(await recorded(db)).toEqual(first.map((m) => ({ name: m.file, checksum: m.checksum })));
    expect(await migrate(db.pool, { migrations: first })).toEqual([]);

    const edited = [
      migrationOf('001_a.sql', 'CREATE TABLE a (id bigint);'),
      first[1]!,
      migrationOf('003_c.sql', 'CREATE TABLE c (id int);'),
    ];
    const failure = await migrate(db.pool, { migrations: edited }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EditedMigrationError);
    expect((failure as Error).message).toMatch(/^001_a\.sql changed after it was applied to this database/);
    expect((failure as Error).message).toContain('restore the file');
    expect((failure as EditedMigrationError).files.map((f) => f.file)).toEqual(['001_a.sql']);
    // Nothing ran: 003 waits until the edit is undone.
    expect((await db.pool.query("SELECT to_regclass('c') AS c")).rows[0].c).toBeNull();
    expect(await migrate(db.pool, { migrations: [first[0]!, first[1]!, edited[2]!] })).toEqual(['003_c.sql']);
  });

  it('take the files as they are for a database migrated before checksums, and hold it to them from then on', async () => {
    const db = await blankDatabase();
    await db.pool.query(
      `CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
       CREATE TABLE a (id int);
       INSERT INTO schema_migrations (name) VALUES ('001_a.sql')`,
    );
    const a = migrationOf('001_a.sql', 'CREATE TABLE a (id int);');
    expect(await migrate(db.pool, { migrations: [a] })).toEqual([]);
    expect(await recorded(db)).toEqual([{ name: '001_a.sql', checksum: a.checksum }]);
    await expect(
      migrate(db.pool, { migrations: [migrationOf('001_a.sql', 'CREATE TABLE a (id int, x int);')] }),
    ).rejects.toBeInstanceOf(EditedMigrationError);
  });

  it('hold a database that ran the first text of a migration made concurrent since (085) to that text, and accept no other', async () => {
    const db = await blankDatabase();
    expect((await readMigrations()).find((m) => m.file === '085_people_covering_indexes.sql')?.transactional).toBe(
      false,
    );
    await migrate(db.pool);
    // As a database migrated before checksums were kept: every file ran with its first text.
    await db.pool.query('UPDATE schema_migrations SET checksum = NULL');
    expect(await migrate(db.pool)).toEqual([]);
    const first = '7f122c86ea6dadc1bb6ec9f9fa91f3eead77d352a07636d5129096908ba2db8a';
    const records = new Map((await recorded(db)).map((r) => [r.name, r.checksum]));
    expect(records.get('085_people_covering_indexes.sql')).toBe(first);
    const foundation = (await readMigrations()).find((m) => m.file === '001_foundation.sql');
    expect(records.get('001_foundation.sql')).toBe(foundation?.checksum);
    expect(await migrate(db.pool)).toEqual([]);
    await db.pool.query("UPDATE schema_migrations SET checksum = $1 WHERE name = '085_people_covering_indexes.sql'", [
      'f'.repeat(64),
    ]);
    await expect(migrate(db.pool)).rejects.toThrow(/^085_people_covering_indexes\.sql changed after it was applied/);
  });

  it('build an index concurrently outside a transaction, and after a failed build replace the invalid index it left', async () => {
    const db = await blankDatabase();
    const base = migrationOf(
      '001_t.sql',
      'CREATE TABLE t (v int); INSERT INTO t SELECT i % 10 FROM generate_series(1, 1000) i;',
    );
    await migrate(db.pool, { migrations: [base] });
    const unique = migrationOf(
      '002_unique.sql',
      `${noTransactionMarker}\n-- fails while t holds duplicates\nCREATE TABLE u (id int);\nCREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS t_v ON t (v);`,
    );
    const failure = (await migrate(db.pool, { migrations: [base, unique] }).catch((error: unknown) => error)) as Error;
    expect(failure.message).toMatch(/002_unique\.sql failed at statement 2 of 2, outside a transaction/);
    const validity = async () =>
      (
        await db.pool.query<{ indisvalid: boolean }>(
          "SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass('t_v')",
        )
      ).rows[0]?.indisvalid;
    expect(await validity()).toBe(false);
    // The statement before the failing one stays applied; the file is not recorded.
    expect((await db.pool.query("SELECT to_regclass('u') AS u")).rows[0].u).toBe('u');
    expect((await recorded(db)).map((r) => r.name)).toEqual(['001_t.sql']);

    await db.pool.query('DELETE FROM t WHERE ctid NOT IN (SELECT min(ctid) FROM t GROUP BY v)');
    const rerun = migrationOf(
      '002_unique.sql',
      `${noTransactionMarker}\nCREATE TABLE IF NOT EXISTS u (id int);\nCREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS t_v ON t (v);`,
    );
    expect(await migrate(db.pool, { migrations: [base, rerun] })).toEqual(['002_unique.sql']);
    expect(await validity()).toBe(true);
    await expect(db.pool.query('INSERT INTO t VALUES (1)')).rejects.toThrow(/duplicate key/);
  });

  it('refuse, when told not to apply, a database that lacks migrations, naming them and applying nothing', async () => {
    const db = await blankDatabase();
    const a = migrationOf('001_a.sql', 'CREATE TABLE a (id int);');
    const b = migrationOf('002_b.sql', 'CREATE TABLE b (id int);');
    await migrate(db.pool, { migrations: [a] });
    const failure = await migrate(db.pool, { migrations: [a, b], apply: false }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PendingMigrationsError);
    expect((failure as Error).message).toMatch(
      /lacks 1 migration\(s\): 002_b\.sql\. Apply them first with npm run migrate/,
    );
    expect((await db.pool.query("SELECT to_regclass('b') AS b")).rows[0].b).toBeNull();
    expect(await migrate(db.pool, { migrations: [a, b], apply: false }).catch(() => 'refused')).toBe('refused');
    expect(await migrate(db.pool, { migrations: [a, b] })).toEqual(['002_b.sql']);
    expect(await migrate(db.pool, { migrations: [a, b], apply: false })).toEqual([]);
  });

  it('run once when instances start together, one waiting while the other builds an index concurrently', async () => {
    const db = await blankDatabase();
    const second = openDatabase(db.pool.options.connectionString as string, 2);
    opened.push(second);
    const migrations = [
      migrationOf('001_t.sql', 'CREATE TABLE t (v int); INSERT INTO t SELECT i FROM generate_series(1, 20000) i;'),
      migrationOf(
        '002_index.sql',
        `${noTransactionMarker}\nSELECT pg_sleep(0.3);\nCREATE INDEX CONCURRENTLY IF NOT EXISTS t_v ON t (v);\nSELECT pg_sleep(0.3);`,
      ),
    ];
    const [one, two] = await Promise.all([migrate(db.pool, { migrations }), migrate(second.pool, { migrations })]);
    expect([...one, ...two].sort()).toEqual(['001_t.sql', '002_index.sql']);
    expect(await recorded(db)).toHaveLength(2);
    expect(
      (
        await db.pool.query<{ indisvalid: boolean }>(
          "SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass('t_v')",
        )
      ).rows[0]?.indisvalid,
    ).toBe(true);
  });
});
