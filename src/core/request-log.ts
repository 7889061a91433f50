import type { RetentionTask } from '../job-queue/index.js';
import { redactUrl, scrubText } from '../log.js';
import type { Queryable } from '../store/db.js';
import type { CursorCodec } from './search/cursor.js';

/**
 * The account's request log: one row per operation run, on any surface (REST, /mcp, /mcp/v2,
 * /mcp/v3), with the key or the connected assistant it ran for, its outcome and the credits it
 * charged, kept 30 days, so that a person can see what their keys and assistants did and find a
 * request id from an error message. It holds nothing secret or personal: no query strings, no
 * bodies, no key (only the key's id), no token (only the OAuth client's id).
 */

export type Surface = 'rest' | 'mcp' | 'mcp/v2' | 'mcp/v3';

export interface RequestRecord {
  accountId: number;
  requestId: string;
  surface: Surface;
  operationId: string;
  /** The path as it arrived; stored without its query, with anything key-shaped or personal taken out. */
  path: string | null;
  status: number;
  errorCode: string | null;
  credits: number;
  apiKeyId: number | null;
  /** The OAuth client (connected assistant) of /mcp/v3. */
  clientId: string | null;
  durationMs: number | null;
}

export const requestLogRetentionDays = 30;

const keyShaped = /pds_[A-Za-z0-9_-]{6,}/g;

