import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RateLimitClass } from '../../operations/define.js';
import { operations } from '../../operations/index.js';
import { createApiKey } from '../../src/core/api-keys.js';
import { startTestApp, type TestApp, type TestResponse } from '../helpers/app.js';
import { connectMcp } from '../mcp/clients.js';

/**
 * The rate limits a caller can see, as draft-ietf-httpapi-ratelimit-headers writes them: `RateLimit-Policy` (the
 * class's quota per window) on every answer of every operation, `RateLimit` (what the account has left, and when its
 * bucket is full again) once the account is known, `Retry-After` on a 429, and the same in the error's details, which
 * MCP's tool errors carry. Each class has its own quota here, so that a header of the wrong class cannot pass.
 */
const quota: Record<RateLimitClass, number> = { search: 5, standard: 6, status: 7, heavy: 4 };

describe('rate-limit headers', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({
      env: {
        RATE_LIMIT_SEARCH_PER_MINUTE: String(quota.search),
        RATE_LIMIT_STANDARD_PER_MINUTE: String(quota.standard),
        RATE_LIMIT_STATUS_PER_MINUTE: String(quota.status),
        RATE_LIMIT_HEAVY_PER_MINUTE: String(quota.heavy),
      },
    });
  });
  afterAll(async () => {
    await app?.stop();
  });

  const policyOf = (rateClass: RateLimitClass): string => `"${rateClass}";q=${quota[rateClass]};w=60`;

  /**
   * The operation's own path with unknown ids, and an empty body or query (searches: empty filters): a 2xx, a 400 or a
   * 404 by the operation.
   */
  async function call(operation: (typeof operations)[number], apiKey: string | null): Promise<TestResponse> {
    const path = operation.path.replace(/\{\w+\}/g, '999999999');
    if (operation.method === 'GET' || operation.method === 'DELETE') {
      return app.request(operation.method, apiKey ? `${path}?apiKey=${encodeURIComponent(apiKey)}` : path);
    }
    const fields = operation.rateLimitClass === 'search' ? { searchParams: {} } : {};
    return app.request(operation.method, path, apiKey ? { apiKey, ...fields } : fields);
  }

  it("carries the operation's class on every answer, success or error, with the account's first token taken", async () => {
    const seen = new Map<RateLimitClass, Set<string>>();
    for (const operation of operations) {
      // A fresh account per operation: its bucket of the class is full before this one request.
      const { apiKey } = await app.createAccount({ credits: 1000 });
      const answer = await call(operation, apiKey);
      const rateClass = operation.rateLimitClass;
      expect(answer.status, operation.operationId).toBeLessThan(500);
      expect(answer.status, operation.operationId).not.toBe(429);
      expect(answer.headers.get('ratelimit-policy'), operation.operationId).toBe(policyOf(rateClass));
      const secondsPerToken = 60 / quota[rateClass];
      expect(answer.headers.get('ratelimit'), operation.operationId).toBe(
        `"${rateClass}";r=${quota[rateClass] - 1};t=${Math.ceil(secondsPerToken)}`,
      );
      expect(answer.headers.get('ratelimit-limit')).toBeNull();
      expect(answer.headers.get('ratelimit-remaining')).toBeNull();
      const kinds = seen.get(rateClass) ?? new Set<string>();
      kinds.add(answer.status < 300 ? '2xx' : '4xx');
      seen.set(rateClass, kinds);
    }
    // Every class answered both ways at least once.
    expect(Object.fromEntries([...seen].map(([rateClass, kinds]) => [rateClass, [...kinds].sort()]))).toEqual({
      search: ['2xx', '4xx'],
      standard: ['2xx', '4xx'],
      status: ['2xx', '4xx'],
      heavy: ['4xx'],
    });
  });

  it('counts down within the window, and says when the bucket is full again', async () => {
    const { apiKey } = await app.createAccount({ credits: 1000 });
    const remaining: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const answer = await app.request('GET', `/v1/credits?apiKey=${apiKey}`);
      expect(answer.status).toBe(200);
      remaining.push(answer.headers.get('ratelimit') as string);
    }
    // 7 a minute: a token every 60/7 s, so after n requests the bucket is full again in at most n of those.
    const parsed = remaining.map((value) => /^"status";r=(\d+);t=(\d+)$/.exec(value)?.slice(1).map(Number));
    expect(parsed.map((p) => p?.[0])).toEqual([6, 5, 4]);
    parsed.forEach((p, index) => {
      expect(p?.[1]).toBeGreaterThan(0);
      expect(p?.[1]).toBeLessThanOrEqual(Math.ceil(((index + 1) * 60) / 7));
    });
  });

  it('sends the policy alone when no account is known, and the bucket untouched when the key may not run it', async () => {
    const search = operations.find((o) => o.operationId === 'companySearch')!;
    const unauthorized = await call(search, null);
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('ratelimit-policy')).toBe(policyOf('search'));
    expect(unauthorized.headers.get('ratelimit')).toBeNull();

    const { accountId } = await app.createAccount({ credits: 1000 });
    const readOnly = await createApiKey(app.db, accountId, { readOnly: true });
    const refused = await app.request('POST', '/v1/company-search', { apiKey: readOnly.apiKey, searchParams: {} });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('key_read_only');
    expect(refused.headers.get('ratelimit-policy')).toBe(policyOf('search'));
    // Refused before the limit was counted: the whole quota is left.
    expect(refused.headers.get('ratelimit')).toBe(`"search";r=${quota.search};t=0`);
  });

  it('answers past the quota 429 with Retry-After, r=0 until the next token, and the same in the details', async () => {
    const { apiKey } = await app.createAccount({ credits: 1000 });
    const exportCompanies = '/v1/audiences/999999999/export/companies';
    for (let i = 0; i < quota.heavy; i += 1) {
      expect((await app.request('POST', exportCompanies, { apiKey })).status).toBe(404);
    }
    const refused = await app.request('POST', exportCompanies, { apiKey });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    const retryAfter = Number(refused.headers.get('retry-after'));
    // A token every 15 s: the next one is at most that far away.
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(15);
    expect(refused.headers.get('ratelimit-policy')).toBe(policyOf('heavy'));
    expect(refused.headers.get('ratelimit')).toBe(`"heavy";r=0;t=${retryAfter}`);
    expect(refused.body.error.details).toMatchObject({
      retryAfterSeconds: retryAfter,
      rateLimit: { policy: 'heavy', quota: quota.heavy, windowSeconds: 60, remaining: 0, resetSeconds: retryAfter },
    });
    // Another class of the same account is not limited.
    const balance = await app.request('GET', `/v1/credits?apiKey=${apiKey}`);
    expect(balance.status).toBe(200);
    expect(balance.headers.get('ratelimit')).toBe(`"status";r=${quota.status - 1};t=9`);
  });

  it("gives MCP's tool errors for a limit the same numbers: an operation's, and MCP's own answers'", async () => {
    const { apiKey } = await app.createAccount({ credits: 1000 });
    for (let i = 0; i < quota.heavy; i += 1) {
      await app.request('POST', '/v1/audiences/999999999/export/companies', { apiKey });
    }
    const client = await connectMcp(`${app.url}/mcp`, 'v2-modern', { headers: { 'x-api-key': apiKey } });
    try {
      const operationRefused = await client.callTool('call_operation', {
        operationId: 'exportCompanies',
        payload: { audienceId: '999999999' },
      });
      expect(operationRefused.isError).toBe(true);
      const error = operationRefused.structuredContent?.error;
      expect(error).toMatchObject({ code: 'rate_limited', status: 429 });
      expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(error.details).toMatchObject({
        retryAfterSeconds: error.retryAfterSeconds,
        rateLimit: {
          policy: 'heavy',
          quota: quota.heavy,
          windowSeconds: 60,
          remaining: 0,
          resetSeconds: error.retryAfterSeconds,
        },
      });

      // MCP's own answers count against the standard class.
      let own = await client.callTool('search_endpoints', { query: 'find companies' });
      for (let i = 0; i < quota.standard && !own.isError; i += 1) {
        own = await client.callTool('search_endpoints', { query: 'find companies' });
      }
      expect(own.structuredContent?.error).toMatchObject({
        code: 'rate_limited',
        details: { rateLimit: { policy: 'standard', quota: quota.standard, windowSeconds: 60, remaining: 0 } },
      });
      expect(own.structuredContent?.error.details.rateLimit.resetSeconds).toBe(
        own.structuredContent?.error.retryAfterSeconds,
      );
    } finally {
      await client.close();
    }
  });
});
