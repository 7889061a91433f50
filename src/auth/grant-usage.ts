import type { Queryable } from '../store/db.js';

/**
 * When each approval of /mcp/v3 (a connected assistant) was first and last used, for the people
 * who see and disconnect assistants in the dashboard. Written when a token of the grant is
 * verified against the database (so at most once per token per OAUTH_TOKEN_CACHE_SECONDS on
 * each instance), to the minute.
 */

export async function recordGrantUse(db: Queryable, grantId: string, accountId: number): Promise<void> {
  await db.query(
    `INSERT INTO oauth_grant_usage AS u (grant_id, account_id) VALUES ($1, $2)
     ON CONFLICT (grant_id) DO UPDATE SET last_used_at = now() WHERE u.last_used_at < now() - interval '1 minute'`,
    [grantId, accountId],
  );
}

export interface GrantUse {
  firstUsedAt: string;
  lastUsedAt: string;
}

export async function grantUsage(db: Queryable, accountId: number): Promise<Map<string, GrantUse>> {
  const result = await db.query<{ grant_id: string; first_used_at: Date; last_used_at: Date }>(
    'SELECT grant_id, first_used_at, last_used_at FROM oauth_grant_usage WHERE account_id = $1',
    [accountId],
  );
  return new Map(
    result.rows.map((r) => [
      r.grant_id,
      { firstUsedAt: r.first_used_at.toISOString(), lastUsedAt: r.last_used_at.toISOString() },
    ]),
  );
}
