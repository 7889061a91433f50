import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HeadlessBrowser } from '../auth/browser.js';
import type { TestApp } from '../helpers/app.js';
import { createKey, csrfOf, post, signUp, startDashboardApp, textOf } from './helpers.js';

/**
 * Keys changed after they are issued, in the dashboard: renamed, re-capped, given an expiry (past
 * it the key is refused as a revoked one is), rotated with an overlap window (the old key works
 * inside it and is refused after it); revoking a key and disconnecting an assistant ask first,
 * naming what they end; another account's key is not found.
 */
describe('dashboard key changes', () => {
  let app: TestApp;
  let owner: { browser: HeadlessBrowser; email: string };
  let stranger: { browser: HeadlessBrowser; email: string };
  let accountId: number;

  beforeAll(async () => {
    app = await startDashboardApp();
    owner = await signUp(app, undefined, 'Changing Keys Ltd');
    stranger = await signUp(app, undefined, 'Elsewhere Ltd');
    accountId = Number((await app.db.pool.query(`SELECT id FROM accounts WHERE email = $1`, [owner.email])).rows[0].id);
  });
  afterAll(async () => {
    await app?.stop();
  });

  const keyIdOf = async (apiKey: string) =>
    Number(
      (await app.db.pool.query(`SELECT id FROM api_keys WHERE key_prefix = $1`, [apiKey.slice(0, 10)])).rows[0].id,
    );
  const standing = async (apiKey: string) => {
    const answer = await app.request('GET', `/v1/credits?apiKey=${apiKey}`);
    return { status: answer.status, key: answer.status === 200 ? answer.body.output.key : null };
  };
  const change = async (browser: HeadlessBrowser, keyId: number, what: string, fields: Record<string, string>) => {
    const page = await browser.open(`${app.url}/dashboard/keys`);
    return post(browser, `${app.url}/dashboard/keys/${keyId}/${what}`, { csrf: csrfOf(page), ...fields });
  };
  const stored = async (keyId: number) =>
    (
      await app.db.pool.query(
        `SELECT label, daily_credit_cap, expires_at, revoked_at, replaced_by_key FROM api_keys WHERE account_id = $1 AND id = $2`,
        [accountId, keyId],
      )
    ).rows[0];

  it('renames a key, and the API answers with the new name at once', async () => {
    const { apiKey } = await createKey(app, owner.browser, { name: 'first name' });
    const keyId = await keyIdOf(apiKey);
    expect((await standing(apiKey)).key.name).toBe('first name');
    const list = await owner.browser.open(`${app.url}/dashboard/keys`);
    expect(list.text).toContain(`href="/dashboard/keys/${keyId}"`);
    const renamed = await change(owner.browser, keyId, 'name', { name: '  <b>CRM</b> sync  ' });
    expect(renamed.url.pathname).toBe(`/dashboard/keys/${keyId}`);
    expect(textOf(renamed)).toContain('The key was renamed.');
    expect(renamed.text).toContain('&lt;b&gt;CRM&lt;/b&gt; sync');
    expect(renamed.text).not.toContain('<b>CRM</b>');
    expect((await standing(apiKey)).key.name).toBe('<b>CRM</b> sync');
    const empty = await change(owner.browser, keyId, 'name', { name: '  ' });
    expect(empty.status).toBe(400);
    expect(textOf(empty)).toContain('name');
    expect((await stored(keyId)).label).toBe('<b>CRM</b> sync');
  });

  it('changes and removes a daily cap, held from the next call; a bad cap changes nothing', async () => {
    const { apiKey } = await createKey(app, owner.browser, { name: 'capped', dailyCreditCap: 10 });
    const keyId = await keyIdOf(apiKey);
    expect((await standing(apiKey)).key.dailyCreditCap).toBe(10);
    const lowered = await change(owner.browser, keyId, 'cap', { dailyCreditCap: '2' });
    expect(textOf(lowered)).toContain('The daily credit cap was changed');
    expect((await standing(apiKey)).key).toMatchObject({ dailyCreditCap: 2, remainingToday: 2 });
    // A search costing more than the new cap is refused, and the refusal names the page where the cap is changed.
    const refused = await fetch(`${app.url}/v1/company-search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ searchParams: {}, pageSize: 3 }),
    });
    expect(refused.status).toBe(429);
    const refusal = ((await refused.json()) as any).error;
    expect(refusal.code).toBe('key_spend_cap');
    expect(refusal.message).toContain('/dashboard/keys');
    expect(refusal.message).not.toMatch(/raise it in the dashboard\.$/);
    const bad = await change(owner.browser, keyId, 'cap', { dailyCreditCap: 'lots' });
    expect(bad.status).toBe(400);
    expect(textOf(bad)).toContain('daily credit cap');
    expect(Number((await stored(keyId)).daily_credit_cap)).toBe(2);
    const removed = await change(owner.browser, keyId, 'cap', { dailyCreditCap: '' });
    expect(removed.status).toBe(200);
    expect((await standing(apiKey)).key).toMatchObject({ dailyCreditCap: null, remainingToday: null });
    expect(textOf(await owner.browser.open(`${app.url}/dashboard/keys/${keyId}`))).toMatch(/Daily credit cap none/);
  });

  it('sets and clears an expiry; a key past it is refused on REST and MCP as a revoked one', async () => {
    const { apiKey } = await createKey(app, owner.browser, { name: 'expiring' });
    const keyId = await keyIdOf(apiKey);
    const today = new Date().toISOString().slice(0, 10);
    const midnight = new Date();
    midnight.setUTCHours(24, 0, 0, 0);
    const past = await change(owner.browser, keyId, 'expiry', { expiresOn: '2020-01-01' });
    expect(past.status).toBe(400);
    expect(textOf(past)).toContain('expiresAt');
    expect((await stored(keyId)).expires_at).toBeNull();
    const set = await change(owner.browser, keyId, 'expiry', { expiresOn: today });
    expect(textOf(set)).toContain('The expiry was changed');
    expect((await stored(keyId)).expires_at.toISOString()).toBe(midnight.toISOString());
    expect(textOf(set)).toContain(`works until ${midnight.toISOString().slice(0, 10)} 00:00 UTC`);
    expect((await standing(apiKey)).status).toBe(200);
    const cleared = await change(owner.browser, keyId, 'expiry', { expiresOn: '' });
    expect(textOf(cleared)).toContain('does not expire');
    expect((await stored(keyId)).expires_at).toBeNull();
    // The expiry reached: set in the past, as time would.
    await app.db.pool.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [keyId]);
    app.service.context.authenticator.forget(apiKey);
    expect((await standing(apiKey)).status).toBe(401);
    const mcp = await fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-api-key': apiKey,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(mcp.status).toBe(401);
    expect(await mcp.text()).toContain('this key expired at');
    const list = await owner.browser.open(`${app.url}/dashboard/keys`);
    expect(textOf(list)).toMatch(/<td>expiring<\/td>|expiring pds_\S+… .*? expired \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    expect(list.text).not.toContain(`/dashboard/keys/${keyId}/revoke`);
    // An expired key is not brought back by a change.
    expect((await change(owner.browser, keyId, 'expiry', { expiresOn: '' })).status).toBe(400);
    expect((await standing(apiKey)).status).toBe(401);
  });

  it('rotates a key: the new one is shown once with the same restrictions, the old one works until its window ends', async () => {
    const { apiKey: oldKey } = await createKey(app, owner.browser, { name: 'rotating', dailyCreditCap: 7 });
    const oldId = await keyIdOf(oldKey);
    expect((await change(owner.browser, oldId, 'rotate', { overlapHours: '73' })).status).toBe(400);
    expect((await change(owner.browser, oldId, 'rotate', { overlapHours: 'soon' })).status).toBe(400);
    expect((await stored(oldId)).replaced_by_key).toBeNull();
    const before = Date.now();
    const rotated = await change(owner.browser, oldId, 'rotate', { overlapHours: '2' });
    expect(rotated.status).toBe(201);
    const newKey = /data-testid="new-api-key">(pds_[A-Za-z0-9_-]+)</.exec(rotated.text)?.[1] as string;
    expect(newKey).toBeDefined();
    expect(newKey).not.toBe(oldKey);
    const newId = await keyIdOf(newKey);
    const old = await stored(oldId);
    expect(Number(old.replaced_by_key)).toBe(newId);
    const windowEnd = old.expires_at.getTime();
    expect(windowEnd).toBeGreaterThanOrEqual(before + 2 * 3600_000 - 5_000);
    expect(windowEnd).toBeLessThanOrEqual(Date.now() + 2 * 3600_000 + 5_000);
    expect(textOf(rotated)).toContain(`works until ${old.expires_at.toISOString().slice(0, 16).replace('T', ' ')} UTC`);
    // Inside the window both keys work; the new one has the old one's name and cap.
    expect((await standing(oldKey)).status).toBe(200);
    expect((await standing(newKey)).key).toMatchObject({ name: 'rotating', dailyCreditCap: 7 });
    // Rotating the old key again is refused: its successor is the one to rotate.
    expect((await change(owner.browser, oldId, 'rotate', { overlapHours: '1' })).status).toBe(400);
    // The window ends.
    await app.db.pool.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [oldId]);
    app.service.context.authenticator.forget(oldKey);
    expect((await standing(oldKey)).status).toBe(401);
    expect((await standing(newKey)).status).toBe(200);
    // No overlap: the old key is refused at once, with no cache to wait for.
    const zero = await change(owner.browser, newId, 'rotate', { overlapHours: '0' });
    expect(zero.status).toBe(201);
    expect((await standing(newKey)).status).toBe(401);
    const newest = /data-testid="new-api-key">(pds_[A-Za-z0-9_-]+)</.exec(zero.text)?.[1] as string;
    expect((await standing(newest)).status).toBe(200);
  });

  it('asks before revoking, naming the key; the question changes nothing, the answer revokes', async () => {
    const { apiKey } = await createKey(app, owner.browser, { name: 'Zapier <prod>' });
    const keyId = await keyIdOf(apiKey);
    const list = await owner.browser.open(`${app.url}/dashboard/keys`);
    expect(list.text).not.toContain(`action="/dashboard/keys/${keyId}/revoke"`);
    expect(list.text).toContain(`href="/dashboard/keys/${keyId}/revoke"`);
    const question = await owner.browser.open(`${app.url}/dashboard/keys/${keyId}/revoke`);
    expect(question.status).toBe(200);
    expect(textOf(question).replace(/\( | \)/g, (m) => m.trim())).toContain(
      `Revoking the key Zapier <prod> (${apiKey.slice(0, 10)}…) ends it`,
    );
    expect(question.text).toContain('Zapier &lt;prod&gt;');
    expect(question.text).toContain(`action="/dashboard/keys/${keyId}/revoke"`);
    expect((await standing(apiKey)).status).toBe(200);
    expect((await stored(keyId)).revoked_at).toBeNull();
    const answered = await post(owner.browser, `${app.url}/dashboard/keys/${keyId}/revoke`, { csrf: csrfOf(question) });
    expect(answered.url.search).toBe(`?revoked=${keyId}`);
    expect((await standing(apiKey)).status).toBe(401);
  });

  it('asks before disconnecting an assistant, naming it; the question changes nothing', async () => {
    const grantId = `grant-${Date.now()}`;
    await app.db.pool.query(
      `INSERT INTO oauth_models (kind, id, payload, account_id, client_id)
       VALUES ('Client', 'client-confirm', '{"client_name": "Claude <desktop>"}', NULL, NULL),
              ('Grant', $1, '{"openid": {"scope": "openid"}}', $2, 'client-confirm')`,
      [grantId, String(accountId)],
    );
    const assistants = await owner.browser.open(`${app.url}/dashboard/assistants`);
    expect(assistants.text).toContain(`href="/dashboard/assistants/${grantId}/disconnect"`);
    expect(assistants.text).not.toContain(`action="/dashboard/assistants/${grantId}/disconnect"`);
    const question = await owner.browser.open(`${app.url}/dashboard/assistants/${grantId}/disconnect`);
    expect(question.status).toBe(200);
    expect(textOf(question)).toContain('Disconnecting Claude <desktop> ends its access to Changing Keys Ltd');
    expect(question.text).not.toContain('Claude <desktop>');
    const grantCount = async () =>
      (await app.db.pool.query(`SELECT 1 FROM oauth_models WHERE kind = 'Grant' AND id = $1`, [grantId])).rowCount;
    expect(await grantCount()).toBe(1);
    expect((await stranger.browser.open(`${app.url}/dashboard/assistants/${grantId}/disconnect`)).status).toBe(404);
    const answered = await post(owner.browser, `${app.url}/dashboard/assistants/${grantId}/disconnect`, {
      csrf: csrfOf(question),
    });
    expect(answered.url.search).toBe('?disconnected=1');
    expect(await grantCount()).toBe(0);
  });

  it("answers another account's key as not found on every page and form, and changes nothing", async () => {
    const { apiKey } = await createKey(app, owner.browser, { name: 'mine', dailyCreditCap: 5 });
    const keyId = await keyIdOf(apiKey);
    const before = await stored(keyId);
    expect((await stranger.browser.open(`${app.url}/dashboard/keys/${keyId}`)).status).toBe(404);
    expect((await stranger.browser.open(`${app.url}/dashboard/keys/${keyId}/revoke`)).status).toBe(404);
    const attempts = await Promise.all([
      change(stranger.browser, keyId, 'name', { name: 'theirs' }),
      change(stranger.browser, keyId, 'cap', { dailyCreditCap: '' }),
      change(stranger.browser, keyId, 'expiry', { expiresOn: '' }),
      change(stranger.browser, keyId, 'rotate', { overlapHours: '0' }),
      change(stranger.browser, keyId, 'revoke', {}),
    ]);
    expect(attempts.map((a) => a.status)).toEqual([404, 404, 404, 404, 404]);
    expect(await stored(keyId)).toEqual(before);
    expect((await standing(apiKey)).key).toMatchObject({ name: 'mine', dailyCreditCap: 5 });
  });
});
