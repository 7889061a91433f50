import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../../operations/index.js';
import { pathParameters } from '../../../operations/define.js';
import { snapshot } from '../../fuzz/fixtures.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';

/**
 * OWASP API5:2023 Broken Function Level Authorization. What only an operator may do (create
 * accounts, issue and revoke keys, grant credits, register mail recipients, read metrics) is done
 * with `npm run accounts` on the machine, or with METRICS_TOKEN: no HTTP route does it, whatever a
 * key holder tries. Scopes of /mcp/v3 tokens (read versus spend): test/auth/scopes.test.ts; our
 * tokens refused on /mcp, /mcp/v2 and /v1: test/auth/negatives.test.ts; the development identity
 * provider refused in production: test/unit/auth/config.test.ts.
 */
const metricsToken = 'metrics-token-for-the-owasp-test-0123456789';

describe('API5 function-level authorization', () => {
  let app: TestApp;
  let account: { accountId: number; apiKey: string };
  beforeAll(async () => {
    app = await startTestApp({ env: { METRICS_TOKEN: metricsToken } });
    account = await app.createAccount({ credits: 50, plan: 'pro' });
  });
  afterAll(async () => {
    await app?.stop();
  });

  const send = async (method: string, path: string, apiKey: string, body?: unknown) => {
    const response = await fetch(`${app.url}${path}`, {
      method,
      headers: {
        'x-api-key': apiKey,
        authorization: `Bearer ${apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    await response.arrayBuffer();
    return response.status;
  };

  it("serves metrics to the scraper's token only: an API key, as a bearer token, a header or a query parameter, is refused", async () => {
    expect((await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).status).toBe(
      200,
    );
    const withKey: RequestInit[] = [
      { headers: { authorization: `Bearer ${app.apiKey}` } },
      { headers: { 'x-api-key': app.apiKey } },
    ];
    for (const init of withKey) {
      expect((await fetch(`${app.url}/metrics`, init)).status).toBe(401);
    }
    expect((await fetch(`${app.url}/metrics?apiKey=${app.apiKey}`)).status).toBe(401);
  });

  it("has no route, for any method, that does an operator's work: a key holder's attempts are 404 and change nothing", async () => {
    const before = await snapshot(app, account.accountId);
    const keysBefore = await app.db.pool.query('SELECT count(*)::int AS n FROM api_keys');
    const accountsBefore = await app.db.pool.query('SELECT count(*)::int AS n FROM accounts');
    const attempts: Array<[string, string, unknown]> = [
      ['POST', '/v1/accounts', { name: 'Mine', plan: 'enterprise', credits: 1_000_000 }],
      ['GET', '/v1/accounts', undefined],
      ['POST', `/v1/accounts/${account.accountId}/keys`, {}],
      ['DELETE', '/v1/keys/pds_', undefined],
      ['POST', '/v1/credits', { credits: 1_000_000 }],
      ['PUT', '/v1/credits', { balance: 1_000_000 }],
      ['PATCH', '/v1/credits', { balance: 1_000_000 }],
      ['POST', '/v1/credits/grant', { accountId: account.accountId, credits: 1_000_000 }],
      ['POST', `/v1/accounts/${account.accountId}/recipients`, { email: 'anyone@elsewhere.example' }],
      ['PATCH', `/v1/accounts/${account.accountId}`, { plan: 'enterprise' }],
      ['GET', '/admin', undefined],
      ['POST', '/v1/admin/grant', { credits: 1_000_000 }],
    ];
    for (const [method, path, body] of attempts) {
      expect(await send(method, path, account.apiKey, body), `${method} ${path}`).toBe(404);
    }
    expect(await snapshot(app, account.accountId)).toEqual(before);
    expect((await app.db.pool.query('SELECT count(*)::int AS n FROM api_keys')).rows).toEqual(keysBefore.rows);
    expect((await app.db.pool.query('SELECT count(*)::int AS n FROM accounts')).rows).toEqual(accountsBefore.rows);
  });

  it("answers every registry path only to the methods the registry gives it: others are refused (404, 405, or 400 for a path that names another route's parameter), never served", async () => {
    const before = await snapshot(app, account.accountId);
    const methodsByPath = new Map<string, Set<string>>();
    for (const operation of operations) {
      const path = pathParameters(operation.path).reduce((p, name) => p.replace(`{${name}}`, '1'), operation.path);
      methodsByPath.set(path, (methodsByPath.get(path) ?? new Set()).add(operation.method));
    }
    let tried = 0;
    for (const [path, methods] of methodsByPath) {
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
        if (methods.has(method)) continue;
        const status = await send(
          method,
          path,
          account.apiKey,
          method === 'GET' || method === 'DELETE' ? undefined : {},
        );
        // 404 or 405; a 400 where the path reads as another route's parameter (GET /v1/audiences/create is an audienceId 'create').
        expect([400, 404, 405], `${method} ${path}: ${status}`).toContain(status);
        tried += 1;
      }
    }
    expect(tried).toBeGreaterThan(100);
    expect(await snapshot(app, account.accountId)).toEqual(before);
  });
});
