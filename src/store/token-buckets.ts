import type { Queryable } from './db.js';

/** What one take from a bucket found. */
export interface BucketTake {
  allowed: boolean;
  /** Tokens left after the take (fractional while refilling). */
  tokens: number;
  /** When refused, the seconds until a whole token is back; 0 when allowed. */
  retryAfterSeconds: number;
}

/**
 * Takes one token from the bucket (subject, bucketClass) of rate_limit_buckets, shared by every
 * instance: it holds at most `capacity` tokens and refills evenly over `periodSeconds`. A refused
 * take leaves the bucket refilled and spends nothing, so a client that keeps knocking waits no
 * longer than one that waits.
 */
export async function takeToken(
  db: Queryable,
  subject: string,
  bucketClass: string,
  capacity: number,
  periodSeconds: number,
): Promise<BucketTake> {
  // In ON CONFLICT's SET every expression reads the row as it was; EXCLUDED.updated_at is now.
  const refilled =
    'least($3::float8, b.tokens + extract(epoch FROM (EXCLUDED.updated_at - b.updated_at)) * $3::float8 / $4::float8)';
  const result = await db.query<{ tokens: number; allowed: boolean }>(
    `INSERT INTO rate_limit_buckets AS b (subject, rate_class, tokens, allowed, updated_at)
     VALUES ($1, $2, $3::float8 - 1, true, clock_timestamp())
     ON CONFLICT (subject, rate_class) DO UPDATE SET
       tokens = CASE WHEN ${refilled} >= 1 THEN ${refilled} - 1 ELSE ${refilled} END,
       allowed = ${refilled} >= 1,
       updated_at = EXCLUDED.updated_at
     RETURNING b.tokens, b.allowed`,
    [subject, bucketClass, capacity, periodSeconds],
  );
  const { tokens, allowed } = result.rows[0] as { tokens: number; allowed: boolean };
  return {
    allowed,
    tokens,
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(((1 - tokens) * periodSeconds) / capacity)),
  };
}

/** The tokens the bucket holds now, refilled, without taking one (a bucket never used is full). */
export async function peekTokens(
  db: Queryable,
  subject: string,
  bucketClass: string,
  capacity: number,
  periodSeconds: number,
): Promise<number> {
  const result = await db.query<{ tokens: number }>(
    `SELECT least($3::float8, tokens + extract(epoch FROM (clock_timestamp() - updated_at)) * $3::float8 / $4::float8) AS tokens
       FROM rate_limit_buckets WHERE subject = $1 AND rate_class = $2`,
    [subject, bucketClass, capacity, periodSeconds],
  );
  return result.rows[0]?.tokens ?? capacity;
}
