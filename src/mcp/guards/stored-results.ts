import { randomBytes } from 'node:crypto';
import type { RetentionTask } from '../../job-queue/index.js';
import type { Queryable } from '../../store/db.js';

/**
 * Full answers that were too large for one tool result. They were charged when they were
 * fetched, so they are kept (a day) and served again in slices free of charge.
 */
export const storedResultTtlSeconds = 24 * 3600;

export interface StoredResult {
  resultId: string;
  operationId: string;
  answer: unknown;
  expiresAt: string;
}

/** Where too-large results are kept, per account. */
export interface ResultStore {
  store(accountId: number, operationId: string, answer: unknown): Promise<{ resultId: string; expiresAt: string }>;
  /** Another account's result id reads as not found (null). */
  load(accountId: number, resultId: string): Promise<StoredResult | null>;
}

export class StoredResults implements ResultStore {
  constructor(private readonly db: Queryable) {}

  async store(
    accountId: number,
    operationId: string,
    answer: unknown,
  ): Promise<{ resultId: string; expiresAt: string }> {
    const resultId = `r_${randomBytes(12).toString('base64url')}`;
    const result = await this.db.query<{ expires_at: Date }>(
      `INSERT INTO mcp_stored_results (account_id, result_id, operation_id, answer, expires_at)
       VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5)) RETURNING expires_at`,
      [accountId, resultId, operationId, JSON.stringify(answer), storedResultTtlSeconds],
    );
    if (Math.random() < 0.02) void this.purgeExpired().catch(() => undefined);
    return { resultId, expiresAt: (result.rows[0]?.expires_at ?? new Date()).toISOString() };
  }

  /** Another account's result id reads as not found. */
  async load(accountId: number, resultId: string): Promise<StoredResult | null> {
    const result = await this.db.query<{ operation_id: string; answer: unknown; expires_at: Date }>(
      `SELECT operation_id, answer, expires_at FROM mcp_stored_results
        WHERE account_id = $1 AND result_id = $2 AND expires_at > now()`,
      [accountId, resultId],
    );
    const row = result.rows[0];
    return row
      ? { resultId, operationId: row.operation_id, answer: row.answer, expiresAt: row.expires_at.toISOString() }
      : null;
  }

  /** Deletes the results past their expiry; returns how many. */
  async purgeExpired(): Promise<number> {
    return (await this.db.query('DELETE FROM mcp_stored_results WHERE expires_at < now()')).rowCount ?? 0;
  }
}

/** Retention: stored results past their 24 hours. */
export const storedResultsRetention: RetentionTask = {
  name: 'mcpResultsDeleted',
  sweep: (db) => new StoredResults(db).purgeExpired(),
};
