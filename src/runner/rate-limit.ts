import type { RateLimitClass } from '../../operations/define.js';
import { rateLimitsPerMinute, type Config, type RateLimitSettings } from '../config.js';
import { databaseFailure } from '../errors.js';
import type { RetentionTask } from '../job-queue/index.js';
import { peekTokens, takeToken } from '../store/token-buckets.js';
import type { Queryable } from '../store/db.js';

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /**
   * Seconds until the bucket is full again; while no whole token is left, until the next one (which is then the
   * Retry-After of a refusal: the draft asks that Retry-After not point before the end of the window it announces).
   */
  resetSeconds: number;
  retryAfterSeconds: number;
}

/** Every bucket refills over one minute: the window of each class's policy. */
export const rateLimitWindowSeconds = 60;

/** A decision from a bucket's tokens after the request (fractional while refilling) and its per-minute limit. */
export function decisionOf(allowed: boolean, tokens: number, limit: number): RateDecision {
  const secondsPerToken = rateLimitWindowSeconds / limit;
  const untilNextToken = Math.max(1, Math.ceil((1 - (tokens % 1)) * secondsPerToken));
  const remaining = allowed ? Math.floor(tokens) : 0;
  return {
    allowed,
    limit,
    remaining,
    resetSeconds: remaining === 0 ? untilNextToken : Math.ceil((limit - tokens) * secondsPerToken),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) * secondsPerToken)),
  };
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
  /** The bucket as it stands, nothing taken: for an answer refused before the limit was counted. */
  peek(subject: string, rateClass: RateLimitClass): Promise<RateDecision>;
}

export function createRateLimits(config: LimitConfig & Pick<Config, 'RATE_LIMIT_STORE'>, db: Queryable): RateLimits {
  const memory = new MemoryRateLimiter(config);
  if (config.RATE_LIMIT_STORE === 'database') {
    const shared = new DatabaseRateLimiter(config, db);
    const orLocally =
      (use: 'take' | 'peek') =>
      async (subject: string, rateClass: RateLimitClass): Promise<RateDecision> => {
        try {
          return await shared[use](subject, rateClass);
        } catch (error) {
          // The database away (a failover): this instance counts for itself, so that what can still be served is.
          if (databaseFailure(error)?.code !== 'unavailable') throw error;
          return memory[use](subject, rateClass);
        }
      };
    return { take: orLocally('take'), peek: orLocally('peek') };
  }
  return {
    take: async (subject, rateClass) => memory.take(subject, rateClass),
    peek: async (subject, rateClass) => memory.peek(subject, rateClass),
  };
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
    const taken = await takeToken(this.db, subject, rateClass, limit, rateLimitWindowSeconds);
    return decisionOf(taken.allowed, taken.tokens, limit);
  }

  async peek(subject: string, rateClass: RateLimitClass): Promise<RateDecision> {
    const limit = this.perMinute[rateClass];
    const tokens = await peekTokens(this.db, subject, rateClass, limit, rateLimitWindowSeconds);
    return decisionOf(tokens >= 1, tokens, limit);
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
    if (bucket.tokens < 1) return decisionOf(false, bucket.tokens, limit);
    bucket.tokens -= 1;
    return decisionOf(true, bucket.tokens, limit);
  }

  peek(subject: string, rateClass: RateLimitClass, now = Date.now()): RateDecision {
    const limit = this.perMinute[rateClass];
    const bucket = this.buckets.get(`${rateClass}:${subject}`);
    const tokens = bucket ? Math.min(limit, bucket.tokens + (now - bucket.updatedAt) * (limit / 60_000)) : limit;
    return decisionOf(tokens >= 1, tokens, limit);
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

/**
 * The headers of draft-ietf-httpapi-ratelimit-headers (structured fields): `RateLimit-Policy`, the class's quota of
 * requests (`q`) per window in seconds (`w`), which any answer of an operation carries; and `RateLimit`, what the
 * account has left of it (`r`) and in how many seconds the bucket is full again (`t`), once its bucket has been read.
 */
export function rateLimitHeaders(
  rateClass: RateLimitClass,
  limit: number,
  decision: RateDecision | null,
): Record<string, string> {
  const name = `"${rateClass}"`;
  const headers: Record<string, string> = { 'RateLimit-Policy': `${name};q=${limit};w=${rateLimitWindowSeconds}` };
  if (decision) headers.RateLimit = `${name};r=${decision.remaining};t=${decision.resetSeconds}`;
  return headers;
}

/** The same, as the error details of a refusal for a limit carry it (and MCP's tool errors with them). */
export function rateLimitDetails(
  rateClass: RateLimitClass,
  decision: RateDecision,
): { policy: RateLimitClass; quota: number; windowSeconds: number; remaining: number; resetSeconds: number } {
  return {
    policy: rateClass,
    quota: decision.limit,
    windowSeconds: rateLimitWindowSeconds,
    remaining: decision.remaining,
    resetSeconds: decision.resetSeconds,
  };
}

/** A bucket untouched for an hour has refilled: its row says nothing the default does not. */
export async function purgeIdleRateLimitBuckets(db: Queryable): Promise<number> {
  return (await db.query("DELETE FROM rate_limit_buckets WHERE updated_at < now() - interval '1 hour'")).rowCount ?? 0;
}

/** Retention: buckets idle for an hour are full again, so deleting them changes nothing. */
export const rateLimitRetention: RetentionTask = { name: 'rateLimitBucketsDeleted', sweep: purgeIdleRateLimitBuckets };
