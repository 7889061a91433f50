import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSavedSearch } from '../../operations/index.js';
import type { HeadlessBrowser } from '../auth/browser.js';
import type { TestApp } from '../helpers/app.js';
import { connectMcp } from '../mcp/clients.js';
import { createKey, csrfOf, post, signUp, startDashboardApp, textOf } from './helpers.js';

/**
 * API keys made in the dashboard, on every surface: restricted keys (read-only; a daily credit
 * cap held under concurrent charges) with their errors and their standing in GET /v1/credits; a
 * revoked key refused at once on REST and the three MCP surfaces; what the request log and the
 * ledger record of a key's work.
 */
describe('dashboard keys on the API and MCP', () => {
  let app: TestApp;
  let owner: { browser: HeadlessBrowser; email: string };
  let accountId: number;

  beforeAll(async () => {
    // Concurrent searches of one account are let through, so that the cap (not the concurrency limit) is what refuses them.
    app = await startDashboardApp({ env: { ACCOUNT_CONCURRENT_SEARCHES: '16', ACCOUNT_CONCURRENT_REQUESTS: '16' } });
    owner = await signUp(app, undefined, 'Keys Inc');
    accountId = Number((await app.db.pool.query(`SELECT id FROM accounts WHERE email = $1`, [owner.email])).rows[0].id);
    // More than the free 500, so that caps (not the balance) are what stops spending.
    await app.db.pool.query(
      `WITH b AS (UPDATE credit_balances SET balance = balance + 10000 WHERE account_id = $1 RETURNING balance)
       INSERT INTO credit_ledger (account_id, amount, balance_after, unit, reason) SELECT $1, 10000, balance, 'grant', 'test' FROM b`,
      [accountId],
    );
  });
  afterAll(async () => {
    await app?.stop();
  });

  const search = (apiKey: string, pageSize = 3) =>
    fetch(`${app.url}/v1/company-search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ searchParams: {}, pageSize }),
    });
  const balance = async () =>
    Number(
      (await app.db.pool.query(`SELECT balance FROM credit_balances WHERE account_id = $1`, [accountId])).rows[0]
        .balance,
    );

  it('lists a new key with its name, prefix and creator, and records when it was last used', async () => {
    const { apiKey, page } = await createKey(app, owner.browser, { name: 'CRM sync' });
    expect(page.status).toBe(201);
    expect(textOf(page)).toContain('shown this once');
    const before = await owner.browser.open(`${app.url}/dashboard/keys`);
    expect(before.text).not.toContain(apiKey);
    const row = new RegExp(
      `<td>CRM sync</td>\\s*<td><code>${apiKey.slice(0, 10)}…</code></td>[\\s\\S]*?<td>never</td>`,
    );
    expect(before.text).toMatch(row);
    expect((await search(apiKey)).status).toBe(200);
    await expect
      .poll(
        async () =>
          (await app.db.pool.query(`SELECT last_used_at FROM api_keys WHERE key_prefix = $1`, [apiKey.slice(0, 10)]))
            .rows[0].last_used_at,
      )
      .not.toBeNull();
    const after = await owner.browser.open(`${app.url}/dashboard/keys`);
    expect(after.text).not.toMatch(row);
  });

  it('holds a read-only key to free operations that change nothing, on REST and MCP, charging nothing', async () => {
    const { apiKey } = await createKey(app, owner.browser, { name: 'read only', readOnly: true });
    const credits = await app.request('GET', `/v1/credits?apiKey=${apiKey}`);
    expect(credits.status).toBe(200);
    expect(credits.body.output.key).toMatchObject({
      name: 'read only',
      readOnly: true,
      dailyCreditCap: null,
      spentToday: 0,
    });
    const start = await balance();
    const charged = await search(apiKey);
    expect(charged.status).toBe(403);
    const body = (await charged.json()) as any;
    expect(body.error.code).toBe('key_read_only');
    expect(body.error.message).toContain('companySearch');
    const writes = await app.request('POST', '/v1/exclusion-lists', { apiKey, name: 'nope', kind: 'companies' });
    expect(writes.status).toBe(403);
    expect(writes.body.error.code).toBe('key_read_only');
    for (const [path, surface] of [
      ['/mcp', 'call_operation'],
      ['/mcp/v2', 'companySearch'],
    ] as const) {
      const client = await connectMcp(`${app.url}${path}`, 'v2-modern', { headers: { 'x-api-key': apiKey } });
      try {
        const answer =
          surface === 'call_operation'
            ? await client.callTool('call_operation', {
                operationId: 'companySearch',
                payload: { searchParams: {}, pageSize: 2 },
              })
            : await client.callTool('companySearch', { searchParams: {}, pageSize: 2 });
        expect(answer.isError).toBe(true);
        expect(JSON.stringify(answer.content)).toContain('read-only');
        const free = await client.callTool(
          surface === 'call_operation' ? 'call_operation' : 'getCreditBalance',
          surface === 'call_operation' ? { operationId: 'getCreditBalance', payload: {} } : {},
        );
        expect(free.isError ?? false).toBe(false);
      } finally {
        await client.close();
      }
    }
    expect(await balance()).toBe(start);
  });

  it('holds a capped key to its daily cap under concurrent charges, and says the cap and when it resets', async () => {
    const { apiKey } = await createKey(app, owner.browser, { name: 'capped', dailyCreditCap: 10 });
    const start = await balance();
    const answers = await Promise.all(Array.from({ length: 8 }, () => search(apiKey, 3)));
    const bodies = (await Promise.all(answers.map((a) => a.json()))) as any[];
    const charged = bodies
      .filter((_, i) => answers[i]?.status === 200)
      .map((b) => b.chargeInfo.creditsCharged as number);
    const refused = answers.filter((a) => a.status === 429);
    expect(charged.length).toBe(3);
    expect(charged.reduce((a, b) => a + b, 0)).toBe(9);
    expect(refused.length).toBe(5);
    const refusal = bodies.find((b) => b.error)?.error;
    expect(refusal.code).toBe('key_spend_cap');
    const midnight = new Date();
    midnight.setUTCHours(24, 0, 0, 0);
    expect(refusal.details).toMatchObject({
      dailyCreditCap: 10,
      spentToday: 9,
      required: 3,
      resetsAt: midnight.toISOString(),
    });
    expect(refusal.message).toContain(midnight.toISOString());
    expect(Number(refused[0]?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await balance()).toBe(start - 9);
    // A charge that fits what is left still goes through; the day's spend matches the ledger.
    expect((await search(apiKey, 1)).status).toBe(200);
    const spent = await app.db.pool.query(
      `SELECT s.spent, (SELECT -sum(amount) FROM credit_ledger l WHERE l.api_key_id = k.id)::int AS ledger
         FROM api_keys k JOIN api_key_daily_spend s ON s.key_id = k.id AND s.account_id = k.account_id WHERE k.key_prefix = $1`,
      [apiKey.slice(0, 10)],
    );
    expect(spent.rows[0]).toEqual({ spent: 10, ledger: 10 });
    const credits = await app.request('GET', `/v1/credits?apiKey=${apiKey}`);
    expect(credits.body.output.key).toMatchObject({
      dailyCreditCap: 10,
      spentToday: 10,
      remainingToday: 0,
      capResetsAt: midnight.toISOString(),
    });
    // Work charged later cannot be held to a cap: refused before anything is made.
    const later = await app.request('POST', '/v1/saved-searches', { apiKey, ...createSavedSearch.example });
    expect(later.status).toBe(429);
    expect(later.body.error).toMatchObject({
      code: 'key_spend_cap',
      details: { chargedLater: true, dailyCreditCap: 10 },
    });
    // And on MCP, the same cap.
    const client = await connectMcp(`${app.url}/mcp`, 'v1', { headers: { 'x-api-key': apiKey } });
    try {
      const answer = await client.callTool('call_operation', {
        operationId: 'companySearch',
        payload: { searchParams: {}, pageSize: 2 },
      });
      expect(answer.isError).toBe(true);
      expect(JSON.stringify(answer.content)).toMatch(/at most 10 credits a day/);
    } finally {
      await client.close();
    }
    expect(await balance()).toBe(start - 10);
  });

  it('refuses a revoked key at once on REST, /mcp, /mcp/v2 and /mcp/v3', async () => {
    const { apiKey } = await createKey(app, owner.browser, { name: 'to revoke' });
    // Used (and so cached) on every surface first.
    expect((await app.request('GET', `/v1/credits?apiKey=${apiKey}`)).status).toBe(200);
    for (const path of ['/mcp', '/mcp/v2']) {
      const client = await connectMcp(`${app.url}${path}`, 'v2-legacy', { headers: { 'x-api-key': apiKey } });
      await client.close();
    }
    const keyId = Number(
      (await app.db.pool.query(`SELECT id FROM api_keys WHERE key_prefix = $1`, [apiKey.slice(0, 10)])).rows[0].id,
    );
    const page = await owner.browser.open(`${app.url}/dashboard/keys`);
    const revoked = await post(owner.browser, `${app.url}/dashboard/keys/${keyId}/revoke`, { csrf: csrfOf(page) });
    expect(revoked.url.search).toBe(`?revoked=${keyId}`);
    expect(textOf(revoked)).toMatch(/revoked \d{4}-\d{2}-\d{2}/);
    const rest = await app.request('GET', `/v1/credits?apiKey=${apiKey}`);
    expect(rest.status).toBe(401);
    for (const path of ['/mcp', '/mcp/v2', '/mcp/v3']) {
      const response = await fetch(`${app.url}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-api-key': apiKey,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'call_operation', arguments: { operationId: 'getCreditBalance', payload: {} } },
        }),
      });
      expect(response.status, path).toBe(401);
      await response.text();
    }
    await expect(connectMcp(`${app.url}/mcp`, 'v2-modern', { headers: { 'x-api-key': apiKey } })).rejects.toThrow();
  });

  it('logs each run with its key, credits and request id, finds a request id from an error, and keeps no secret', async () => {
    const { apiKey } = await createKey(app, owner.browser, { name: 'logged' });
    const ok = await search(apiKey, 2);
    const okId = ok.headers.get('x-request-id') as string;
    expect(ok.status).toBe(200);
    const bad = await fetch(`${app.url}/v1/company-search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ searchParams: { employeeCountV2: { min: 10, max: 1 } } }),
    });
    const badBody = (await bad.json()) as any;
    expect(bad.status).toBe(400);
    await expect
      .poll(
        async () =>
          (await app.db.pool.query(`SELECT 1 FROM request_log WHERE request_id = $1`, [badBody.error.requestId]))
            .rowCount,
      )
      .toBe(1);
    const found = await owner.browser.open(
      `${app.url}/dashboard/requests?requestId=${encodeURIComponent(badBody.error.requestId)}`,
    );
    const rows = found.text.match(/<tr data-request-id="[^"]+">/g) ?? [];
    expect(rows).toEqual([`<tr data-request-id="${badBody.error.requestId}">`]);
    expect(textOf(found)).toMatch(/companySearch 400 invalid_request 0 logged \(pds_\S+…\) rest/);
    await expect
      .poll(async () => (await app.db.pool.query(`SELECT 1 FROM request_log WHERE request_id = $1`, [okId])).rowCount)
      .toBe(1);
    const all = await owner.browser.open(`${app.url}/dashboard/requests?operation=companySearch&outcome=ok`);
    expect(textOf(all)).toMatch(new RegExp(`companySearch 200 2 logged \\(pds_\\S+…\\) rest ${okId}`));
    const stored = JSON.stringify(
      (await app.db.pool.query(`SELECT * FROM request_log WHERE account_id = $1`, [accountId])).rows,
    );
    expect(stored).not.toContain(apiKey);
    expect(stored).not.toMatch(/@/);
    // The ledger names the operation as it is called, its unit beside it, and the key, on the page and in its CSV.
    const usage = await owner.browser.open(`${app.url}/dashboard/usage`);
    expect(textOf(usage)).toMatch(
      new RegExp(`-2 [\\d,]+ companySearch getCompanyFromDb logged \\(pds_\\S+…\\) ${okId}`),
    );
    const csv = await owner.browser.open(`${app.url}/dashboard/usage/ledger.csv`);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.text.split(/\r?\n/)[0]).toBe(
      'time,credits,balance_after,operation_id,unit,group,key_id,key_name,request_id,reason',
    );
    expect(csv.text).toMatch(
      new RegExp(`,-2,\\d+,companySearch,getCompanyFromDb,search,\\d+,logged,${okId},company search`),
    );
  });

  it('keeps a member from revoking the keys of others (404), and lets an owner revoke any', async () => {
    const { apiKey } = await createKey(app, owner.browser, { name: 'owners key' });
    const keyId = Number(
      (await app.db.pool.query(`SELECT id FROM api_keys WHERE key_prefix = $1`, [apiKey.slice(0, 10)])).rows[0].id,
    );
    const memberId = Number(
      (
        await app.db.pool.query(
          `INSERT INTO account_members (account_id, email, role, issuer, subject) VALUES ($1, 'm@example.org', 'member', 'x', 'y') RETURNING id`,
          [accountId],
        )
      ).rows[0].id,
    );
    const { revokeApiKeyById } = await import('../../src/core/api-keys.js');
    await expect(revokeApiKeyById(app.db.pool, accountId, keyId, { memberId, role: 'member' })).rejects.toMatchObject({
      code: 'not_found',
    });
    expect((await app.request('GET', `/v1/credits?apiKey=${apiKey}`)).status).toBe(200);
    await revokeApiKeyById(app.db.pool, accountId, keyId, { memberId: 0, role: 'owner' });
    app.service.context.authenticator.forget(apiKey);
    expect((await app.request('GET', `/v1/credits?apiKey=${apiKey}`)).status).toBe(401);
  });
});
