import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { splitStatements } from './sql-statements.js';

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
// Any constant works; it only has to be the same for every instance of the service.
const migrationLockId = 7_340_001;

/**
 * A file whose first lines hold this comment runs outside a transaction, one statement at a time:
 * what PostgreSQL refuses inside one (CREATE INDEX CONCURRENTLY, which builds an index without
 * blocking writes to its table). Each of its statements must be safe to run again, since a
 * failure leaves the ones before it applied and the next run starts the file over.
 */
export const noTransactionMarker = '-- migrate: no-transaction';

/**
 * Earlier texts an applied migration may have been applied with, the first text first. A
 * migration is never edited once released (a start refuses a file whose checksum differs from the
 * one recorded when it ran), except for a change that leaves a database in the same state, listed
 * here with why: a database that ran an earlier text keeps its record, and a new one runs the
 * current text. The checksums are of the texts as they were (git show <commit>:<file> | sha256sum).
 */
export const equivalentEarlierTexts: Readonly<Record<string, { checksums: readonly string[]; why: string }>> = {
  '050_state_index.sql': {
    checksums: ['ce617f272d984571ef28be936f8a7b3f37f5874633ae15c9246bc1c5df3716d5'],
    why: 'built companies_state_lower inside a transaction; the same index is now built concurrently',
  },
  '085_people_covering_indexes.sql': {
    checksums: [
      '7f122c86ea6dadc1bb6ec9f9fa91f3eead77d352a07636d5129096908ba2db8a',
      '09c4864fffcef021316a0aeb87a0ad4b592b43d9fb43f89d8d82e59177b47f83',
    ],
    why: 'built the covering people indexes inside a transaction, then concurrently with a comment that pointed to BENCHMARKS.md; the same indexes',
  },
  '086_title_bigram_masks.sql': {
    checksums: [
      '07e3e5025cf23a743ed81c49b6553c169cd3d016a6310f7e1312d0c39faca7b2',
      '4d639781b6ceece956d12f13b7451b775a97411aa00851f0691818eed0a5c72b',
    ],
    why: 'rebuilt the covering people indexes inside a transaction, then concurrently beside the old ones with a comment that pointed to BENCHMARKS.md; the same indexes',
  },
};

export interface Migration {
  file: string;
  sql: string;
  /** SHA-256 of the text with its line endings made \n (a checkout's line endings change nothing). */
  checksum: string;
  transactional: boolean;
}

export interface MigrateOptions {
  /** false: apply nothing, and refuse (PendingMigrationsError) when anything is pending. */
  apply?: boolean;
  /** Told when this instance waits for another one's migrations, and as each migration starts. */
  onProgress?: (message: string) => void;
  /** The migrations to apply; by default the files of migrations/ (tests give their own). */
  migrations?: Migration[];
}

/** An applied migration's file was changed afterwards: the database may not be what the files say. */
export class EditedMigrationError extends Error {
  constructor(readonly files: { file: string; recorded: string; current: string }[]) {
    super(
      `${files.map((f) => f.file).join(', ')} changed after ${files.length > 1 ? 'they were' : 'it was'} applied to this database ` +
        `(checksum ${files.map((f) => `${f.recorded.slice(0, 12)} recorded, ${f.current.slice(0, 12)} now`).join('; ')}). ` +
        'A released migration is never edited: restore the file (git checkout it) and put the change in a new migration. ' +
        'Nothing was applied.',
    );
    this.name = 'EditedMigrationError';
  }
}

/** Migrations are pending and this start was told not to apply them (MIGRATE_ON_START=false). */
export class PendingMigrationsError extends Error {
  constructor(readonly files: string[]) {
    super(
      `The database lacks ${files.length} migration(s): ${files.join(', ')}. Apply them first with npm run migrate ` +
        '(a deploy step), or start with MIGRATE_ON_START=true to apply them at start.',
    );
    this.name = 'PendingMigrationsError';
  }
}

/**
 * Applies the numbered SQL files of migrations/ that have not run yet, in order: each in a
 * transaction of its own, or statement by statement when it carries the no-transaction marker.
 * Each applied file's checksum is recorded, and every start checks the applied files against
 * theirs first: an edited one stops the start (EditedMigrationError) before anything runs.
 * Databases migrated before checksums were kept get them recorded on the first start that sees
 * them. An advisory lock lets several instances start at once against one server.
 */
export async function migrate(pool: pg.Pool, options: MigrateOptions = {}): Promise<string[]> {
  const client = await pool.connect();
  let locked = false;
  try {
    await takeLock(client, options.onProgress);
    locked = true;
    await client.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    await client.query('ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum text');
    const migrations = options.migrations ?? (await readMigrations());
    const recorded = new Map(
      (
        await client.query<{ name: string; checksum: string | null }>('SELECT name, checksum FROM schema_migrations')
      ).rows.map((r) => [r.name, r.checksum]),
    );
    await checkApplied(client, migrations, recorded);
    const pending = migrations.filter((m) => !recorded.has(m.file));
    if (pending.length && options.apply === false) throw new PendingMigrationsError(pending.map((m) => m.file));
    const ran: string[] = [];
    for (const migration of pending) {
      options.onProgress?.(`applying ${migration.file}${migration.transactional ? '' : ' (outside a transaction)'}`);
      if (migration.transactional) await applyInTransaction(client, migration);
      else await applyStatementByStatement(client, migration);
      ran.push(migration.file);
    }
    return ran;
  } finally {
    if (locked) await client.query('SELECT pg_advisory_unlock($1)', [migrationLockId]).catch(() => undefined);
    client.release();
  }
}

