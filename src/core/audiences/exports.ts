import { requireMailRecipient } from '../mail-recipients.js';
import type pg from 'pg';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import { accountOf, defineJob, enqueue, type JobRun } from '../../job-queue/index.js';
import type { Database, Queryable } from '../../store/db.js';
import { requireAudience, requireBuilt, type AudienceRow } from './record.js';
import { chooseColumns, columnsOf } from './export-columns.js';
import { adjustQuota, reserveQuota } from './export-quota.js';
import {
  exportRowColumns,
  requireExport,
  storageKeyOf,
  type ExportKind,
  type ExportRow,
  type ExportStatus,
} from './export-row.js';
import { contactFilter, writeExportFile } from './export-writer.js';
import { enqueueMail } from './mail.js';
import { signedLink, type ExportLinkDeps } from './services.js';
import { emitWebhookEvent } from '../webhooks/events.js';
import type { DbConfigDeps, ServicesDeps } from '../deps.js';

/**
 * Exports: a CSV file of an audience's companies or prospects, written by a job, stored
 * under EXPORT_DIR and served from a signed, expiring link. This file holds the requests, the
 * status and the export job; the columns are in export-columns.ts, the monthly quota in
 * export-quota.ts, the file writer in export-writer.ts, the stored row in export-row.ts and
 * the deletion of old files in export-retention.ts.
 *
 * Limits. At most `maxRowsAllowed` (10,000) rows per export: `maxRowsToExport` above it is
 * refused; an audience larger than it without `maxRowsToExport` is exported up to it, and the
 * response says so. Per account, EXPORT_QUOTA_ROWS_PER_MONTH rows per calendar month (UTC):
 * like a rate limit it is about volume over time and clears by itself (at the start of next
 * month), so it is refused with 429 `quota_exceeded` and clients that back off on 429 do the
 * right thing; the details say how many rows remain.
 */

/** What exports need: the database, the configuration, the file storage and the link signer. */
export type ExportDeps = DbConfigDeps & ExportLinkDeps & ServicesDeps<'exportStorage' | 'mailDomainChecker'>;

export const maxRowsAllowed = 10_000;

/** The export job: write the file, then READY (with the quota trued up and the mail queued) in one transaction. */
export const exportJob = defineJob({
  kind: 'audience.export',
  payload: z.object({ exportId: z.number().int().positive() }),
  maxAttempts: 5,
  run: (run, context: ExportDeps) => runExport(context, run),
  exhausted: (job, error, context: ExportDeps) =>
    failExport(
      context.db,
      accountOf(job),
      job.payload.exportId,
      `the export could not be written (${error.slice(0, 200)}); its rows were returned to the quota`,
    ),
});

export interface ExportRequest {
  audienceId: string;
  kind: ExportKind;
  format: string;
  maxRowsToExport?: number | undefined;
  excludeFields?: string[] | undefined;
  onlyWithContacts?: boolean | undefined;
  /** Start the file with the UTF-8 byte-order mark, by which Excel recognises UTF-8. */
  utf8Bom?: boolean | undefined;
  userEmail?: string | undefined;
}

export interface AcceptedExport {
  exportId: string;
  message: string;
  estimatedRows: number;
  maxRowsAllowed: number;
  status: 'PENDING';
}

/** Validates, reserves quota, records the export and queues its job, in one transaction. */
export async function requestExport(
  context: ExportDeps,
  accountId: number,
  input: ExportRequest,
): Promise<AcceptedExport> {
  const columns = chooseColumns(input.kind, input.excludeFields);
  if (input.maxRowsToExport !== undefined && input.maxRowsToExport > maxRowsAllowed) {
    throw new AppError('invalid_request', `maxRowsToExport is at most ${maxRowsAllowed} (maxRowsAllowed per export).`, {
      details: { issues: [{ field: 'maxRowsToExport', message: `at most ${maxRowsAllowed}` }], maxRowsAllowed },
    });
  }
  const cap = Math.min(input.maxRowsToExport ?? maxRowsAllowed, maxRowsAllowed);
  await requireMailRecipient(context.db.pool, accountId, input.userEmail, {
    anyRecipient: context.config.MAIL_ANY_RECIPIENT,
  });
  const { row, available } = await context.db.transaction(async (tx) => {
    const audience = await requireAudience(tx, accountId, input.audienceId);
    requireBuilt(audience, `export the ${input.kind} of`);
    const available = await countRows(tx, audience, input.kind, Boolean(input.onlyWithContacts), null);
    const estimated = Math.min(available, cap);
    const month = await reserveQuota(tx, accountId, estimated, context.config.EXPORT_QUOTA_ROWS_PER_MONTH);
    const inserted = await tx.query<ExportRow>(
      `INSERT INTO audience_exports (account_id, audience_id, kind, format, columns, only_with_contacts, utf8_bom, user_email, estimated_rows, quota_month)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${exportRowColumns}`,
      [
        accountId,
        audience.id,
        input.kind,
        input.format,
        columns,
        Boolean(input.onlyWithContacts),
        Boolean(input.utf8Bom),
        input.userEmail ?? null,
        estimated,
        month,
      ],
    );
    const row = inserted.rows[0] as ExportRow;
    await enqueue(tx, exportJob, { accountId, payload: { exportId: row.id } });
    return { row, available };
  });
  const truncated = available > row.estimated_rows;
  const message =
    `Export ${row.id} of ${row.estimated_rows} ${input.kind} accepted.` +
    (truncated
      ? ` The audience has ${available} matching ${input.kind}; this export holds the first ${row.estimated_rows}.`
      : '') +
    ` Poll getExportStatus (GET /v1/audiences/${row.audience_id}/exports/${row.id}) for the download link` +
    (input.userEmail ? '; the link will also be mailed.' : '.');
  return { exportId: String(row.id), message, estimatedRows: row.estimated_rows, maxRowsAllowed, status: 'PENDING' };
}

