import type { RetentionTask } from '../../job-queue/index.js';
import type { Queryable } from '../../store/db.js';

/**
 * The last answer of each status operation, per account, operation and resource, kept in
 * PostgreSQL. In memory it would hold per instance only: behind a load balancer an agent's
 * next poll usually lands on another instance and would reach the backend again. One indexed
 * primary-key read per status call is cheaper than the status query it replaces.
 *
 * An answer is never older than the job it reports on: the jobs that status operations follow
 * (a build, an enrichment, an export, a saved-search run, a batch) finish in a worker, not
 * through the gateway, so a job of the account that finished since shortly before the answer was
 * fetched makes it stale. "Shortly before" (one polling interval) covers an answer read from the
 * service just before the job finished and remembered just after: for one interval after a job
 * finishes, every poll reaches the service.
 */
export interface CachedPoll {
  answer: unknown;
  ageSeconds: number;
}

/** The last status answers the gateway serves early polls from. */
export interface PollAnswers {
  /** The answer remembered for this resource, when it is younger than the interval. */
  fresh(
    accountId: number,
    operationId: string,
    resourceKey: string,
    intervalSeconds: number,
  ): Promise<CachedPoll | null>;
  remember(accountId: number, operationId: string, resourceKey: string, answer: unknown): Promise<void>;
  /** A change made through the gateway (a build, a trigger) makes the account's earlier status answers stale. */
  forgetAccount(accountId: number): Promise<void>;
}

/** Jobs whose end changes no status an agent polls: their finishing leaves the answers fresh. */
const jobsNoStatusFollows = ['webhook.delivery', 'audience.purge-export-files'];

export class PollCache implements PollAnswers {
  constructor(private readonly db: Queryable) {}

  async fresh(
    accountId: number,
    operationId: string,
    resourceKey: string,
    intervalSeconds: number,
  ): Promise<CachedPoll | null> {
    const result = await this.db.query<{ answer: unknown; age: number }>(
      `SELECT c.answer, EXTRACT(EPOCH FROM (now() - c.fetched_at))::float8 AS age
         FROM mcp_poll_cache c
        WHERE c.account_id = $1 AND c.operation_id = $2 AND c.resource_key = $3
          AND c.fetched_at > now() - make_interval(secs => $4)
          AND NOT EXISTS (
            SELECT 1 FROM jobs j
             WHERE j.account_id = $1 AND j.finished_at > c.fetched_at - make_interval(secs => $4)
               AND j.kind <> ALL ($5::text[]))`,
      [accountId, operationId, resourceKey, intervalSeconds, jobsNoStatusFollows],
    );
    const row = result.rows[0];
    return row ? { answer: row.answer, ageSeconds: Math.max(0, row.age) } : null;
  }

  async remember(accountId: number, operationId: string, resourceKey: string, answer: unknown): Promise<void> {
    await this.db.query(
      `INSERT INTO mcp_poll_cache (account_id, operation_id, resource_key, answer, fetched_at)
       VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (account_id, operation_id, resource_key) DO UPDATE SET answer = EXCLUDED.answer, fetched_at = EXCLUDED.fetched_at`,
      [accountId, operationId, resourceKey, JSON.stringify(answer)],
    );
    if (Math.random() < 0.01) void this.purgeOlderThan(3600).catch(() => undefined);
  }

  async forgetAccount(accountId: number): Promise<void> {
    await this.db.query('DELETE FROM mcp_poll_cache WHERE account_id = $1', [accountId]);
  }

  async purgeOlderThan(seconds: number): Promise<number> {
    return (
      (
        await this.db.query('DELETE FROM mcp_poll_cache WHERE fetched_at < now() - make_interval(secs => $1)', [
          seconds,
        ])
      ).rowCount ?? 0
    );
  }
}

/** Retention: poll answers older than an hour are of use to no one. */
export const pollCacheRetention: RetentionTask = {
  name: 'mcpPollAnswersDeleted',
  sweep: (db) => new PollCache(db).purgeOlderThan(3600),
};
