import type pg from 'pg';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { enqueueJob, type JobRow } from '../../jobs/queue.js';
import type { JobRun } from '../../jobs/worker.js';
import type { ExportStorage } from '../../providers/export-storage.js';
import type { Database, Queryable } from '../../store/db.js';
import { companyUrlOf, profileUrlOf } from '../network-urls.js';
import type { CompanyRow } from '../search/records.js';
import { requireAudience, requireBuilt, type AudienceRow } from './audiences.js';
import { csvRecord, listSeparator } from './csv.js';
import { enqueueMail } from './mail.js';
import { exportStorageOf, signedLink, wakeWorker } from './services.js';

/**
 * Exports: a CSV file of an audience's companies or prospects, written by a job, stored
 * under EXPORT_DIR and served from a signed, expiring link.
 *
 * Limits. At most `maxRowsAllowed` (10,000) rows per export: `maxRowsToExport` above it is
 * refused; an audience larger than it without `maxRowsToExport` is exported up to it, and the
 * response says so. Per account, EXPORT_QUOTA_ROWS_PER_MONTH rows per calendar month (UTC):
 * the estimated rows are reserved when the export is accepted (atomically, so concurrent
 * exports cannot overrun it), trued up to the rows written when it completes, and released
 * when it fails. Over the quota the request is refused with 429 `quota_exceeded`: like a rate
 * limit it is about volume over time and clears by itself (at the start of next month), so
 * clients that back off on 429 do the right thing; the details say how many rows remain.
 */

export const maxRowsAllowed = 10_000;
export const exportJobKind = 'audience.export';

export type ExportKind = 'companies' | 'prospects';
export type ExportStatus = 'PENDING' | 'RUNNING' | 'READY' | 'FAILED' | 'EXPIRED';

interface Column<Row> {
  name: string;
  value: (row: Row) => string;
}

const text = (value: string | number | null | undefined): string => (value === null || value === undefined ? '' : String(value));
const list = (values: readonly string[] | null | undefined): string => (values ?? []).join(listSeparator);

/** A company as the export reads it: the search record's row. */
export type CompanyExportRow = CompanyRow;

/** Columns of COMPANY_GENERIC_CSV, in order; lists are joined with "; ". */
export const companyColumns: readonly Column<CompanyExportRow>[] = [
  { name: 'company_id', value: (r) => text(r.id) },
  { name: 'name', value: (r) => r.preferred_name },
  { name: 'domain', value: (r) => text(r.domains[0]) },
  { name: 'domains', value: (r) => list(r.domains) },
  { name: 'network_slug', value: (r) => text(r.network_primary_slug) },
  { name: 'network_url', value: (r) => text(companyUrlOf(r.network_primary_slug)) },
  { name: 'network_org_id', value: (r) => text(r.network_org_id) },
  { name: 'industries', value: (r) => list(r.standard_industries) },
  { name: 'employee_count_min', value: (r) => text(r.employee_count_min) },
  { name: 'employee_count_max', value: (r) => text(r.employee_count_max) },
  { name: 'city', value: (r) => text(r.city) },
  { name: 'state', value: (r) => text(r.state_name) },
  { name: 'country_code', value: (r) => text(r.country_code) },
  { name: 'total_funding_usd', value: (r) => text(r.total_funding_usd) },
  { name: 'last_funding_usd', value: (r) => text(r.last_funding_usd) },
  { name: 'last_funded_on', value: (r) => text(r.last_funded_on) },
  { name: 'founded_on', value: (r) => text(r.founded_on) },
  { name: 'stage', value: (r) => text(r.stage) },
  { name: 'special_flags', value: (r) => list(r.special_flags) },
  { name: 'description', value: (r) => r.description },
];

export interface ProspectExportRow {
  id: number;
  first_name: string;
  last_name: string;
  clean_first_name: string | null;
  clean_last_name: string | null;
  title: string;
  headline: string;
  city: string | null;
  country_code: string | null;
  country3: string | null;
  company_name: string | null;
  company_domain: string | null;
  company_slug: string | null;
  network_slug: string | null;
  years_experience: number | null;
  tags: string[];
  languages: Array<{ name: string; proficiency_name: string }>;
  work_emails: string[];
  personal_emails: string[];
  phone_numbers: string[];
  sales_tool_urn: string | null;
  live_enriched_at: Date | null;
}

