import type { RateLimitClass } from '../../operations/define.js';
import { rateLimitsPerMinute, type Config, type RateLimitSettings } from '../config.js';
import { databaseFailure } from '../errors.js';
import type { RetentionTask } from '../job-queue/index.js';
import { takeToken } from '../store/token-buckets.js';
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
    const taken = await takeToken(this.db, subject, rateClass, limit, 60);
    if (taken.allowed) return { allowed: true, limit, remaining: Math.floor(taken.tokens), retryAfterSeconds: 0 };
    return { allowed: false, limit, remaining: 0, retryAfterSeconds: taken.retryAfterSeconds };
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
