import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, redactUrl } from '../../src/log.js';
import { waitFor } from '../audiences/helpers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const lines: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  },
});
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ log: createLogger('debug', sink) });
});
afterAll(async () => app?.stop());

/** The request lines logged so far, once `count` of them are there (a line is written when the response finishes). */
async function requestLines(count: number): Promise<Array<Record<string, unknown>>> {
  return waitFor(`${count} request lines`, async () => {
    const requests = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.msg === 'request');
    return requests.length >= count ? requests : null;
  });
}

describe('request logs', () => {
  it('write one JSON line per request with its request id, and never the API key', async () => {
    lines.length = 0;
    const search = await app.request('POST', '/v1/company-search', {
      apiKey: app.apiKey,
      searchParams: {},
      pageSize: 1,
    });
    const balance = await app.request('GET', `/v1/credits?apiKey=${app.apiKey}`);
    await app.request('GET', `/v1/credits?apiKey=${app.apiKey}x`);
    const requests = await requestLines(3);
    expect(requests).toHaveLength(3);
    expect(requests[0]).toMatchObject({
      requestId: search.headers.get('x-request-id'),
      method: 'POST',
      status: 200,
      operationId: 'companySearch',
    });
    expect(requests[1]).toMatchObject({
      requestId: balance.headers.get('x-request-id'),
      url: '/v1/credits?apiKey=[redacted]',
      status: 200,
    });
    expect(requests[2]!.status).toBe(401);
    expect(lines.join('\n')).not.toContain(app.apiKey);
  });

  it('never log a key spelled with percent-escapes or as an array, judged after decoding as the query parser does', async () => {
    lines.length = 0;
    const encoded = await app.request('GET', `/v1/credits?%61piKey=${app.apiKey}`);
    expect(encoded.status).toBe(200);
    await app.request('GET', `/v1/credits?apiKey[]=${app.apiKey}`);
    await app.request('GET', `/v1/credits?apiKey[0]=${app.apiKey}&pageSize=1`);
    await app.request('GET', `/v1/credits?api%4Bey=${app.apiKey}`);
    const requests = await requestLines(4);
    expect(requests.map((r) => r.url)).toEqual([
      '/v1/credits?%61piKey=[redacted]',
      '/v1/credits?apiKey[]=[redacted]',
      '/v1/credits?apiKey[0]=[redacted]&pageSize=1',
      '/v1/credits?api%4Bey=[redacted]',
    ]);
    expect(lines.join('\n')).not.toContain(app.apiKey.slice(4));
  });

  it('never log a key sent under a name the API rejects, or under no name at all', async () => {
    lines.length = 0;
    const key = app.apiKey;
    const escaped = (text: string) => text.replace(/_/g, '%5F');
    const urls = [
      `/v1/credits;apiKey=${key}`,
      `/v1/credits?apiKey%00=${key}`,
      `/v1/credits?a=1;apiKey=${key}`,
      `/v1/${key}/credits`,
      `/v1/credits/${key}`,
      `/v1/credits?x=${escaped(key)}`,
      `/v1/credits?x=%70${key.slice(1)}`,
      `/v1/credits?x=${key.replace('_', '%255F')}`,
      `/mcp?token=1&${key}`,
      `/oauth/authorize?client_id=${key}`,
    ];
    for (const url of urls) await fetch(`${app.url}${url}`, { headers: { 'x-api-key': 'pds_not-a-key' } });
    const requests = await requestLines(urls.length);
    for (const request of requests) expect(String(request.url)).toContain('[redacted]');
    const logged = lines.join('\n');
    expect(logged).not.toContain(key.slice(4));
    expect(logged).not.toContain(escaped(key).slice(4));
  });

  it('log a download link without its signature', async () => {
    lines.length = 0;
    const signature = 'c2lnbmF0dXJlLXRoYXQtd291bGQtb3Blbi10aGUtZmlsZQ';
    await app.request('GET', `/downloads/exports/1?account=1&expires=9999999999&signature=${signature}`);
    const [line] = await requestLines(1);
    expect(line?.url).toBe('/downloads/exports/1?account=1&expires=9999999999&signature=[redacted]');
    expect(lines.join('\n')).not.toContain(signature);
  });
});

describe('redactUrl', () => {
  it('keeps what is not a credential, and survives malformed escapes', () => {
    expect(redactUrl('/v1/x?pageSize=10&cursor=abc')).toBe('/v1/x?pageSize=10&cursor=abc');
    expect(redactUrl('/v1/x?%E0%A4%A=1&token=t')).toBe('/v1/x?%E0%A4%A=1&token=[redacted]');
    expect(redactUrl('/oauth/cb?code=abc&state=s&iss=x#frag')).toBe('/oauth/cb?code=[redacted]&state=[redacted]&iss=x');
    expect(redactUrl('/no-query')).toBe('/no-query');
    expect(redactUrl('/v1/audiences/123/prospects?pageSize=25&cursor=eyJpZCI6MTJ9')).toBe(
      '/v1/audiences/123/prospects?pageSize=25&cursor=eyJpZCI6MTJ9',
    );
  });

  it('replaces a key-shaped token wherever it stands, however it is escaped', () => {
    const key = `pds_${'A1b2-C3d4_'.repeat(4)}xyz`;
    expect(redactUrl(`/v1/credits;apiKey=${key}`)).toBe('/v1/credits;apiKey=[redacted]');
    expect(redactUrl(`/v1/credits?apiKey%00=${key}`)).toBe('/v1/credits?apiKey%00=[redacted]');
    expect(redactUrl(`/v1/credits?a=1;apiKey=${key}`)).toBe('/v1/credits?a=1;apiKey=[redacted]');
    expect(redactUrl(`/v1/${key}/credits`)).toBe('/v1/[redacted]/credits');
    expect(redactUrl(`/v1/x?q=${key.replace(/_/g, '%5f')}`)).toBe('/v1/x?q=[redacted]');
    expect(redactUrl(`/v1/x?q=%50DS_${key.slice(4)}`)).toBe('/v1/x?q=[redacted]');
    expect(redactUrl(`/v1/x?q=pds%255F${key.slice(4)}`)).toBe('/v1/x?q=[redacted]');
    // Too short to be a key, or not a key's prefix: kept.
    expect(redactUrl('/v1/x?q=pds_short')).toBe('/v1/x?q=pds_short');
    expect(redactUrl(`/v1/x?q=abc_${key.slice(4)}`)).toBe(`/v1/x?q=abc_${key.slice(4)}`);
  });
});
