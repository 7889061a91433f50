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
  });
});
