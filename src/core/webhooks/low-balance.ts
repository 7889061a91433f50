import type { Queryable } from '../../store/db.js';

/**
 * The account's threshold for the credits.low webhook event, kept beside the balance so that the
 * trigger on credit_balances (migration 120) reads both from the row it updates: a charge that
 * does not cross it pays nothing for the check.
 */
export async function setLowBalanceThreshold(
  db: Queryable,
  accountId: number,
  threshold: number | null,
): Promise<{ lowBalanceThreshold: number | null; balance: number; belowThreshold: boolean }> {
  const result = await db.query<{ balance: number }>(
    `INSERT INTO credit_balances (account_id, balance, low_balance_threshold) VALUES ($1, 0, $2)
     ON CONFLICT (account_id) DO UPDATE SET low_balance_threshold = EXCLUDED.low_balance_threshold
     RETURNING balance`,
    [accountId, threshold],
  );
  const balance = (result.rows[0] as { balance: number }).balance;
  return { lowBalanceThreshold: threshold, balance, belowThreshold: threshold !== null && balance < threshold };
}

export async function lowBalanceThreshold(db: Queryable, accountId: number): Promise<number | null> {
  const result = await db.query<{ low_balance_threshold: number | null }>(
    'SELECT low_balance_threshold FROM credit_balances WHERE account_id = $1',
    [accountId],
  );
  return result.rows[0]?.low_balance_threshold ?? null;
}

/** The balance and the threshold in one read (getCreditBalance). */
export async function balanceAndThreshold(
  db: Queryable,
  accountId: number,
): Promise<{ balance: number; lowBalanceThreshold: number | null }> {
  const result = await db.query<{ balance: number; low_balance_threshold: number | null }>(
    'SELECT balance, low_balance_threshold FROM credit_balances WHERE account_id = $1',
    [accountId],
  );
  const row = result.rows[0];
  return { balance: row?.balance ?? 0, lowBalanceThreshold: row?.low_balance_threshold ?? null };
}