async function countRows(
  db: Queryable,
  audience: AudienceRow,
  kind: ExportKind,
  onlyWithContacts: boolean,
  prospectCapId: number | null,
): Promise<number> {
  const result =
    kind === 'companies'
      ? await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM audience_companies ac JOIN companies c ON c.id = ac.company_id
            WHERE ac.account_id = $1 AND ac.audience_id = $2`,
          [audience.account_id, audience.id],
        )
      : await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM audience_prospects ap JOIN people p ON p.id = ap.person_id
            WHERE ap.account_id = $1 AND ap.audience_id = $2 AND ($3::bigint IS NULL OR ap.person_id <= $3::bigint) ${contactFilter(onlyWithContacts)}`,
          [audience.account_id, audience.id, prospectCapId],
        );
  return (result.rows[0] as { n: number }).n;
}

export interface ExportStatusView {
  exportId: string;
  audienceId: string;
  kind: ExportKind;
  status: ExportStatus;
  rows: number | null;
  downloadUrl: string | null;
  expiresAt: string | null;
  createdAt: string;
  completedAt: string | null;
  failureReason: string | null;
}

/**
 * The export's status; when READY, a fresh signed link valid for EXPORT_LINK_TTL_SECONDS
 * (each read issues a new one, as object stores do with presigned URLs).
 */
export async function exportStatus(
  context: ExportDeps,
  accountId: number,
  audienceId: string,
  exportId: string,
): Promise<ExportStatusView> {
  const audience = await requireAudience(context.db.pool, accountId, audienceId);
  const row = await requireExport(context.db.pool, accountId, exportId);
  if (row.audience_id !== audience.id)
    throw new AppError('not_found', `Export ${exportId} not found in audience ${audienceId}.`);
  return exportView(row, row.status === 'READY' ? signedLink(context, row) : null);
}

/** What getExportStatus answers, and what the export events carry; `link` when READY. */
export function exportView(row: ExportRow, link: { url: string; expiresAt: Date } | null): ExportStatusView {
  return {
    exportId: String(row.id),
    audienceId: String(row.audience_id),
    kind: row.kind,
    status: row.status,
    rows: row.rows,
    downloadUrl: link?.url ?? null,
    expiresAt: link?.expiresAt.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    completedAt: row.completed_at?.toISOString() ?? null,
    failureReason: row.failure_reason,
  };
}

export async function runExport(context: ExportDeps, run: JobRun<{ exportId: number }>): Promise<void> {
  const accountId = accountOf(run.job);
  const { exportId } = run.job.payload;
  const row = await requireExport(context.db.pool, accountId, exportId);
  // Done by an earlier attempt, or ended (EXPIRED) with its deleted audience.
  if (row.status !== 'PENDING' && row.status !== 'RUNNING') return;
  await context.db.pool.query(
    `UPDATE audience_exports SET status = 'RUNNING' WHERE account_id = $1 AND id = $2 AND status = 'PENDING'`,
    [accountId, exportId],
  );
  const written = await writeExportFile(context, row, null, run.checkpoint, () =>
    run.pause(context.config.JOB_STEP_DELAY_MS),
  );
  run.checkpoint();
  await finishExport(context, row, written);
  await run.progress({ rows: written.rows, bytes: written.bytes });
}

export async function finishExport(
  context: ExportDeps,
  row: ExportRow,
  written: { rows: number; bytes: number },
): Promise<void> {
  await context.db.transaction((tx) => markExportReady(context, tx, row, written));
  // Its audience was deleted while the file was being written: the file must not outlive it.
  const current = await requireExport(context.db.pool, row.account_id, row.id);
  if (current.status === 'EXPIRED') await context.services.exportStorage.remove(storageKeyOf(row));
}

