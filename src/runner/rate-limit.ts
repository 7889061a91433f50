import type { RateLimitClass } from '../../operations/define.js';
import { rateLimitsPerMinute, type Config, type RateLimitSettings } from '../config.js';
import { databaseFailure } from '../errors.js';
import type { RetentionTask } from '../jobs/index.js';
import type { Queryable } from '../store/db.js';

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  retryAfterSeconds: number;
}

type LimitConfig = RateLimitSettings;

/**
 * A token bucket per account and rate-limit class, refilled continuously at the class's
 * per-minute rate with a burst of one minute's worth. Two stores, chosen by RATE_LIMIT_STORE:
 * `memory` (one process; behind a load balancer each instance enforces its own share) and
 * `database` (PostgreSQL; every instance draws on the same buckets, one statement per request;
 * while the database is unreachable each instance counts for itself). An instance does not detect
 * the load balancer in front of it: the operator sets RATE_LIMIT_STORE=database where several serve.
 */
export interface RateLimits {
  take(subject: string, rateClass: RateLimitClass): Promise<RateDecision>;
}

export function createRateLimits(config: LimitConfig & Pick<Config, 'RATE_LIMIT_STORE'>, db: Queryable): RateLimits {
  const memory = new MemoryRateLimiter(config);
  if (config.RATE_LIMIT_STORE === 'database') {
    const shared = new DatabaseRateLimiter(config, db);
    return {
      take: async (subject, rateClass) => {
        try {
          return await shared.take(subject, rateClass);
        } catch (error) {
          // The database away (a failover): this instance counts for itself, so that what can still be served is.
          if (databaseFailure(error)?.code !== 'unavailable') throw error;
          return memory.take(subject, rateClass);
        }
      },
    };
  }
  return { take: async (subject, rateClass) => memory.take(subject, rateClass) };
}

/** The bucket in PostgreSQL: refill, then take a token if there is one, in one atomic statement. */
export class DatabaseRateLimiter implements RateLimits {
  private readonly perMinute: Record<RateLimitClass, number>;

  constructor(
    config: LimitConfig,
    private readonly db: Queryable,
  ) {
    this.perMinute = rateLimitsPerMinute(config);
  }

  async take(subject: string, rateClass: RateLimitClass): Promise<RateDecision> {
    const limit = this.perMinute[rateClass];
    // In ON CONFLICT's SET every expression reads the row as it was; EXCLUDED.updated_at is now.
    const refilled =
      'least($3::float8, b.tokens + extract(epoch FROM (EXCLUDED.updated_at - b.updated_at)) * $3::float8 / 60)';
    const result = await this.db.query<{ tokens: number; allowed: boolean }>(
      `INSERT INTO rate_limit_buckets AS b (subject, rate_class, tokens, allowed, updated_at)
       VALUES ($1, $2, $3::float8 - 1, true, clock_timestamp())
       ON CONFLICT (subject, rate_class) DO UPDATE SET
         tokens = CASE WHEN ${refilled} >= 1 THEN ${refilled} - 1 ELSE ${refilled} END,
         allowed = ${refilled} >= 1,
         updated_at = EXCLUDED.updated_at
       RETURNING b.tokens, b.allowed`,
      [subject, rateClass, limit],
    );
    const row = result.rows[0] as { tokens: number; allowed: boolean };
    if (row.allowed) return { allowed: true, limit, remaining: Math.floor(row.tokens), retryAfterSeconds: 0 };
    return {
      allowed: false,
      limit,
      remaining: 0,
      retryAfterSeconds: Math.max(1, Math.ceil(((1 - row.tokens) * 60) / limit)),
    };
  }
}

/** The in-memory bucket store: one process's own buckets. */
class MemoryRateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMinute: Record<RateLimitClass, number>;

  constructor(config: LimitConfig) {
    this.perMinute = rateLimitsPerMinute(config);
  }

  take(subject: string, rateClass: RateLimitClass, now = Date.now()): RateDecision {
    const limit = this.perMinute[rateClass];
    const key = `${rateClass}:${subject}`;
    const refillPerMs = limit / 60_000;
    const bucket = this.buckets.get(key) ?? { tokens: limit, updatedAt: now };
    bucket.tokens = Math.min(limit, bucket.tokens + (now - bucket.updatedAt) * refillPerMs);
    bucket.updatedAt = now;
    this.buckets.set(key, bucket);
    if (this.buckets.size > 100_000) this.evictFull(now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, limit, remaining: Math.floor(bucket.tokens), retryAfterSeconds: 0 };
    }
    return {
      allowed: false,
      limit,
      remaining: 0,
      retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / refillPerMs / 1000)),
    };
  }

  /** Buckets that have refilled completely carry no state worth keeping. */
  private evictFull(now: number): void {
    for (const [key, bucket] of this.buckets) {
      const rateClass = key.slice(0, key.indexOf(':')) as RateLimitClass;
      const limit = this.perMinute[rateClass];
      if (bucket.tokens + (now - bucket.updatedAt) * (limit / 60_000) >= limit) this.buckets.delete(key);
    }
  }
}

/** A bucket untouched for an hour has refilled: its row says nothing the default does not. */
export async function purgeIdleRateLimitBuckets(db: Queryable): Promise<number> {
  return (await db.query("DELETE FROM rate_limit_buckets WHERE updated_at < now() - interval '1 hour'")).rowCount ?? 0;
}

/** Retention: buckets idle for an hour are full again, so deleting them changes nothing. */
export const rateLimitRetention: RetentionTask = { name: 'rateLimitBucketsDeleted', sweep: purgeIdleRateLimitBuckets };
