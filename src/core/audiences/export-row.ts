import { AppError } from '../../errors.js';
import type { Queryable } from '../../store/db.js';

/** An export as the `audience_exports` table holds it, and the reads every part of exports shares. */

export type ExportKind = 'companies' | 'prospects';
export type ExportStatus = 'PENDING' | 'RUNNING' | 'READY' | 'FAILED' | 'EXPIRED';

export interface ExportRow {
  account_id: number;
  id: number;
  audience_id: number;
  kind: ExportKind;
  format: string;
  columns: string[];
  only_with_contacts: boolean;
  /** The file starts with the UTF-8 byte-order mark (the utf8Bom option), for spreadsheets. */
  utf8_bom: boolean;
  user_email: string | null;
  status: ExportStatus;
  estimated_rows: number;
  rows: number | null;
  bytes: number | null;
  storage_key: string | null;
  quota_month: string;
  enrichment_run_id: number | null;
  failure_reason: string | null;
  created_at: Date;
  completed_at: Date | null;
}

export const exportRowColumns = `account_id, id, audience_id, kind, format, columns, only_with_contacts, utf8_bom, user_email, status, estimated_rows, rows,
  bytes, storage_key, quota_month, enrichment_run_id, failure_reason, created_at, completed_at`;

export async function requireExport(
  db: Queryable,
  accountId: number,
  exportId: number | string,
  forUpdate = false,
): Promise<ExportRow> {
  const result = await db.query<ExportRow>(
    `SELECT ${exportRowColumns} FROM audience_exports WHERE account_id = $1 AND id = $2 ${forUpdate ? 'FOR UPDATE' : ''}`,
    [accountId, Number(exportId)],
  );
  const row = result.rows[0];
  if (!row) throw new AppError('not_found', `Export ${exportId} not found.`);
  return row;
}

/** Where the export's file is kept in export storage. */
export const storageKeyOf = (row: Pick<ExportRow, 'account_id' | 'id'>): string => `${row.account_id}/${row.id}.csv`;
