import { hashApiKey, type Principal } from '../core/keys.js';
import { databaseFailure } from '../errors.js';
import type { Queryable } from '../store/db.js';

/** Key minting and hashing live in core (accounts are made there); re-exported for the surfaces. */
export { displayPrefix, generateApiKey, hashApiKey, type Principal } from '../core/keys.js';

interface CachedPrincipal {
  principal: Principal | null;
  expiresAt: number;
}

/**
 * Authenticates keys with a short-lived cache, so that an agent's burst of calls does not cost
 * a database round trip each. A revoked key stops working within `ttlMs` on every instance.
 * While the primary cannot be reached (a failover), a key is looked up on a streaming replica
 * when there is a healthy one (`standby`), so that what needs no write can still be served; a
 * revocation then takes effect within the replica's lag bound as well.
 */
export class ApiKeyAuthenticator {
  private readonly cache = new Map<string, CachedPrincipal>();

  constructor(
    private readonly db: Queryable,
    private readonly ttlMs = 5_000,
    private readonly maxEntries = 10_000,
    private readonly standby: () => Queryable | null = () => null,
  ) {}

  async authenticate(key: string | undefined | null): Promise<Principal | null> {
    if (!key || key.length > 200) return null;
    const hash = hashApiKey(key);
    const cacheKey = hash.toString('base64');
    const now = Date.now();
    const cached = this.cache.get(cacheKey);
    if (cached && cached.expiresAt > now) return cached.principal;
    const lookUp = (db: Queryable) =>
      db.query<{
        account_id: number;
        name: string;
        plan: string;
        email: string | null;
        id: number;
        label: string | null;
        read_only: boolean;
        daily_credit_cap: number | null;
      }>(
        `SELECT k.account_id, a.name, a.plan, a.email, k.id, k.label, k.read_only, k.daily_credit_cap
           FROM api_keys k JOIN accounts a ON a.id = k.account_id
          WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
        [hash],
      );
    const principalOf = (row: Awaited<ReturnType<typeof lookUp>>['rows'][number] | undefined): Principal | null =>
      row
        ? {
            accountId: row.account_id,
            accountName: row.name,
            plan: row.plan,
            email: row.email,
            key: { id: row.id, name: row.label, readOnly: row.read_only, dailyCreditCap: row.daily_credit_cap },
          }
        : null;
    let result;
    try {
      result = await lookUp(this.db);
    } catch (error) {
      const standby = databaseFailure(error)?.code === 'unavailable' ? this.standby() : null;
      if (!standby) throw error;
      // Not cached: the primary's answer is wanted again as soon as it can give one.
      return principalOf((await lookUp(standby)).rows[0]);
    }
    const principal = principalOf(result.rows[0]);
    if (this.cache.size >= this.maxEntries) this.cache.clear();
    this.cache.set(cacheKey, { principal, expiresAt: now + this.ttlMs });
    return principal;
  }

  /** When a key that no longer authenticates was revoked (ISO time), or null when it is unknown. For refusal messages only. */
  async revokedAt(key: string): Promise<string | null> {
    if (key.length > 200) return null;
    const result = await this.db.query<{ revoked_at: Date | null }>(
      'SELECT revoked_at FROM api_keys WHERE key_hash = $1',
      [hashApiKey(key)],
    );
    const revoked = result.rows[0]?.revoked_at;
    return revoked ? revoked.toISOString() : null;
  }

  forget(key: string): void {
    this.forgetHash(hashApiKey(key));
  }

  /** Drops a key known by its stored hash (a revocation from the dashboard), so this instance refuses it at once. */
  forgetHash(hash: Buffer): void {
    this.cache.delete(hash.toString('base64'));
  }
}
