import { describe, expect, it } from 'vitest';
import { canonicalJson, CursorCodec, queryFingerprint } from '../../../../src/core/search/cursor.js';
import { AppError } from '../../../../src/errors.js';

const codec = CursorCodec.fromSigningKey(Buffer.from('a signing key of the service, 32+'));
const query = { searchParams: { country3LetterCode: ['DEU'] }, pageSize: 25 };

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof AppError ? error.code : 'not an AppError';
  }
  return undefined;
}

describe('search cursors', () => {
  it('give back the id they were made from, for the same account and query', () => {
    const scope = codec.scope(7, 'peopleSearch', query);
    for (const id of [0, 1, 42, 2 ** 40]) expect(scope.decode(scope.encode(id))).toBe(id);
  });

  it('start at 0 without a cursor', () => {
    const scope = codec.scope(7, 'peopleSearch', query);
    expect(scope.decode(undefined)).toBe(0);
    expect(scope.decode(null)).toBe(0);
  });

  it("refuse another account's cursor as not valid", () => {
    const cursor = codec.scope(7, 'peopleSearch', query).encode(10);
    expect(codeOf(() => codec.scope(8, 'peopleSearch', query).decode(cursor))).toBe('invalid_request');
  });

  it('refuse a cursor of other search parameters as a mismatch, naming the cursor field', () => {
    const cursor = codec.scope(7, 'peopleSearch', query).encode(10);
    const other = codec.scope(7, 'peopleSearch', { ...query, searchParams: { country3LetterCode: ['FRA'] } });
    try {
      other.decode(cursor);
      expect.unreachable();
    } catch (error) {
      expect((error as AppError).code).toBe('cursor_mismatch');
      expect((error as AppError).details).toEqual({
        issues: [{ field: 'cursor', message: 'issued for different search parameters' }],
      });
    }
  });

  it('refuse a cursor of the same parameters but another operation', () => {
    const cursor = codec.scope(7, 'peopleSearch', query).encode(10);
    expect(codeOf(() => codec.scope(7, 'companySearch', query).decode(cursor))).toBe('cursor_mismatch');
  });

  it('refuse a cursor signed with another key', () => {
    const cursor = CursorCodec.fromSigningKey(Buffer.from('another key')).scope(7, 'peopleSearch', query).encode(10);
    expect(codeOf(() => codec.scope(7, 'peopleSearch', query).decode(cursor))).toBe('invalid_request');
  });

  it('refuse an edited position even with the rest of the cursor unchanged', () => {
    const scope = codec.scope(7, 'peopleSearch', query);
    const [, signature] = scope.encode(10).split('.');
    const forged = Buffer.from(JSON.stringify({ v: 2, k: 9999, f: queryFingerprint('peopleSearch', query) })).toString(
      'base64url',
    );
    expect(codeOf(() => scope.decode(`${forged}.${signature}`))).toBe('invalid_request');
  });

  it.each(['', 'abc', 'a.b.c', '.sig', 'payload.', '!!!.???', 'e30.AAAA'])(
    'refuse the malformed cursor %j',
    (cursor) => {
      expect(codeOf(() => codec.scope(7, 'peopleSearch', query).decode(cursor))).toBe('invalid_request');
    },
  );

  it('cut a page at its size and give the next cursor only when one more row was fetched', () => {
    const scope = codec.scope(7, 'peopleSearch', query);
    const rows = [{ id: 3 }, { id: 5 }, { id: 9 }];
    const full = scope.page(rows, 2, (row) => row.id);
    expect(full.rows).toEqual([{ id: 3 }, { id: 5 }]);
    expect(scope.decode(full.nextCursor)).toBe(5);
    const last = scope.page(rows, 3, (row) => row.id);
    expect(last.rows).toHaveLength(3);
    expect(last.nextCursor).toBeNull();
    expect(scope.page([], 10, (row: { id: number }) => row.id)).toEqual({ rows: [], nextCursor: null });
  });
});

describe('ranked cursors', () => {
  const rows = [
    { rank: 90, id: 5 },
    { rank: 90, id: 8 },
    { rank: 70, id: 2 },
  ];

  it('give back the rank and id of the last row of a page, and none on the last page', () => {
    const scope = codec.rankedScope(7, 'findSimilarCompanies', query);
    expect(scope.decode(null)).toBeNull();
    const { rows: page, nextCursor } = scope.page(rows, 2, (row) => row);
    expect(page).toEqual(rows.slice(0, 2));
    expect(scope.decode(nextCursor)).toEqual({ rank: 90, id: 8 });
    expect(scope.page(rows, 3, (row) => row).nextCursor).toBeNull();
  });

  it("refuse a plain cursor, another query's, another account's and an edited one", () => {
    const scope = codec.rankedScope(7, 'findSimilarCompanies', query);
    const cursor = scope.page(rows, 1, (row) => row).nextCursor as string;
    const plain = codec.scope(7, 'findSimilarCompanies', query).encode(5);
    expect(codeOf(() => scope.decode(plain))).toBe('invalid_request');
    expect(codeOf(() => codec.rankedScope(7, 'findSimilarCompanies', { other: 1 }).decode(cursor))).toBe(
      'cursor_mismatch',
    );
    expect(codeOf(() => codec.rankedScope(8, 'findSimilarCompanies', query).decode(cursor))).toBe('invalid_request');
    const [payload, signature] = cursor.split('.');
    const edited = Buffer.from(
      Buffer.from(payload as string, 'base64url')
        .toString()
        .replace('"r":90', '"r":99'),
    ).toString('base64url');
    expect(codeOf(() => scope.decode(`${edited}.${signature}`))).toBe('invalid_request');
  });

  it('leave the plain cursors as they were', () => {
    const cursor = codec.scope(7, 'peopleSearch', query).encode(10);
    const payload = JSON.parse(Buffer.from(cursor.split('.')[0] as string, 'base64url').toString());
    expect(Object.keys(payload)).toEqual(['v', 'k', 'f']);
  });
});

describe('query fingerprints', () => {
  it('are the same whatever the order of keys, and leave undefined values out', () => {
    expect(queryFingerprint('s', { a: 1, b: { c: 2, d: 3 } })).toBe(queryFingerprint('s', { b: { d: 3, c: 2 }, a: 1 }));
    expect(queryFingerprint('s', { a: 1, b: undefined })).toBe(queryFingerprint('s', { a: 1 }));
  });

  it('differ by scope, by value and by the order of a list', () => {
    const base = queryFingerprint('s', { list: [1, 2] });
    expect(queryFingerprint('t', { list: [1, 2] })).not.toBe(base);
    expect(queryFingerprint('s', { list: [2, 1] })).not.toBe(base);
    expect(queryFingerprint('s', { list: [1, 2, 3] })).not.toBe(base);
  });

  it('are short, URL-safe text', () => {
    expect(queryFingerprint('s', {})).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps lists in order', () => {
    expect(canonicalJson({ b: [{ z: 1, a: 2 }], a: null })).toBe('{"a":null,"b":[{"a":2,"z":1}]}');
  });

  it('writes plain values as JSON does', () => {
    expect(canonicalJson('x')).toBe('"x"');
    expect(canonicalJson(3)).toBe('3');
    expect(canonicalJson([])).toBe('[]');
  });
});
