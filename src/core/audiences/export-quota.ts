import type pg from 'pg';
import { AppError } from '../../errors.js';
import type { Queryable } from '../../store/db.js';
import type { ExportRow } from './export-row.js';

/**
 * The monthly export quota (EXPORT_QUOTA_ROWS_PER_MONTH rows per account and calendar month,
 * UTC). The estimated rows are reserved when an export is accepted, atomically, so concurrent
 * exports cannot overrun it; trued up to the rows written when it completes, and released when
 * it fails. Over the quota: 429 `quota_exceeded`, with the rows that remain and the reset time.
 */

/** The first day (UTC) of the current month, as the quota's key. */
async function currentMonth(db: Queryable): Promise<string> {
  const result = await db.query<{ month: string }>(
    `SELECT date_trunc('month', now() AT TIME ZONE 'UTC')::date AS month`,
  );
  return (result.rows[0] as { month: string }).month;
}

export async function reserveQuota(tx: pg.PoolClient, accountId: number, rows: number, quota: number): Promise<string> {
  const month = await currentMonth(tx);
  if (rows === 0) return month;
  const reserved = await tx.query(
    `INSERT INTO export_quota_usage AS u (account_id, month, rows) SELECT $1::bigint, $2::date, $3::int WHERE $3::int <= $4::int
     ON CONFLICT (account_id, month) DO UPDATE SET rows = u.rows + EXCLUDED.rows WHERE u.rows + EXCLUDED.rows <= $4::int
     RETURNING rows`,
    [accountId, month, rows, quota],
  );
  if ((reserved.rowCount ?? 0) > 0) return month;
  const used = await tx.query<{ rows: number }>(
    'SELECT rows FROM export_quota_usage WHERE account_id = $1 AND month = $2',
    [accountId, month],
  );
  const usedRows = used.rows[0]?.rows ?? 0;
  const remaining = Math.max(0, quota - usedRows);
  const resetsAt = nextMonthStart(month);
  throw new AppError(
    'quota_exceeded',
    `This export of ${rows} rows exceeds the monthly export quota: ${usedRows} of ${quota} rows are used this month, ${remaining} remain. ` +
      `Lower maxRowsToExport to at most ${remaining}, or wait until the quota resets at ${resetsAt}.`,
    { details: { quotaRowsPerMonth: quota, usedRows, remainingRows: remaining, requestedRows: rows, resetsAt } },
  );
}

function nextMonthStart(month: string): string {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, monthNumber, 1)).toISOString();
}

export async function adjustQuota(tx: Queryable, row: ExportRow, delta: number): Promise<void> {
  if (delta === 0) return;
  await tx.query('UPDATE export_quota_usage SET rows = greatest(rows + $3, 0) WHERE account_id = $1 AND month = $2', [
    row.account_id,
    row.quota_month,
    delta,
  ]);
}
