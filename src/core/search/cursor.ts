import { createHash } from 'node:crypto';
import { AppError } from '../../errors.js';

/**
 * Opaque keyset cursors. A cursor carries the last id returned and a fingerprint of the
 * query it belongs to, so a cursor replayed with other filters is refused instead of
 * silently skipping or repeating records.
 */
interface CursorPayload {
  v: 1;
  /** Last id of the previous page. */
  k: number;
  /** Fingerprint of the query. */
  f: string;
}

export function queryFingerprint(scope: string, query: unknown): string {
  return createHash('sha256').update(scope).update('\0').update(canonicalJson(query)).digest('base64url').slice(0, 22);
}

export function encodeCursor(lastId: number, fingerprint: string): string {
  const payload: CursorPayload = { v: 1, k: lastId, f: fingerprint };
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

/** The id to continue after (0 for the first page). */
export function decodeCursor(cursor: string | null | undefined, fingerprint: string): number {
  if (cursor === null || cursor === undefined) return 0;
  let payload: Partial<CursorPayload>;
  try {
    payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorPayload>;
  } catch {
    throw invalidCursor();
  }
  if (payload?.v !== 1 || !Number.isSafeInteger(payload.k) || (payload.k as number) < 0 || typeof payload.f !== 'string') {
    throw invalidCursor();
  }
  if (payload.f !== fingerprint) {
    throw new AppError(
      'cursor_mismatch',
      'This cursor was issued for different search parameters. Keep searchParams (and the lists and companies given) identical between pages, or start again without a cursor.',
      { details: { issues: [{ field: 'cursor', message: 'issued for different search parameters' }] } },
    );
  }
  return payload.k as number;
}

function invalidCursor(): AppError {
  return new AppError('invalid_request', 'The cursor is not valid: pass the nextCursor of the previous response unchanged.', {
    details: { issues: [{ field: 'cursor', message: 'not a cursor issued by this service' }] },
  });
}

/** JSON with object keys sorted, so that equal queries give equal fingerprints. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, sortKeys(v)]),
    );
  }
  return value;
}
