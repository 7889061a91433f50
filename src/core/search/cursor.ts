import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../errors.js';

/**
 * Opaque keyset cursors. A cursor carries the last id returned and a fingerprint of the query
 * it belongs to, so a cursor replayed with other filters is refused instead of silently
 * skipping or repeating records; and it is signed with the service's key and bound to the
 * account, so a caller can neither edit the position nor use another account's cursor.
 */
interface CursorPayload {
  v: 2;
  /** Last id of the previous page. */
  k: number;
  /** Fingerprint of the query. */
  f: string;
  /** Rank of the last record, for results in ranked order (rank descending, then id). */
  r?: number;
}

export function queryFingerprint(scope: string, query: unknown): string {
  return createHash('sha256').update(scope).update('\0').update(canonicalJson(query)).digest('base64url').slice(0, 22);
}

/** The cursors of one query of one account: `decode` the one a caller sent (0 for the first page), `encode` the next. */
export interface CursorScope {
  decode(cursor: string | null | undefined): number;
  encode(lastId: number): string;
  /**
   * The page of rows fetched with one more than `pageSize` (that extra row is how a next page is known to exist), and the
   * cursor of the next page, keyed by its last row's `keyOf`; null on the last page.
   */
  page<Row>(
    fetched: readonly Row[],
    pageSize: number,
    keyOf: (row: Row) => number,
  ): { rows: Row[]; nextCursor: string | null };
}

/** A position in results ranked by an integer rank (highest first), then by id. */
export interface RankedPosition {
  rank: number;
  id: number;
}

/** The cursors of a ranked query: as CursorScope, with the rank of the last record beside its id. */
export interface RankedCursorScope {
  /** Null for the first page. */
  decode(cursor: string | null | undefined): RankedPosition | null;
  page<Row>(
    fetched: readonly Row[],
    pageSize: number,
    positionOf: (row: Row) => RankedPosition,
  ): { rows: Row[]; nextCursor: string | null };
}

export class CursorCodec {
  constructor(private readonly key: Buffer) {}

  /** Derives the cursor key from the service's signing key, so no other signature passes as a cursor's. */
  static fromSigningKey(signingKey: Buffer): CursorCodec {
    return new CursorCodec(createHmac('sha256', signingKey).update('search cursor').digest());
  }

  scope(accountId: number, scope: string, query: unknown): CursorScope {
    const fingerprint = queryFingerprint(scope, query);
    const encode = (lastId: number) => this.encodePayload(accountId, { v: 2, k: lastId, f: fingerprint });
    return {
      encode,
      page: (fetched, pageSize, keyOf) => {
        const rows = fetched.slice(0, pageSize);
        const last = rows.at(-1);
        return { rows, nextCursor: fetched.length > pageSize && last !== undefined ? encode(keyOf(last)) : null };
      },
      decode: (cursor) => {
        if (cursor === null || cursor === undefined) return 0;
        return this.decodePayload(accountId, fingerprint, cursor).k;
      },
    };
  }

  /** Cursors of results in ranked order: a keyset of (rank, id), signed and bound to the query as `scope`'s are. */
  rankedScope(accountId: number, scope: string, query: unknown): RankedCursorScope {
    const fingerprint = queryFingerprint(scope, query);
    return {
      page: (fetched, pageSize, positionOf) => {
        const rows = fetched.slice(0, pageSize);
        const last = rows.at(-1);
        if (fetched.length <= pageSize || last === undefined) return { rows, nextCursor: null };
        const { rank, id } = positionOf(last);
        return { rows, nextCursor: this.encodePayload(accountId, { v: 2, k: id, f: fingerprint, r: rank }) };
      },
      decode: (cursor) => {
        if (cursor === null || cursor === undefined) return null;
        const payload = this.decodePayload(accountId, fingerprint, cursor);
        if (!Number.isSafeInteger(payload.r)) throw invalidCursor();
        return { rank: payload.r as number, id: payload.k };
      },
    };
  }

  private encodePayload(accountId: number, payload: CursorPayload): string {
    const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${encoded}.${this.sign(accountId, encoded).toString('base64url')}`;
  }

  private decodePayload(accountId: number, fingerprint: string, cursor: string): CursorPayload {
    const [payload, signature, extra] = cursor.split('.');
    if (!payload || !signature || extra !== undefined) throw invalidCursor();
    const expected = this.sign(accountId, payload);
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidCursor();
    let parsed: Partial<CursorPayload>;
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<CursorPayload>;
    } catch {
      throw invalidCursor();
    }
    if (parsed?.v !== 2 || !Number.isSafeInteger(parsed.k) || (parsed.k as number) < 0 || typeof parsed.f !== 'string')
      throw invalidCursor();
    if (parsed.f !== fingerprint) {
      throw new AppError(
        'cursor_mismatch',
        'This cursor was issued for different search parameters. Keep searchParams (and the lists and companies given) identical between pages, or start again without a cursor.',
        { details: { issues: [{ field: 'cursor', message: 'issued for different search parameters' }] } },
      );
    }
    return parsed as CursorPayload;
  }

  private sign(accountId: number, payload: string): Buffer {
    return createHmac('sha256', this.key).update(`${accountId}.${payload}`).digest().subarray(0, 16);
  }
}

function invalidCursor(): AppError {
  return new AppError(
    'invalid_request',
    'The cursor is not valid: pass the nextCursor of the previous response unchanged.',
    {
      details: { issues: [{ field: 'cursor', message: 'not a cursor issued by this service' }] },
    },
  );
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