/** Columns of PROSPECT_GENERIC_CSV, in order. Names are the cleaned names once an enrichment has run. */
export const prospectColumns: readonly Column<ProspectExportRow>[] = [
  { name: 'prospect_id', value: (r) => text(r.id) },
  { name: 'first_name', value: (r) => r.clean_first_name ?? r.first_name },
  { name: 'last_name', value: (r) => r.clean_last_name ?? r.last_name },
  { name: 'full_name', value: (r) => `${r.clean_first_name ?? r.first_name} ${r.clean_last_name ?? r.last_name}`.trim() },
  { name: 'title', value: (r) => r.title },
  { name: 'headline', value: (r) => r.headline },
  { name: 'city', value: (r) => text(r.city) },
  { name: 'country_code', value: (r) => text(r.country_code) },
  { name: 'country3', value: (r) => text(r.country3) },
  { name: 'company_name', value: (r) => text(r.company_name) },
  { name: 'company_domain', value: (r) => text(r.company_domain) },
  { name: 'company_network_slug', value: (r) => text(r.company_slug) },
  { name: 'profile_url', value: (r) => text(profileUrlOf(r.network_slug)) },
  { name: 'network_slug', value: (r) => text(r.network_slug) },
  { name: 'years_of_experience', value: (r) => text(r.years_experience) },
  { name: 'tags', value: (r) => list(r.tags) },
  { name: 'languages', value: (r) => list(r.languages.map((l) => l.name)) },
  { name: 'work_email', value: (r) => text(r.work_emails[0]) },
  { name: 'personal_email', value: (r) => text(r.personal_emails[0]) },
  { name: 'phone_number', value: (r) => text(r.phone_numbers[0]) },
  { name: 'all_work_emails', value: (r) => list(r.work_emails) },
  { name: 'all_personal_emails', value: (r) => list(r.personal_emails) },
  { name: 'all_phone_numbers', value: (r) => list(r.phone_numbers) },
  { name: 'sales_tool_urn', value: (r) => text(r.sales_tool_urn) },
  { name: 'live_enriched_at', value: (r) => (r.live_enriched_at ? r.live_enriched_at.toISOString() : '') },
];

export const columnsOf = (kind: ExportKind): readonly string[] => (kind === 'companies' ? companyColumns : prospectColumns).map((c) => c.name);

export interface ExportRequest {
  audienceId: string;
  kind: ExportKind;
  format: string;
  maxRowsToExport?: number | undefined;
  excludeFields?: string[] | undefined;
  onlyWithContacts?: boolean | undefined;
  userEmail?: string | undefined;
}

