import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeApiKey } from '../../../src/core/accounts.js';
import { balanceOf } from '../../audiences/helpers.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { connectMcp } from '../../mcp/clients.js';

/**
 * OWASP API2:2023 Broken Authentication. Keys are 256-bit random secrets stored as SHA-256 hashes
 * (test/api/errors.test.ts "stores keys hashed only"); this file covers where a key may travel,
 * revoked keys on every surface, and refusals that tell a near miss from a stranger in nothing.
 * Keys in query strings never reach a log line: test/api/logging.test.ts.
 */
describe('API2 broken authentication', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.stop();
  });

  const call = async (
    method: string,
    path: string,
    init: { headers?: Record<string, string>; body?: unknown } = {},
  ) => {
    const response = await fetch(`${app.url}${path}`, {
      method,
      headers: { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: response.status, body: (await response.json()) as any, headers: response.headers };
  };

  describe('the x-api-key header on REST', () => {
    it('authenticates GET and POST alike, with no key in the query string or the body', async () => {
      const balance = await call('GET', '/v1/credits', { headers: { 'x-api-key': app.apiKey } });
      expect(balance.status).toBe(200);
      expect(balance.body.output.balance).toBeGreaterThan(0);
      const search = await call('POST', '/v1/company-search', {
        headers: { 'x-api-key': app.apiKey },
        body: { searchParams: {}, pageSize: 2 },
      });
      expect(search.status).toBe(200);
      expect(search.body.chargeInfo.creditsCharged).toBe(2);
    });

    it("accepts the header and the spec's apiKey field together when they are the same key", async () => {
      const same = await call('POST', '/v1/company-search', {
        headers: { 'x-api-key': app.apiKey },
        body: { apiKey: app.apiKey, searchParams: {}, pageSize: 1 },
      });
      expect(same.status).toBe(200);
      const query = await call('GET', `/v1/credits?apiKey=${app.apiKey}`, { headers: { 'x-api-key': app.apiKey } });
      expect(query.status).toBe(200);
    });

    it('refuses two different keys with a 400 naming apiKey, charging neither account and echoing neither key', async () => {
      const other = await app.createAccount({ credits: 100 });
      const before = await balanceOf(app, app.apiKey);
      for (const request of [
        () =>
          call('POST', '/v1/company-search', {
            headers: { 'x-api-key': app.apiKey },
            body: { apiKey: other.apiKey, searchParams: {}, pageSize: 1 },
          }),
        () => call('GET', `/v1/credits?apiKey=${other.apiKey}`, { headers: { 'x-api-key': app.apiKey } }),
      ]) {
        const answer = await request();
        expect(answer.status).toBe(400);
        expect(answer.body.error.code).toBe('invalid_request');
        expect(answer.body.error.details.issues).toEqual([
          { field: 'apiKey', message: 'differs from the x-api-key header' },
        ]);
        expect(JSON.stringify(answer.body)).not.toContain(app.apiKey);
        expect(JSON.stringify(answer.body)).not.toContain(other.apiKey);
      }
      expect(await balanceOf(app, app.apiKey)).toBe(before);
      expect(await balanceOf(app, other.apiKey)).toBe(100);
    });

    it('says where a missing key goes, the header first', async () => {
      const missing = await call('GET', '/v1/credits');
      expect(missing.status).toBe(401);
      expect(missing.body.error.message).toMatch(/x-api-key header \(preferred\)/);
      const wrong = await call('GET', '/v1/credits', { headers: { 'x-api-key': 'pds_not-a-key' } });
      expect(wrong.status).toBe(401);
    });

    it('is documented in OpenAPI as the preferred security scheme, with the query parameter kept for GET', async () => {
      const document = (await call('GET', '/openapi.json')).body;
      expect(document.components.securitySchemes.apiKeyHeader).toMatchObject({
        type: 'apiKey',
        in: 'header',
        name: 'x-api-key',
      });
      expect(document.security).toEqual([{ apiKeyHeader: [] }]);
      const get = document.paths['/v1/credits'].get;
      expect(get.security).toEqual([{ apiKeyHeader: [] }, { apiKeyQuery: [] }]);
      expect(get.parameters.find((p: { name: string }) => p.name === 'apiKey').required).toBe(false);
      const post = document.paths['/v1/company-search'].post;
      expect(post.requestBody.content['application/json'].schema.required).not.toContain('apiKey');
    });
  });

  describe('revoked keys', () => {
    it('are refused on every surface and wherever they travel, as soon as the cache forgets them', async () => {
      const account = await app.createAccount({ credits: 100 });
      expect((await call('GET', '/v1/credits', { headers: { 'x-api-key': account.apiKey } })).status).toBe(200);
      expect(await revokeApiKey(app.db.pool, account.apiKey)).toBe(1);
      // Every instance forgets within the cache's 5 s; this one is told at once.
      app.service.context.authenticator.forget(account.apiKey);
      expect((await call('GET', '/v1/credits', { headers: { 'x-api-key': account.apiKey } })).status).toBe(401);
      expect((await call('GET', `/v1/credits?apiKey=${account.apiKey}`)).status).toBe(401);
      expect(
        (await call('POST', '/v1/company-search', { body: { apiKey: account.apiKey, searchParams: {} } })).status,
      ).toBe(401);
      await expect(
        connectMcp(`${app.url}/mcp`, 'v2-modern', { headers: { 'x-api-key': account.apiKey } }),
      ).rejects.toThrow();
      const mcp = await fetch(`${app.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-api-key': account.apiKey,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(mcp.status).toBe(401);
      expect(await balanceOf(app, app.apiKey)).toBeGreaterThan(0);
    });
  });

  describe('refusals', () => {
    it('tell a key that differs from a real one in its last character from a random string in nothing: same answer, same time', async () => {
      const nearMiss = (i: number) =>
        `${app.apiKey.slice(0, -2)}${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(97 + (i % 26))}`;
      const stranger = (i: number) => `pds_${'x'.repeat(38)}${String(i).padStart(5, '0')}`;
      const timed = async (key: string) => {
        const started = process.hrtime.bigint();
        const answer = await call('GET', '/v1/credits', { headers: { 'x-api-key': key } });
        return { ms: Number(process.hrtime.bigint() - started) / 1e6, status: answer.status, body: answer.body };
      };
      for (let i = 0; i < 10; i++) await timed(stranger(10_000 + i));
      const near: number[] = [];
      const far: number[] = [];
      for (let i = 0; i < 60; i++) {
        const a = await timed(nearMiss(i));
        const b = await timed(stranger(i));
        expect(a.status).toBe(401);
        expect(b.status).toBe(401);
        const { requestId: _a, ...withoutIdA } = a.body.error;
        const { requestId: _b, ...withoutIdB } = b.body.error;
        expect(withoutIdA).toEqual(withoutIdB);
        near.push(a.ms);
        far.push(b.ms);
      }
      const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] as number;
      // Keys are looked up by their SHA-256 hash, so a shared prefix buys nothing; only noise may
      // differ, and on a loaded machine the noise of one median is a few ms, or a share of it. A
      // near miss that did more work (a second lookup, a comparison by prefix) would take about twice as long.
      expect(Math.abs(median(near) - median(far))).toBeLessThan(Math.max(5, median(far) / 2));
    });
  });
});
