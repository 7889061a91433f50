import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { startService } from '../../src/service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { withDatabase } from '../helpers/global-setup.js';

const run = promisify(execFile);

/**
 * `npm run migrate`, the deploy step for servers, and a start told not to migrate
 * (MIGRATE_ON_START=false), which refuses a database that lacks a migration.
 */
describe('npm run migrate', () => {
  let blankUrl: string;
  let blankName: string;
  beforeAll(async () => {
    blankName = `pds_t_${randomBytes(4).toString('hex')}_${inject('emptyTemplate').replace(/^pds_tpl_empty_/, '')}`;
    const admin = new pg.Client({ connectionString: inject('adminUrl') });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${blankName}`);
    await admin.end();
    blankUrl = withDatabase(inject('adminUrl'), blankName);
  });
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: inject('adminUrl') });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${blankName} WITH (FORCE)`);
    await admin.end();
  });

  async function migrateCommand(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    try {
      const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/cli/migrate.ts', ...args], {
        env: { ...process.env, DATABASE_URL: blankUrl, LOG_LEVEL: 'silent' },
        timeout: 120_000,
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  }

  it('checks, applies, and refuses a database whose applied migration was edited', async () => {
    const lacking = await migrateCommand('--check');
    expect(lacking.code).toBe(1);
    expect(lacking.stderr).toMatch(/The database lacks \d+ migration\(s\): 001_foundation\.sql, /);

    const applied = await migrateCommand();
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/applying 085_people_covering_indexes\.sql \(outside a transaction\)/);
    expect(applied.stdout).toMatch(/Applied \d+ migration\(s\)\./);
    const current = await migrateCommand('--check');
    expect({ code: current.code, stdout: current.stdout }).toEqual({
      code: 0,
      stdout: 'The database has every migration.\n',
    });

    const client = new pg.Client({ connectionString: blankUrl });
    await client.connect();
    await client.query("UPDATE schema_migrations SET checksum = repeat('0', 64) WHERE name = '020_audiences.sql'");
    await client.end();
    const edited = await migrateCommand();
    expect(edited.code).toBe(1);
    expect(edited.stderr).toMatch(/^020_audiences\.sql changed after it was applied to this database/);
  });
});

describe('a start with MIGRATE_ON_START=false', () => {
  let database: TestDatabase;
  let dataDir: string;
  beforeAll(async () => {
    database = await createTestDatabase('empty');
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'pds-migrate-'));
  });
  afterAll(async () => {
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const start = (migrateOnStart: string) =>
    startService(
      loadConfig({
        DATABASE_URL: database.connectionString,
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        SEED_ON_EMPTY: 'false',
        JOB_WORKER: 'false',
        MIGRATE_ON_START: migrateOnStart,
      }),
      { log: createLogger('silent') },
    );

  it('refuses a database that lacks a migration, naming it, and serves once it is applied', async () => {
    await database.db.pool.query("DELETE FROM schema_migrations WHERE name = '095_revoke_gateway_keys.sql'");
    await expect(start('false')).rejects.toThrow(
      /lacks 1 migration\(s\): 095_revoke_gateway_keys\.sql\. Apply them first with npm run migrate/,
    );
    const applying = await start('true');
    await applying.stop();
    const served = await start('false');
    try {
      expect((await fetch(`${served.url}/healthz`)).status).toBe(200);
    } finally {
      await served.stop();
    }
  });
});
