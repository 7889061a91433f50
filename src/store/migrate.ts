import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
// Any constant works; it only has to be the same for every instance of the service.
const migrationLockId = 7_340_001;

/**
 * Applies the numbered SQL files of migrations/ that have not run yet, each in its own
 * transaction. An advisory lock lets several instances start at once against one server.
 */
export async function migrate(pool: pg.Pool): Promise<string[]> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [migrationLockId]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const applied = new Set(
      (await client.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name),
    );
    const ran: string[] = [];
    for (const { file, sql } of await readMigrations()) {
      if (applied.has(file)) continue;
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`Migration ${file} failed: ${(error as Error).message}`, { cause: error });
      }
      ran.push(file);
    }
    return ran;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [migrationLockId]).catch(() => undefined);
    client.release();
  }
}

/** Every migration file, in the order they apply. */
export async function readMigrations(): Promise<{ file: string; sql: string }[]> {
  const dir = await sqlDirectory();
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  return Promise.all(files.map(async (file) => ({ file, sql: await readFile(path.join(dir, file), 'utf8') })));
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
