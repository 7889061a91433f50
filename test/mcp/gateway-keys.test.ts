import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyAuthenticator } from '../../src/auth/api-key-authenticator.js';
import { generateApiKey, hashApiKey } from '../../src/core/api-keys.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

/**
 * /mcp/v3 sign-ins used to reach the REST API through a key derived for each account from the
 * signing secret. Their operations now run in process, so migration 095 revokes every such key:
 * none of them authenticates any more, on REST or anywhere.
 */
describe('the derived gateway keys of /mcp/v3', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('empty');
  });
  afterAll(async () => database?.drop());

  it('are revoked by migration 095, and other keys are left alone', async () => {
    const pool = database.db.pool;
    const account = await pool.query<{ id: number }>(
      "INSERT INTO accounts (name, plan) VALUES ('Signed in', 'pro') RETURNING id",
    );
    const accountId = account.rows[0]!.id;
    const derived = generateApiKey();
    const own = generateApiKey();
    for (const [key, label] of [
      [derived, 'mcp/v3 gateway (derived for OAuth sign-ins; never shown)'],
      [own, 'initial'],
    ] as const) {
      await pool.query('INSERT INTO api_keys (account_id, key_hash, key_prefix, label) VALUES ($1, $2, $3, $4)', [
        accountId,
        hashApiKey(key),
        key.slice(0, 10),
        label,
      ]);
    }
    const authenticator = new ApiKeyAuthenticator(pool, 0);
    expect(await authenticator.authenticate(derived)).not.toBeNull();
    // As a database that ran an older version meets the migration.
    await pool.query(await readFile('src/store/migrations/095_revoke_gateway_keys.sql', 'utf8'));
    expect(await authenticator.authenticate(derived)).toBeNull();
    expect(await authenticator.refusedSince(derived)).toHaveProperty('revokedAt');
    expect(await authenticator.authenticate(own)).toMatchObject({ accountId, key: { readOnly: false } });
  });
});
