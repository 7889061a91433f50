import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyAuthenticator } from '../../src/auth/api-key-authenticator.js';
import { generateApiKey } from '../../src/core/api-keys.js';
import { createAccount, revokeApiKey } from '../../src/core/accounts.js';
import type { Queryable } from '../../src/store/db.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

/**
 * The API-key cache under a spray of random keys: valid keys and unknown ones are cached apart,
 * each a bounded LRU, so 50,000 random keys never push a valid key out of its cache (it keeps
 * being answered without a database round trip) and the unknown ones take a bounded amount of
 * memory. What that means in time is in the benchmarks (bench/api-keys.ts), not here.
 */
describe('the API-key cache under a spray of random keys', () => {
  let database: TestDatabase;
  let queries = 0;
  let counting: Queryable;
  beforeAll(async () => {
    database = await createTestDatabase('empty');
    counting = {
      query: ((...args: Parameters<Queryable['query']>) => {
        queries += 1;
        return (database.db.pool.query as (...a: unknown[]) => unknown)(...args);
      }) as Queryable['query'],
    };
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('keeps answering a valid key from its cache through 50,000 random keys', async () => {
    const { apiKey } = await createAccount(database.db, { name: 'Sprayed', initialCredits: 10 });
    // A time to live longer than the spray, so that only eviction could make the valid key go to the database.
    const authenticator = new ApiKeyAuthenticator(counting, { ttlMs: 10 * 60_000 });
    expect(await authenticator.authenticate(apiKey)).not.toBeNull();
    expect(queries).toBe(1);

    let validLookups = 0;
    for (let sent = 0; sent < 50_000; sent += 500) {
      await Promise.all(
        Array.from({ length: 500 }, async () => expect(await authenticator.authenticate(generateApiKey())).toBeNull()),
      );
      const before = queries;
      expect((await authenticator.authenticate(apiKey))?.accountName).toBe('Sprayed');
      validLookups += queries - before;
    }
    // 50,000 unknown keys each asked the database once; the valid key, never again.
    expect(queries).toBe(1 + 50_000);
    expect(validLookups).toBe(0);
    expect(authenticator.cached).toEqual({ known: 1, unknown: 1_000 });

    // An unknown key asked again at once is answered from its own cache, and revocation still reaches the valid one.
    const stranger = generateApiKey();
    await authenticator.authenticate(stranger);
    const afterStranger = queries;
    expect(await authenticator.authenticate(stranger)).toBeNull();
    expect(queries).toBe(afterStranger);
    await revokeApiKey(database.db.pool, apiKey);
    authenticator.forget(apiKey);
    expect(await authenticator.authenticate(apiKey)).toBeNull();
  }, 300_000);

  it('trusts a cached key no longer than its expiry (the end of a rotation window), with nothing forgotten', async () => {
    const { apiKey } = await createAccount(database.db, { name: 'Expiring', initialCredits: 10 });
    await database.db.pool.query(
      `UPDATE api_keys SET expires_at = now() + interval '300 milliseconds' WHERE key_prefix = $1`,
      [apiKey.slice(0, 10)],
    );
    const authenticator = new ApiKeyAuthenticator(database.db.pool, { ttlMs: 10 * 60_000 });
    expect(await authenticator.authenticate(apiKey)).not.toBeNull();
    expect(authenticator.cached.known).toBe(1);
    await expect.poll(() => authenticator.authenticate(apiKey), { timeout: 5_000, interval: 50 }).toBeNull();
  });
});
