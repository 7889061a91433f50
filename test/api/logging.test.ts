import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
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

describe('request logs', () => {
  it('write one JSON line per request with its request id, and never the API key', async () => {
    lines.length = 0;
    const search = await app.request('POST', '/v1/company-search', { apiKey: app.apiKey, searchParams: {}, pageSize: 1 });
    const balance = await app.request('GET', `/v1/credits?apiKey=${app.apiKey}`);
    await app.request('GET', `/v1/credits?apiKey=${app.apiKey}x`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const requests = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'request');
    expect(requests).toHaveLength(3);
    expect(requests[0]).toMatchObject({ requestId: search.headers.get('x-request-id'), method: 'POST', status: 200, operationId: 'companySearch' });
    expect(requests[1]).toMatchObject({ requestId: balance.headers.get('x-request-id'), url: '/v1/credits?apiKey=[redacted]', status: 200 });
    expect(requests[2]!.status).toBe(401);
    expect(lines.join('\n')).not.toContain(app.apiKey);
  });
});