/**
 * READY, quota trued up to the rows written, the export.ready webhook event and (for a standalone
 * export with userEmail) the link mail queued, in the caller's transaction. Returns whether a mail
 * was queued.
 */
export async function markExportReady(
  context: ExportDeps,
  tx: pg.PoolClient,
  row: ExportRow,
  written: { rows: number; bytes: number },
): Promise<boolean> {
  const current = await requireExport(tx, row.account_id, row.id, true);
  if (current.status !== 'PENDING' && current.status !== 'RUNNING') return false;
  const ready = await tx.query<ExportRow>(
    `UPDATE audience_exports SET status = 'READY', rows = $3, bytes = $4, storage_key = $5, completed_at = now() WHERE account_id = $1 AND id = $2
     RETURNING ${exportRowColumns}`,
    [row.account_id, row.id, written.rows, written.bytes, storageKeyOf(row)],
  );
  await adjustQuota(tx, current, written.rows - current.estimated_rows);
  const readyRow = ready.rows[0] as ExportRow;
  await emitWebhookEvent(tx, row.account_id, 'export.ready', exportView(readyRow, signedLink(context, readyRow)));
  if (!current.user_email || current.enrichment_run_id !== null) return false;
  const audience = await requireAudience(tx, row.account_id, row.audience_id);
  await enqueueMail(tx, row.account_id, {
    to: current.user_email,
    // Caller text (the audience's name) stays out of the subject, which mail clients show unasked.
    subject: `Your export ${row.id} of ${written.rows} ${row.kind} is ready`,
    template: {
      kind: 'export-ready',
      exportId: row.id,
      audienceName: audience.name,
      rows: written.rows,
      exportKind: row.kind,
    },
  });
  return true;
}

/** Gives up on an export: FAILED and its quota reservation released. */
export async function failExport(db: Database, accountId: number, exportId: number, reason: string): Promise<void> {
  await db.transaction((tx) => failExportIn(tx, accountId, exportId, reason));
}

/** As failExport, in the caller's transaction. No effect on an export that is READY or FAILED. */
export async function failExportIn(
  tx: pg.PoolClient,
  accountId: number,
  exportId: number,
  reason: string,
): Promise<void> {
  const row = await requireExport(tx, accountId, exportId, true);
  if (row.status !== 'PENDING' && row.status !== 'RUNNING') return;
  const failed = await tx.query<ExportRow>(
    `UPDATE audience_exports SET status = 'FAILED', failure_reason = $3, completed_at = now() WHERE account_id = $1 AND id = $2
     RETURNING ${exportRowColumns}`,
    [accountId, exportId, reason],
  );
  await adjustQuota(tx, row, -row.estimated_rows);
  await emitWebhookEvent(tx, accountId, 'export.failed', exportView(failed.rows[0] as ExportRow, null));
}

/**
 * The enrichment run's own export ("Exporting CSV" step): the enriched prospects, all
 * columns, counted against the quota like any export. When the quota cannot hold it, no file
 * is made and the step says so; the enrichment itself does not fail for it.
 */
export async function createRunExport(
  context: ExportDeps,
  tx: pg.PoolClient,
  audience: AudienceRow,
  runId: number,
  prospectCapId: number | null,
): Promise<{ row: ExportRow | null; note: string | null }> {
  const available = await countRows(tx, audience, 'prospects', false, prospectCapId);
  const estimated = Math.min(available, maxRowsAllowed);
  try {
    await tx.query('SAVEPOINT run_export_quota');
    const month = await reserveQuota(tx, audience.account_id, estimated, context.config.EXPORT_QUOTA_ROWS_PER_MONTH);
    await tx.query('RELEASE SAVEPOINT run_export_quota');
    const inserted = await tx.query<ExportRow>(
      `INSERT INTO audience_exports (account_id, audience_id, kind, format, columns, estimated_rows, quota_month, enrichment_run_id, status)
       VALUES ($1, $2, 'prospects', 'PROSPECT_GENERIC_CSV', $3, $4, $5, $6, 'RUNNING') RETURNING ${exportRowColumns}`,
      [audience.account_id, audience.id, columnsOf('prospects'), estimated, month, runId],
    );
    return {
      row: inserted.rows[0] as ExportRow,
      note:
        available > estimated
          ? `the export holds the first ${estimated} of ${available} enriched prospects (maxRowsAllowed)`
          : null,
    };
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'quota_exceeded') throw error;
    await tx.query('ROLLBACK TO SAVEPOINT run_export_quota');
    return { row: null, note: `no CSV was made: ${error.message}` };
  }
}
