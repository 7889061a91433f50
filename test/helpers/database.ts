import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../src/store/db.js';
import { withDatabase } from './global-setup.js';

export interface TestDatabase {
  db: Database;
  connectionString: string;
  drop(): Promise<void>;
}

/**
 * A fresh database of its own for a test file, copied from a template made once per run:
 * `seeded` holds the test catalog, `empty` only the schema. Both are migrated.
 */
export async function createTestDatabase(catalog: 'seeded' | 'empty' = 'empty'): Promise<TestDatabase> {
  const adminUrl = inject('adminUrl');
  const template = catalog === 'seeded' ? inject('seededTemplate') : inject('emptyTemplate');
  const runSuffix = template.replace(/^pds_tpl_(seeded|empty)_/, '');
  const name = `pds_t_${randomBytes(4).toString('hex')}_${runSuffix}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.end();
  }
  const connectionString = withDatabase(adminUrl, name);
  const db = openDatabase(connectionString, 5);
  return {
    db,
    connectionString,
    drop: async () => {
      await db.close().catch(() => undefined);
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
