import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf } from '../audiences/helpers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * The probe's 500s on bad bytes: each is the client's fault, so each is a 4xx that says what is
 * wrong, and nothing changes.
 */
describe('bytes the service cannot take', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.stop();
  });

  const send = async (path: string, init: RequestInit) => {
    const response = await fetch(`${app.url}${path}`, init);
    return {
      status: response.status,
      body: (await response.json()) as {
        error: { code: string; message: string; details: { issues?: Array<{ field: string }> } };
      },
    };
  };
  const json = { 'content-type': 'application/json' };

  it('refuses a NUL character in a search filter by its field, charging nothing', async () => {
    const before = await balanceOf(app, app.apiKey);
    const answer = await send('/v1/company-search', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ apiKey: app.apiKey, searchParams: { nameLike: 'acme\u0000corp' } }),
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.details.issues?.[0]?.field).toBe('searchParams.nameLike');
    expect(answer.body.error.message).toMatch(/NUL/);
    expect(await balanceOf(app, app.apiKey)).toBe(before);
  });

  it('refuses a NUL character in a name, creating nothing', async () => {
    const before = await app.db.pool.query('SELECT count(*)::int AS n FROM audiences');
    const answer = await send('/v1/audiences/create', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ apiKey: app.apiKey, name: 'Q4\u0000list' }),
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.details.issues?.[0]?.field).toBe('name');
    const after = await app.db.pool.query('SELECT count(*)::int AS n FROM audiences');
    expect(after.rows).toEqual(before.rows);
  });

  it('answers a body that does not decompress with 400 naming the problem', async () => {
    for (const encoding of ['br', 'gzip', 'deflate']) {
      const answer = await send('/v1/company-search', {
        method: 'POST',
        headers: { ...json, 'content-encoding': encoding },
        body: 'not compressed at all',
      });
      expect(answer.status, encoding).toBe(400);
      expect(answer.body.error.code).toBe('invalid_request');
      expect(answer.body.error.message).toMatch(/body could not be read/);
    }
  });

  it('accepts a gzip body that is really gzip, and answers an unknown encoding or charset with 415', async () => {
    const body = gzipSync(JSON.stringify({ apiKey: app.apiKey, searchParams: {}, pageSize: 1 }));
    const gzip = await fetch(`${app.url}/v1/company-search`, {
      method: 'POST',
      headers: { ...json, 'content-encoding': 'gzip' },
      body,
    });
    expect(gzip.status).toBe(200);
    const unknown = await send('/v1/company-search', {
      method: 'POST',
      headers: { ...json, 'content-encoding': 'compress' },
      body: '{}',
    });
    expect(unknown.status).toBe(415);
    expect(unknown.body.error.code).toBe('unsupported_media_type');
    expect(unknown.body.error.message).toMatch(/compress/);
    const charset = await send('/v1/company-search', {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=klingon' },
      body: '{}',
    });
    expect(charset.status).toBe(415);
  });

  it('answers a body that is not JSON with 415 saying to send application/json', async () => {
    const answer = await send('/v1/company-search', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ apiKey: app.apiKey, searchParams: {} }),
    });
    expect(answer.status).toBe(415);
    expect(answer.body.error.message).toMatch(/application\/json/);
  });

  it('answers a malformed percent-escape in the path with 400', async () => {
    const answer = await send(`/v1/audiences/%E0%A4%A?apiKey=${app.apiKey}`, { method: 'GET' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(/percent-escape/);
  });
});
