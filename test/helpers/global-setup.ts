import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createLogger } from '../../src/log.js';
import { seedCatalog } from '../../src/seed/load.js';
import { openDatabase } from '../../src/store/db.js';
import { startEmbeddedPostgres, type EmbeddedServer } from '../../src/store/embedded.js';
import { migrate } from '../../src/store/migrate.js';

/** Size of the catalog every seeded test database starts from: big enough to page and filter meaningfully. */
export const testCatalog = { companies: 3_000, people: 30_000, seed: 7 } as const;

declare module 'vitest' {
  export interface ProvidedContext {
    adminUrl: string;
    seededTemplate: string;
    emptyTemplate: string;
  }
}

/**
 * Once per test run: a PostgreSQL server (the embedded one, or the server of DATABASE_URL),
 * and two template databases, migrated, one seeded with the test catalog. Each test file
 * copies a template (CREATE DATABASE ... TEMPLATE takes a fraction of a second).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const log = createLogger('warn');
  let embedded: EmbeddedServer | null = null;
  let scratch: string | null = null;
  let adminUrl: string;
  if (process.env.DATABASE_URL) {
    adminUrl = process.env.DATABASE_URL;
  } else {
    scratch = await mkdtemp(path.join(os.tmpdir(), 'pds-test-'));
    embedded = await startEmbeddedPostgres(scratch, log, { temporary: true });
    adminUrl = embedded.adminConnectionString;
  }
  const runId = `${process.pid}_${Date.now().toString(36)}`;
  const seededTemplate = `pds_tpl_seeded_${runId}`;
  const emptyTemplate = `pds_tpl_empty_${runId}`;
  await createDatabase(adminUrl, emptyTemplate);
  await createDatabase(adminUrl, seededTemplate);
  for (const [name, seeded] of [
    [emptyTemplate, false],
    [seededTemplate, true],
  ] as const) {
    const db = openDatabase(withDatabase(adminUrl, name), 4);
    try {
      await migrate(db.pool);
      if (seeded) await seedCatalog(db, testCatalog);
    } finally {
      await db.close();
    }
  }
  project.provide('adminUrl', adminUrl);
  project.provide('seededTemplate', seededTemplate);
  project.provide('emptyTemplate', emptyTemplate);

  return async () => {
    await dropDatabasesOfRun(adminUrl, runId).catch(() => undefined);
    await embedded?.stop();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  };
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function createDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
}

async function dropDatabasesOfRun(adminUrl: string, runId: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const names = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [
      `%${runId}%`,
    ]);
    for (const { datname } of names.rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
