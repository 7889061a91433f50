import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyAuthenticator } from '../../src/auth/api-key-authenticator.js';
import { hashApiKey } from '../../src/core/api-keys.js';
import { createAccount, revokeApiKey } from '../../src/core/accounts.js';
import type { Queryable } from '../../src/store/db.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

/**
 * A revoke and a lookup of the same key, interleaved (item 7 of issue 30): the lookup reads the
 * key while it is valid, the key is revoked and dropped from the cache, and only then does the
 * lookup's answer come back. It must not be cached: the next call is refused at once, not after
 * the cache's lifetime.
 */
describe('the API-key cache and a revoke during a lookup', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('empty');
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('lets the revoke win over a lookup that read the key before it', async () => {
    const { apiKey } = await createAccount(database.db, { name: 'Raced', initialCredits: 10 });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let read!: () => void;
    const keyRead = new Promise<void>((resolve) => (read = resolve));
    let holdNext = true;
    // The database answers at once; the answer is held back until the test lets it go.
    const holding: Queryable = {
      query: (async (...args: unknown[]) => {
        const answer = await (database.db.pool.query as (...a: unknown[]) => Promise<unknown>)(...args);
        if (holdNext) {
          holdNext = false;
          read();
          await held;
        }
        return answer;
      }) as Queryable['query'],
    };
    // A lifetime far longer than the test: only the revoke can end a cached verdict here.
    const authenticator = new ApiKeyAuthenticator(holding, { ttlMs: 10 * 60_000 });

    const inFlight = authenticator.authenticate(apiKey);
    await keyRead;
    await revokeApiKey(database.db.pool, apiKey);
    authenticator.forgetHash(hashApiKey(apiKey));
    release();
    // What the lookup read before the revoke may be answered to the call that made it...
    expect((await inFlight)?.accountName).toBe('Raced');
    // ...but it is not kept: the next call asks the database again, and is refused.
    expect(await authenticator.authenticate(apiKey)).toBeNull();
    expect(authenticator.cached.known).toBe(0);
  });
});
