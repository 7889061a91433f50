import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inputLimits } from '../../../operations/schemas/common.js';
import { httpLimits } from '../../../src/service.js';
import { balanceOf } from '../../audiences/helpers.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';

/**
 * OWASP API4:2023 Unrestricted Resource Consumption: the bounds, timeouts and caps the service
 * sets, asserted. Covered elsewhere, by reference: every string and list bounded in the registry
 * (test/security/input-bounds.test.ts), statement timeouts, the catalog pool kept apart, the
 * per-account concurrency caps and the costly-search slots (test/security/database-abuse.test.ts),
 * per-minute rate limits (test/api/errors.test.ts), fair job scheduling across accounts
 * (test/jobs/fairness.test.ts), the export quota (test/audiences/exports.test.ts), MCP response
 * budgets and polling discipline (test/mcp/guards.test.ts), JSON nesting (test/fuzz/regressions.test.ts).
 * Measured under load in RELIABILITY.md ("Slow and abusive clients", "One account flooding").
 */
describe('API4 unrestricted resource consumption', () => {
  let app: TestApp;
  let port: number;
  beforeAll(async () => {
    app = await startTestApp({ env: { HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '2000' } });
    port = Number(new URL(app.url).port);
  });
  afterAll(async () => {
    await app.stop();
  });

  /** A raw connection: what it received, and when the server closed it (ms after opening). */
  function rawConnection(send: (socket: net.Socket) => void): Promise<{ received: string; closedAfterMs: number }> {
    return new Promise((resolve, reject) => {
      const opened = Date.now();
      let received = '';
      const socket = net.connect(port, '127.0.0.1', () => send(socket));
      socket.on('data', (chunk) => (received += chunk.toString('latin1')));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve({ received, closedAfterMs: Date.now() - opened }));
      setTimeout(() => {
        socket.destroy();
        reject(new Error(`the server kept the connection open for 15 s; received: ${received.slice(0, 200)}`));
      }, 15_000).unref();
    });
  }

  it('closes a connection that never sends a request, once the header timeout has passed', async () => {
    const idle = await rawConnection(() => undefined);
    expect(idle.closedAfterMs).toBeGreaterThanOrEqual(900);
    expect(idle.closedAfterMs).toBeLessThan(4000);
  });

  it('answers headers sent too slowly with 408 and closes the connection', async () => {
    const slow = await rawConnection((socket) => {
      socket.write('GET /v1/credits HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      const drip = setInterval(() => (socket.writable ? socket.write('X-Drip: 1\r\n') : clearInterval(drip)), 300);
      socket.once('close', () => clearInterval(drip));
    });
    expect(slow.received).toMatch(/^HTTP\/1\.1 408/);
    expect(slow.closedAfterMs).toBeLessThan(4000);
  });

  it('answers a body sent too slowly with 408, charging nothing', async () => {
    const before = await balanceOf(app, app.apiKey);
    const slow = await rawConnection((socket) => {
      socket.write(
        `POST /v1/company-search HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nx-api-key: ${app.apiKey}\r\nContent-Length: 100000\r\n\r\n{"searchParams":`,
      );
      const drip = setInterval(() => (socket.writable ? socket.write(' ') : clearInterval(drip)), 300);
      socket.once('close', () => clearInterval(drip));
    });
    expect(slow.received).toMatch(/^HTTP\/1\.1 408/);
    expect(slow.closedAfterMs).toBeLessThan(5000);
    expect(await balanceOf(app, app.apiKey)).toBe(before);
  });

  it('reads at most its count of header lines, and refuses larger headers with 431', async () => {
    const many = await rawConnection((socket) => {
      const lines = Array.from({ length: httpLimits.maxHeadersCount + 50 }, (_, i) => `X-Filler-${i}: ${i}\r\n`).join(
        '',
      );
      socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n${lines}Connection: close\r\n\r\n`);
    });
    // Node 20 reads the first maxHeadersCount lines and drops the rest (the request is answered); Node 22 refuses the
    // request with 431. Either way the lines past the count are never kept.
    expect(many.received).toMatch(/^HTTP\/1\.1 (200|431)/);
    const large = await rawConnection((socket) => {
      socket.write(
        `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Large: ${'a'.repeat(httpLimits.maxHeaderSize + 1)}\r\nConnection: close\r\n\r\n`,
      );
    });
    expect(large.received).toMatch(/^HTTP\/1\.1 431/);
  });

  it('refuses a body over the REST limit with 413 before reading it whole, charging nothing', async () => {
    const before = await balanceOf(app, app.apiKey);
    const started = Date.now();
    const response = await fetch(`${app.url}/v1/company-search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': app.apiKey },
      body: JSON.stringify({ searchParams: { keywords: ['x'.repeat(3 * 1024 * 1024)] } }),
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await balanceOf(app, app.apiKey)).toBe(before);
  });

  it('caps what one request can ask for: page sizes, list lengths and string lengths', async () => {
    const pages = await app.request('POST', '/v1/company-search', {
      apiKey: app.apiKey,
      searchParams: {},
      pageSize: 1001,
    });
    expect(pages.status).toBe(400);
    expect(pages.body.error.details.issues[0].field).toBe('pageSize');
    const titles = await app.request('POST', '/v1/people-search', {
      apiKey: app.apiKey,
      searchParams: {
        jobTitleV2: { included: Array.from({ length: inputLimits.substringsPerFilter + 1 }, (_, i) => `t${i}`) },
      },
    });
    expect(titles.status).toBe(400);
    expect(titles.body.error.details.issues[0].field).toBe('searchParams.jobTitleV2.included');
    const batch = await app.request('POST', '/v1/contact-enrichment/batch', {
      apiKey: app.apiKey,
      profileUrls: Array.from({ length: 1001 }, (_, i) => `p${i}`),
      enrichmentType: { getWorkEmails: true },
    });
    expect(batch.status).toBe(400);
    expect(batch.body.error.details.issues[0].field).toBe('profileUrls');
  });

  it('documents its limits: the settings in the operations guide, the per-minute rate limit of each operation in OpenAPI', async () => {
    const document = (await app.request('GET', '/openapi.json')).body;
    expect(document.paths['/v1/company-search'].post['x-rate-limit']).toMatchObject({
      class: 'search',
      requestsPerMinute: expect.any(Number),
    });
    const { readFile } = await import('node:fs/promises');
    const guide = await readFile(new URL('../../../docs/operations.md', import.meta.url), 'utf8');
    for (const setting of ['HTTP_HEADERS_TIMEOUT_MS', 'HTTP_REQUEST_TIMEOUT_MS', 'HTTP_KEEP_ALIVE_TIMEOUT_MS'])
      expect(guide).toContain(setting);
  });
});