export interface ExportRow {
  account_id: number;
  id: number;
  audience_id: number;
  kind: ExportKind;
  format: string;
  columns: string[];
  only_with_contacts: boolean;
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

const exportColumns = `account_id, id, audience_id, kind, format, columns, only_with_contacts, user_email, status, estimated_rows, rows,
  bytes, storage_key, quota_month, enrichment_run_id, failure_reason, created_at, completed_at`;

export interface AcceptedExport {
  exportId: string;
  message: string;
  estimatedRows: number;
  maxRowsAllowed: number;
  status: 'PENDING';
}

/** Validates, reserves quota, records the export and queues its job, in one transaction. */
export async function requestExport(context: AppContext, accountId: number, input: ExportRequest): Promise<AcceptedExport> {
  const columns = chooseColumns(input.kind, input.excludeFields);
  if (input.maxRowsToExport !== undefined && input.maxRowsToExport > maxRowsAllowed) {
    throw new AppError('invalid_request', `maxRowsToExport is at most ${maxRowsAllowed} (maxRowsAllowed per export).`, {
      details: { issues: [{ field: 'maxRowsToExport', message: `at most ${maxRowsAllowed}` }], maxRowsAllowed },
    });
  }
  const cap = Math.min(input.maxRowsToExport ?? maxRowsAllowed, maxRowsAllowed);
  const { row, available } = await context.db.transaction(async (tx) => {
    const audience = await requireAudience(tx, accountId, input.audienceId);
    requireBuilt(audience, `export the ${input.kind} of`);
    const available = await countRows(tx, audience, input.kind, Boolean(input.onlyWithContacts), null);
    const estimated = Math.min(available, cap);
    const month = await reserveQuota(tx, accountId, estimated, context.config.EXPORT_QUOTA_ROWS_PER_MONTH);
    const inserted = await tx.query<ExportRow>(
      `INSERT INTO audience_exports (account_id, audience_id, kind, format, columns, only_with_contacts, user_email, estimated_rows, quota_month)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${exportColumns}`,
      [accountId, audience.id, input.kind, input.format, columns, Boolean(input.onlyWithContacts), input.userEmail ?? null, estimated, month],
    );
    const row = inserted.rows[0] as ExportRow;
    await enqueueJob(tx, { kind: exportJobKind, accountId, payload: { exportId: row.id }, maxAttempts: 5 });
    return { row, available };
  });
  wakeWorker(context);
  const truncated = available > row.estimated_rows;
  const message =
    `Export ${row.id} of ${row.estimated_rows} ${input.kind} accepted.` +
    (truncated ? ` The audience has ${available} matching ${input.kind}; this export holds the first ${row.estimated_rows}.` : '') +
    ` Poll getExportStatus (GET /v1/audiences/${row.audience_id}/exports/${row.id}) for the download link` +
    (input.userEmail ? '; the link will also be mailed.' : '.');
  return { exportId: String(row.id), message, estimatedRows: row.estimated_rows, maxRowsAllowed, status: 'PENDING' };
}

function chooseColumns(kind: ExportKind, excludeFields: readonly string[] | undefined): string[] {
  const all = columnsOf(kind);
  const excluded = new Set<string>();
  const issues: Array<{ field: string; message: string }> = [];
  (excludeFields ?? []).forEach((field, index) => {
    if (all.includes(field)) excluded.add(field);
    else issues.push({ field: `excludeFields.${index}`, message: `unknown column "${field}"` });
  });
  if (issues.length) {
    throw new AppError('invalid_request', `excludeFields names columns that the ${kind} CSV does not have. Its columns: ${all.join(', ')}.`, {
      details: { issues, columns: all },
    });
  }
  const columns = all.filter((c) => !excluded.has(c));
  if (columns.length === 0) {
    throw new AppError('invalid_request', 'excludeFields removes every column; keep at least one.', {
      details: { issues: [{ field: 'excludeFields', message: 'removes every column' }] },
    });
  }
  return columns;
}

function contactFilter(onlyWithContacts: boolean): string {
  return onlyWithContacts ? 'AND (cardinality(ap.work_emails) > 0 OR cardinality(ap.personal_emails) > 0 OR cardinality(ap.phone_numbers) > 0)' : '';
}

async function countRows(db: Queryable, audience: AudienceRow, kind: ExportKind, onlyWithContacts: boolean, prospectCapId: number | null): Promise<number> {
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

/** The first day (UTC) of the current month, as the quota's key. */
async function currentMonth(db: Queryable): Promise<string> {
  const result = await db.query<{ month: string }>(`SELECT date_trunc('month', now() AT TIME ZONE 'UTC')::date AS month`);
  return (result.rows[0] as { month: string }).month;
}

async function reserveQuota(tx: pg.PoolClient, accountId: number, rows: number, quota: number): Promise<string> {
  const month = await currentMonth(tx);
  if (rows === 0) return month;
  const reserved = await tx.query(
    `INSERT INTO export_quota_usage AS u (account_id, month, rows) SELECT $1::bigint, $2::date, $3::int WHERE $3::int <= $4::int
     ON CONFLICT (account_id, month) DO UPDATE SET rows = u.rows + EXCLUDED.rows WHERE u.rows + EXCLUDED.rows <= $4::int
     RETURNING rows`,
    [accountId, month, rows, quota],
  );
  if ((reserved.rowCount ?? 0) > 0) return month;
  const used = await tx.query<{ rows: number }>('SELECT rows FROM export_quota_usage WHERE account_id = $1 AND month = $2', [accountId, month]);
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

async function adjustQuota(tx: Queryable, row: ExportRow, delta: number): Promise<void> {
  if (delta === 0) return;
  await tx.query('UPDATE export_quota_usage SET rows = greatest(rows + $3, 0) WHERE account_id = $1 AND month = $2', [
    row.account_id,
    row.quota_month,
    delta,
  ]);
}

export async function requireExport(db: Queryable, accountId: number, exportId: number | string, forUpdate = false): Promise<ExportRow> {
  const result = await db.query<ExportRow>(
    `SELECT ${exportColumns} FROM audience_exports WHERE account_id = $1 AND id = $2 ${forUpdate ? 'FOR UPDATE' : ''}`,
    [accountId, Number(exportId)],
  );
  const row = result.rows[0];
  if (!row) throw new AppError('not_found', `Export ${exportId} not found.`);
  return row;
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
export async function exportStatus(context: AppContext, accountId: number, audienceId: string, exportId: string): Promise<ExportStatusView> {
  const audience = await requireAudience(context.db.pool, accountId, audienceId);
  const row = await requireExport(context.db.pool, accountId, exportId);
  if (row.audience_id !== audience.id) throw new AppError('not_found', `Export ${exportId} not found in audience ${audienceId}.`);
  const link = row.status === 'READY' ? await signedLink(context, row) : null;
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

export const storageKeyOf = (row: Pick<ExportRow, 'account_id' | 'id'>): string => `${row.account_id}/${row.id}.csv`;

/** The export job: write the file, then READY (with the quota trued up and the mail queued) in one transaction. */
export async function runExport(context: AppContext, run: JobRun): Promise<void> {
  const accountId = run.job.account_id;
  const exportId = Number(run.job.payload.exportId);
  if (accountId === null || !Number.isSafeInteger(exportId)) throw new Error(`malformed export job ${run.job.id}`);
  const row = await requireExport(context.db.pool, accountId, exportId);
  if (row.status === 'READY' || row.status === 'FAILED') return;
  await context.db.pool.query(`UPDATE audience_exports SET status = 'RUNNING' WHERE account_id = $1 AND id = $2 AND status = 'PENDING'`, [accountId, exportId]);
  const written = await writeExportFile(context.db, exportStorageOf(context), row, null, run.checkpoint);
  run.checkpoint();
  await finishExport(context, row, written);
  await run.progress({ rows: written.rows, bytes: written.bytes });
}

export async function finishExport(context: AppContext, row: ExportRow, written: { rows: number; bytes: number }): Promise<void> {
  const queuedMail = await context.db.transaction((tx) => markExportReady(tx, row, written));
  if (queuedMail) wakeWorker(context);
}

/**
 * READY, quota trued up to the rows written, and (for a standalone export with userEmail) the
 * link mail queued, in the caller's transaction. Returns whether a mail was queued.
 */
export async function markExportReady(tx: pg.PoolClient, row: ExportRow, written: { rows: number; bytes: number }): Promise<boolean> {
  const current = await requireExport(tx, row.account_id, row.id, true);
  if (current.status === 'READY' || current.status === 'FAILED') return false;
  await tx.query(
    `UPDATE audience_exports SET status = 'READY', rows = $3, bytes = $4, storage_key = $5, completed_at = now() WHERE account_id = $1 AND id = $2`,
    [row.account_id, row.id, written.rows, written.bytes, storageKeyOf(row)],
  );
  await adjustQuota(tx, current, written.rows - current.estimated_rows);
  if (!current.user_email || current.enrichment_run_id !== null) return false;
  const audience = await requireAudience(tx, row.account_id, row.audience_id);
  await enqueueMail(tx, row.account_id, {
    to: current.user_email,
    subject: `Your export of ${written.rows} ${row.kind} from "${audience.name}" is ready`,
    template: { kind: 'export-ready', exportId: row.id, audienceName: audience.name, rows: written.rows, exportKind: row.kind },
  });
  return true;
}

/** Gives up on an export: FAILED and its quota reservation released. */
export async function failExport(db: Database, accountId: number, exportId: number, reason: string): Promise<void> {
  await db.transaction((tx) => failExportIn(tx, accountId, exportId, reason));
}

/** As failExport, in the caller's transaction. No effect on an export that is READY or FAILED. */
export async function failExportIn(tx: pg.PoolClient, accountId: number, exportId: number, reason: string): Promise<void> {
  const row = await requireExport(tx, accountId, exportId, true);
  if (row.status === 'READY' || row.status === 'FAILED') return;
  await tx.query(`UPDATE audience_exports SET status = 'FAILED', failure_reason = $3, completed_at = now() WHERE account_id = $1 AND id = $2`, [
    accountId,
    exportId,
    reason,
  ]);
  await adjustQuota(tx, row, -row.estimated_rows);
}

export function exportJobExhausted(db: Database) {
  return async (job: JobRow, error: string): Promise<void> => {
    if (job.account_id === null) return;
    await failExport(db, job.account_id, Number(job.payload.exportId), `the export could not be written (${error.slice(0, 200)}); its rows were returned to the quota`);
  };
}

const pageRows = 1000;

/**
 * Streams the CSV into storage page by page (keyset on catalog id), never more rows than were
 * reserved. `prospectCapId` limits a prospects export to an enrichment run's prospects.
 */
export async function writeExportFile(
  db: Database,
  storage: ExportStorage,
  row: ExportRow,
  prospectCapId: number | null,
  checkpoint: () => void,
): Promise<{ rows: number; bytes: number }> {
  let rows = 0;
  const limit = row.estimated_rows;
  async function* chunks(): AsyncGenerator<string> {
    yield csvRecord(row.columns);
    let after = 0;
    while (rows < limit) {
      checkpoint();
      const take = Math.min(pageRows, limit - rows);
      const page = row.kind === 'companies' ? await companyPage(db, row, after, take) : await prospectPage(db, row, after, take, prospectCapId);
      if (page.records.length === 0) break;
      rows += page.records.length;
      after = page.lastId;
      yield page.records.join('');
      if (page.records.length < take) break;
    }
  }
  const { bytes } = await storage.write(storageKeyOf(row), chunks());
  return { rows, bytes };
}

async function companyPage(db: Database, row: ExportRow, after: number, take: number): Promise<{ records: string[]; lastId: number }> {
  const result = await db.pool.query<CompanyExportRow>(
    `SELECT c.id, c.preferred_name, c.description, c.domains, c.network_primary_slug, c.network_org_id, c.standard_industries,
            c.employee_count_min, c.employee_count_max, c.city, c.state_name, c.country_code, c.total_funding_usd, c.last_funding_usd,
            c.last_funded_on, c.founded_on, c.stage, c.special_flags
       FROM audience_companies ac JOIN companies c ON c.id = ac.company_id
      WHERE ac.account_id = $1 AND ac.audience_id = $2 AND ac.company_id > $3
      ORDER BY ac.company_id LIMIT $4`,
    [row.account_id, row.audience_id, after, take],
  );
  const columns = companyColumns.filter((c) => row.columns.includes(c.name));
  return { records: result.rows.map((r) => csvRecord(columns.map((c) => c.value(r)))), lastId: result.rows.at(-1)?.id ?? after };
}

async function prospectPage(
  db: Database,
  row: ExportRow,
  after: number,
  take: number,
  prospectCapId: number | null,
): Promise<{ records: string[]; lastId: number }> {
  const result = await db.pool.query<ProspectExportRow>(
    `SELECT p.id, p.first_name, p.last_name, ap.clean_first_name, ap.clean_last_name, p.title, p.headline, p.city, p.country_code, p.country3,
            p.company_name, p.company_domain, p.company_slug, p.network_slug, p.years_experience, p.tags, p.languages,
            ap.work_emails, ap.personal_emails, ap.phone_numbers, ap.sales_tool_urn, ap.live_enriched_at
       FROM audience_prospects ap JOIN people p ON p.id = ap.person_id
      WHERE ap.account_id = $1 AND ap.audience_id = $2 AND ap.person_id > $3 AND ($5::bigint IS NULL OR ap.person_id <= $5::bigint)
            ${contactFilter(row.only_with_contacts)}
      ORDER BY ap.person_id LIMIT $4`,
    [row.account_id, row.audience_id, after, take, prospectCapId],
  );
  const columns = prospectColumns.filter((c) => row.columns.includes(c.name));
  return { records: result.rows.map((r) => csvRecord(columns.map((c) => c.value(r)))), lastId: result.rows.at(-1)?.id ?? after };
}

/**
 * The enrichment run's own export ("Exporting CSV" step): the enriched prospects, all
 * columns, counted against the quota like any export. When the quota cannot hold it, no file
 * is made and the step says so; the enrichment itself does not fail for it.
 */
export async function createRunExport(
  context: AppContext,
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
       VALUES ($1, $2, 'prospects', 'PROSPECT_GENERIC_CSV', $3, $4, $5, $6, 'RUNNING') RETURNING ${exportColumns}`,
      [audience.account_id, audience.id, columnsOf('prospects'), estimated, month, runId],
    );
    return {
      row: inserted.rows[0] as ExportRow,
      note: available > estimated ? `the export holds the first ${estimated} of ${available} enriched prospects (maxRowsAllowed)` : null,
    };
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'quota_exceeded') throw error;
    await tx.query('ROLLBACK TO SAVEPOINT run_export_quota');
    return { row: null, note: `no CSV was made: ${error.message}` };
  }
}