/**
 * The migration lock, asked for again and again rather than waited for in one statement: an
 * instance blocked in `SELECT pg_advisory_lock` holds a snapshot for as long as it waits, and
 * CREATE INDEX CONCURRENTLY in the instance holding the lock waits for every older snapshot to
 * go, so the two would wait for each other.
 */
async function takeLock(client: pg.PoolClient, onProgress?: (message: string) => void): Promise<void> {
  let told = 0;
  const started = Date.now();
  for (;;) {
    const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [
      migrationLockId,
    ]);
    if (rows[0]?.locked) return;
    if (Date.now() - told >= 30_000) {
      told = Date.now();
      onProgress?.(`waiting for another instance's migrations (${Math.round((Date.now() - started) / 1000)} s so far)`);
    }
    await delay(250);
  }
}

async function checkApplied(
  client: pg.PoolClient,
  migrations: Migration[],
  recorded: Map<string, string | null>,
): Promise<void> {
  const edited: { file: string; recorded: string; current: string }[] = [];
  for (const migration of migrations) {
    if (!recorded.has(migration.file)) continue;
    const checksum = recorded.get(migration.file);
    if (checksum === null || checksum === undefined) {
      // Applied before checksums were kept, so with the file's first text: the one listed first
      // among its earlier texts when it has any, else the text on disk, which it is held to from now on.
      await client.query('UPDATE schema_migrations SET checksum = $2 WHERE name = $1 AND checksum IS NULL', [
        migration.file,
        equivalentEarlierTexts[migration.file]?.checksums[0] ?? migration.checksum,
      ]);
      continue;
    }
    if (checksum === migration.checksum) continue;
    if (equivalentEarlierTexts[migration.file]?.checksums.includes(checksum)) continue;
    edited.push({ file: migration.file, recorded: checksum, current: migration.checksum });
  }
  if (edited.length) throw new EditedMigrationError(edited);
}

async function applyInTransaction(client: pg.PoolClient, migration: Migration): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query(migration.sql);
    await record(client, migration);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw new Error(`Migration ${migration.file} failed: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * A no-transaction migration, one statement at a time. A concurrent index build that failed
 * (this run or an earlier one) leaves an invalid index behind, which IF NOT EXISTS would then
 * take for done: it is dropped, without blocking writes either, and built again.
 */
async function applyStatementByStatement(client: pg.PoolClient, migration: Migration): Promise<void> {
  const statements = splitStatements(migration.sql);
  for (const [index, statement] of statements.entries()) {
    try {
      const indexName = concurrentIndexName(statement);
      if (indexName) await dropIfInvalid(client, indexName);
      await client.query(statement);
    } catch (error) {
      throw new Error(
        `Migration ${migration.file} failed at statement ${index + 1} of ${statements.length}, outside a transaction ` +
          `(the statements before it stay applied; the next start runs the file again): ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
  await record(client, migration);
}

async function record(client: pg.PoolClient, migration: Migration): Promise<void> {
  await client.query('INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)', [
    migration.file,
    migration.checksum,
  ]);
}

/** The index a CREATE INDEX CONCURRENTLY statement builds, or null for any other statement. */
export function concurrentIndexName(statement: string): string | null {
  const match =
    /^\s*CREATE\s+(?:UNIQUE\s+)?INDEX\s+CONCURRENTLY\s+(?:IF\s+NOT\s+EXISTS\s+)?("(?:[^"]|"")+"|[\w$.]+)/i.exec(
      statement.replace(/^(\s*--[^\n]*\n)+/, ''),
    );
  return match ? (match[1] as string) : null;
}

async function dropIfInvalid(client: pg.PoolClient, indexName: string): Promise<void> {
  const { rows } = await client.query<{ invalid: boolean }>(
    'SELECT NOT indisvalid AS invalid FROM pg_index WHERE indexrelid = to_regclass($1)',
    [indexName],
  );
  if (rows[0]?.invalid) await client.query(`DROP INDEX CONCURRENTLY IF EXISTS ${indexName}`);
}

/** A migration as read from its file: the no-transaction marker counts among the comments it opens with. */
export function migrationOf(file: string, sql: string): Migration {
  const text = sql.replace(/\r\n/g, '\n');
  const opening: string[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed !== '' && !trimmed.startsWith('--')) break;
    opening.push(trimmed);
  }
  return {
    file,
    sql: text,
    checksum: createHash('sha256').update(text).digest('hex'),
    transactional: !opening.includes(noTransactionMarker),
  };
}

/** Every migration file, in the order they apply. */
export async function readMigrations(): Promise<Migration[]> {
  const dir = await sqlDirectory();
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  return Promise.all(files.map(async (file) => migrationOf(file, await readFile(path.join(dir, file), 'utf8'))));
}

/** The compiled service runs from dist/, where tsc does not copy .sql files: read them from the source tree. */
async function sqlDirectory(): Promise<string> {
  const candidates = [migrationsDir, migrationsDir.replace(`${path.sep}dist${path.sep}`, path.sep)];
  for (const dir of candidates) {
    try {
      await readdir(dir);
      return dir;
    } catch {
      // try the next candidate
    }
  }
  throw new Error(`No migrations folder found (looked in ${candidates.join(', ')})`);
}
