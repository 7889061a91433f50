import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/core/accounts.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

const run = promisify(execFile);
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase('empty');
});
afterAll(async () => database?.drop());

async function seed(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', 'src/cli/seed.ts', '--companies', '20', '--people', '60', ...args],
      {
        env: { ...process.env, DATABASE_URL: database.connectionString, LOG_LEVEL: 'silent' },
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const catalogFingerprint = async (): Promise<string> =>
  (
    await database.db.pool.query<{ names: string }>(
      "SELECT string_agg(preferred_name, ',' ORDER BY id) AS names FROM companies",
    )
  ).rows[0]?.names ?? '';

describe('seed command', () => {
  it('loads an empty catalog, and replaces a full one only with --reset', async () => {
    expect((await seed('--seed', '1')).code).toBe(0);
    const first = await catalogFingerprint();
    const refused = await seed('--seed', '2');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/not empty: nothing was changed/);
    expect(await catalogFingerprint()).toBe(first);
    expect((await seed('--seed', '2', '--reset')).code).toBe(0);
    expect(await catalogFingerprint()).not.toBe(first);
  });

  it('will not replace a catalog that audiences or exclusion lists refer to, unless forced', async () => {
    const account = await createAccount(database.db, { name: 'Holder of a list' });
    await database.db.pool.query(
      "INSERT INTO exclusion_lists (account_id, kind, name) VALUES ($1, 'companies', 'do not contact')",
      [account.account.id],
    );
    const before = await catalogFingerprint();
    const refused = await seed('--seed', '3', '--reset');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /referred to by 0 audience\(s\) and 1 exclusion list\(s\).*Nothing was changed.*--reset --force/,
    );
    expect(await catalogFingerprint()).toBe(before);
    expect((await seed('--seed', '3', '--reset', '--force')).code).toBe(0);
    expect(await catalogFingerprint()).not.toBe(before);
  });
});
