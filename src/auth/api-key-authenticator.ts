import { LRUCache } from 'lru-cache';
import { hashApiKey } from '../core/api-keys.js';
import type { Principal } from '../core/principal.js';
import { databaseFailure } from '../errors.js';
import type { Queryable } from '../store/db.js';

export interface ApiKeyCacheLimits {
  /** How long a verdict is trusted: a revoked key stops working within this on every instance. */
  ttlMs?: number;
  /** Keys that authenticate, kept at most (the least recently used go first). */
  maxKnown?: number;
  /** Keys that do not, kept at most: a cache of its own, so that no number of them evicts a valid key. */
  maxUnknown?: number;
}

/**
 * Authenticates keys with a short-lived cache, so that an agent's burst of calls does not cost
 * a database round trip each. Valid keys and unknown ones are cached apart, each a bounded LRU:
 * a spray of random keys cycles through the small cache of unknown ones and never pushes a valid
 * key out (bench/api-keys.ts measures it). A revoked key stops working within `ttlMs` on every
 * instance. While the primary cannot be reached (a failover), a key is looked up on a streaming
 * replica when there is a healthy one (`standby`), so that what needs no write can still be
 * served; a revocation then takes effect within the replica's lag bound as well.
 */
export class ApiKeyAuthenticator {
  private readonly known: LRUCache<string, Principal>;
  private readonly unknown: LRUCache<string, true>;
  private readonly cachesVerdicts: boolean;
  /** Counts revocations seen here: a lookup that began before one must not cache what it read (the revoke wins). */
  private forgotten = 0;

  constructor(
    private readonly db: Queryable,
    limitsOrTtl: ApiKeyCacheLimits | number = {},
    private readonly standby: () => Queryable | null = () => null,
  ) {
    const limits = typeof limitsOrTtl === 'number' ? { ttlMs: limitsOrTtl } : limitsOrTtl;
    // A ttl of 0 means no caching at all (lru-cache reads 0 as "no expiry").
    const ttl = limits.ttlMs ?? 5_000;
    this.known = new LRUCache({ max: ttl > 0 ? (limits.maxKnown ?? 10_000) : 1, ttl: Math.max(1, ttl) });
    this.unknown = new LRUCache({ max: ttl > 0 ? (limits.maxUnknown ?? 1_000) : 1, ttl: Math.max(1, ttl) });
    this.cachesVerdicts = ttl > 0;
  }

  /** How many verdicts are cached now, valid and unknown keys apart. */
  get cached(): { known: number; unknown: number } {
    return { known: this.known.size, unknown: this.unknown.size };
  }

  async authenticate(key: string | undefined | null): Promise<Principal | null> {
    if (!key || key.length > 200) return null;
    const hash = hashApiKey(key);
    const cacheKey = hash.toString('base64');
    const known = this.known.get(cacheKey);
    if (known) return known;
    if (this.unknown.has(cacheKey)) return null;
    const forgottenBefore = this.forgotten;
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
        expires_at: Date | null;
      }>(
        `SELECT k.account_id, a.name, a.plan, a.email, k.id, k.label, k.read_only, k.daily_credit_cap, k.expires_at
           FROM api_keys k JOIN accounts a ON a.id = k.account_id
          WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())`,
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
    if (this.cachesVerdicts && this.forgotten === forgottenBefore) {
      // A key that expires soon is trusted no longer than until its expiry (the end of a rotation's overlap).
      const expiresInMs = result.rows[0]?.expires_at ? result.rows[0].expires_at.getTime() - Date.now() : Infinity;
      if (principal && expiresInMs > 0)
        this.known.set(cacheKey, principal, { ttl: Math.max(1, Math.min(this.known.ttl, expiresInMs)) });
      else this.unknown.set(cacheKey, true);
    }
    return principal;
  }

  /** Why a key that no longer authenticates is refused: when it was revoked or expired, or null when it is unknown. For refusal messages only. */
  async refusedSince(key: string): Promise<{ revokedAt: string } | { expiredAt: string } | null> {
    if (key.length > 200) return null;
    const result = await this.db.query<{ revoked_at: Date | null; expires_at: Date | null }>(
      'SELECT revoked_at, expires_at FROM api_keys WHERE key_hash = $1',
      [hashApiKey(key)],
    );
    const row = result.rows[0];
    if (row?.revoked_at) return { revokedAt: row.revoked_at.toISOString() };
    if (row?.expires_at && row.expires_at.getTime() <= Date.now()) return { expiredAt: row.expires_at.toISOString() };
    return null;
  }

  forget(key: string): void {
    this.forgetHash(hashApiKey(key));
  }

  /** Drops a key known by its stored hash (a revocation from the dashboard), so this instance refuses it at once. */
  forgetHash(hash: Buffer): void {
    const cacheKey = hash.toString('base64');
    this.forgotten += 1;
    this.known.delete(cacheKey);
    this.unknown.delete(cacheKey);
  }
}
