import type { RateLimitClass } from '../../operations/define.js';
import type { Config } from '../config.js';

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

/**
 * A token bucket per API key and rate-limit class, refilled continuously at the class's
 * per-minute rate with a burst of one minute's worth. Kept in memory: behind a load balancer
 * each instance enforces its own share.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMinute: Record<RateLimitClass, number>;

  constructor(config: Pick<Config, 'RATE_LIMIT_SEARCH_PER_MINUTE' | 'RATE_LIMIT_STANDARD_PER_MINUTE' | 'RATE_LIMIT_STATUS_PER_MINUTE' | 'RATE_LIMIT_HEAVY_PER_MINUTE'>) {
    this.perMinute = {
      search: config.RATE_LIMIT_SEARCH_PER_MINUTE,
      standard: config.RATE_LIMIT_STANDARD_PER_MINUTE,
      status: config.RATE_LIMIT_STATUS_PER_MINUTE,
      heavy: config.RATE_LIMIT_HEAVY_PER_MINUTE,
    };
  }

  limitOf(rateClass: RateLimitClass): number {
    return this.perMinute[rateClass];
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
    return { allowed: false, limit, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / refillPerMs / 1000)) };
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