/** A path fit for the log: no query or fragment, no key-shaped segment, no email or phone number. */
export function loggablePath(url: string): string {
  const path = redactUrl(url).split(/[?#]/)[0] ?? '';
  return scrubText(path.replace(keyShaped, '[redacted]')).slice(0, 300);
}

/**
 * Records one run, and marks its key used (to the minute: a busy key does not rewrite its row
 * on every call). One statement.
 */
export async function recordRequest(db: Queryable, record: RequestRecord): Promise<void> {
  await db.query(
    `WITH logged AS (
       INSERT INTO request_log (account_id, request_id, surface, operation_id, path, status, error_code, credits,
                                api_key_id, client_id, duration_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     )
     UPDATE api_keys SET last_used_at = now()
      WHERE $9::bigint IS NOT NULL AND account_id = $1 AND id = $9::bigint
        AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
    [
      record.accountId,
      record.requestId.slice(0, 100),
      record.surface,
      record.operationId,
      record.path === null ? null : loggablePath(record.path),
      record.status,
      record.errorCode,
      record.credits,
      record.apiKeyId,
      record.clientId,
      record.durationMs,
    ],
  );
}

export interface RequestFilter {
  requestId?: string | null;
  operationId?: string | null;
  apiKeyId?: number | null;
  clientId?: string | null;
  outcome?: 'ok' | 'error' | null;
  /** An HTTP status (404), or a class of them (4 for 4xx). */
  status?: number | null;
  statusClass?: number | null;
  /** From this time, included, to this one, excluded. */
  from?: Date | null;
  to?: Date | null;
}

export interface RequestRow {
  id: number;
  at: string;
  requestId: string;
  surface: Surface;
  operationId: string;
  path: string | null;
  status: number;
  errorCode: string | null;
  credits: number;
  apiKeyId: number | null;
  keyName: string | null;
  keyPrefix: string | null;
  clientId: string | null;
  clientName: string | null;
  durationMs: number | null;
}

/** One page of the account's log, newest first, after the row `before` (keyset paging). */
export async function listRequests(
  db: Queryable,
  accountId: number,
  filter: RequestFilter,
  page: { before?: number | null; limit: number },
): Promise<{ rows: RequestRow[]; nextBefore: number | null }> {
  const result = await db.query<{
    id: number;
    at: Date;
    request_id: string;
    surface: Surface;
    operation_id: string;
    path: string | null;
    status: number;
    error_code: string | null;
    credits: number;
    api_key_id: number | null;
    key_name: string | null;
    key_prefix: string | null;
    client_id: string | null;
    client_name: string | null;
    duration_ms: number | null;
  }>(
    `SELECT r.id, r.at, r.request_id, r.surface, r.operation_id, r.path, r.status, r.error_code, r.credits, r.api_key_id,
            k.label AS key_name, k.key_prefix, r.client_id, c.payload->>'client_name' AS client_name, r.duration_ms
       FROM request_log r
       LEFT JOIN api_keys k ON k.account_id = r.account_id AND k.id = r.api_key_id
       LEFT JOIN oauth_models c ON c.kind = 'Client' AND c.id = r.client_id
      WHERE r.account_id = $1 AND r.at > now() - make_interval(days => $2)
        AND ($3::bigint IS NULL OR r.id < $3)
        AND ($4::text IS NULL OR r.request_id = $4)
        AND ($5::text IS NULL OR r.operation_id = $5)
        AND ($6::bigint IS NULL OR r.api_key_id = $6)
        AND ($7::text IS NULL OR r.client_id = $7)
        AND ($8::text IS NULL OR ($8 = 'ok') = (r.status < 400))
        AND ($10::integer IS NULL OR r.status = $10)
        AND ($11::integer IS NULL OR r.status / 100 = $11)
        AND ($12::timestamptz IS NULL OR r.at >= $12)
        AND ($13::timestamptz IS NULL OR r.at < $13)
      ORDER BY r.id DESC LIMIT $9`,
    [
      accountId,
      requestLogRetentionDays,
      page.before ?? null,
      filter.requestId || null,
      filter.operationId || null,
      filter.apiKeyId ?? null,
      filter.clientId || null,
      filter.outcome ?? null,
      page.limit + 1,
      filter.status ?? null,
      filter.statusClass ?? null,
      filter.from?.toISOString() ?? null,
      filter.to?.toISOString() ?? null,
    ],
  );
  const rows = result.rows.slice(0, page.limit).map((r) => ({
    id: Number(r.id),
    at: r.at.toISOString(),
    requestId: r.request_id,
    surface: r.surface,
    operationId: r.operation_id,
    path: r.path,
    status: r.status,
    errorCode: r.error_code,
    credits: Number(r.credits),
    apiKeyId: r.api_key_id === null ? null : Number(r.api_key_id),
    keyName: r.key_name,
    keyPrefix: r.key_prefix,
    clientId: r.client_id,
    clientName: r.client_name,
    durationMs: r.duration_ms,
  }));
  const last = rows.at(-1);
  return { rows, nextBefore: result.rows.length > page.limit && last ? last.id : null };
}

/** Rows older than 30 days are deleted by the retention sweep. */
export const requestLogRetention: RetentionTask = {
  name: 'requestLogRowsDeleted',
  sweep: async (db) => {
    const deleted = await db.query(`DELETE FROM request_log WHERE at < now() - make_interval(days => $1)`, [
      requestLogRetentionDays,
    ]);
    return deleted.rowCount ?? 0;
  },
};

export interface RequestLogQuery {
  operationId?: string | undefined;
  /** 404, or a class: 4xx. */
  status?: string | undefined;
  keyId?: string | undefined;
  requestId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  pageSize: number;
  cursor?: string | null | undefined;
}

/** A page of the log for the API: keyset paging under a signed cursor bound to the filters. */
export async function requestLogPage(db: Queryable, cursors: CursorCodec, accountId: number, query: RequestLogQuery) {
  const { pageSize, cursor, ...filters } = query;
  const pages = cursors.scope(accountId, 'listRequestLog', { accountId, ...filters });
  const before = pages.decode(cursor);
  const status = query.status ?? null;
  const { rows, nextBefore } = await listRequests(
    db,
    accountId,
    {
      operationId: query.operationId ?? null,
      requestId: query.requestId ?? null,
      apiKeyId: query.keyId === undefined ? null : Number(query.keyId),
      status: status !== null && !status.endsWith('xx') ? Number(status) : null,
      statusClass: status?.endsWith('xx') ? Number(status[0]) : null,
      from: query.from === undefined ? null : new Date(query.from),
      to: query.to === undefined ? null : new Date(query.to),
    },
    { before: before || null, limit: pageSize },
  );
  return {
    data: rows.map((r) => ({
      at: r.at,
      requestId: r.requestId,
      operationId: r.operationId,
      status: r.status,
      errorCode: r.errorCode,
      credits: r.credits,
      surface: r.surface,
      durationMs: r.durationMs,
      key: r.apiKeyId === null ? null : { keyId: String(r.apiKeyId), name: r.keyName, prefix: r.keyPrefix },
      assistant: r.clientId === null ? null : { clientId: r.clientId, name: r.clientName },
    })),
    nextCursor: nextBefore === null ? null : pages.encode(nextBefore),
  };
}
