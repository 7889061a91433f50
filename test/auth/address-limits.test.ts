import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepExpiredOAuthRows } from '../../src/auth/adapter.js';
import { retentionTasks } from '../../src/service.js';
import { authorizationUrl, pkcePair, registerClient, startSsoApp, type SsoApp } from './helpers.js';

/**
 * What anyone may do at the authorization server without credentials, and which writes rows,
 * is limited per client address: starting a sign-in (an interaction, then an upstream login)
 * and registering a client. The address is the connection's unless TRUST_PROXY says a proxy
 * stands in front, and then it is the one that proxy forwarded: a client's own X-Forwarded-For
 * buys it nothing. Expired interactions and upstream logins are swept as soon as they expire.
 */
describe('per-address limits of the authorization server', () => {
  let direct: SsoApp;
  let proxied: SsoApp;
  beforeAll(async () => {
    const env = { OAUTH_SIGN_INS_PER_MINUTE: '5', OAUTH_REGISTRATIONS_PER_HOUR: '3' };
    direct = await startSsoApp({ env });
    proxied = await startSsoApp({ env: { ...env, TRUST_PROXY: 'true' } });
  });
  afterAll(async () => {
    await direct?.stop();
    await proxied?.stop();
  });

  const rows = async (sso: SsoApp) => {
    const { rows: counted } = await sso.app.db.pool.query<{ models: string; logins: string }>(
      `SELECT (SELECT count(*) FROM oauth_models WHERE kind <> 'Client') AS models,
              (SELECT count(*) FROM oauth_upstream_logins) AS logins`,
    );
    return Number(counted[0]?.models) + Number(counted[0]?.logins);
  };

  it('limits anonymous sign-in starts per address, so a flood writes a bounded number of rows', async () => {
    const client = await registerClient(direct, { client_name: 'Flood target' });
    const before = await rows(direct);
    const statuses: number[] = [];
    for (let i = 0; i < 40; i += 1) {
      const { challenge } = pkcePair();
      const answer = await fetch(authorizationUrl(direct, client.client_id, { challenge }), {
        redirect: 'manual',
        headers: { 'x-forwarded-for': `198.51.100.${i}` },
      });
      statuses.push(answer.status);
      if (answer.status === 429) {
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(((await answer.json()) as { error: string }).error).toBe('temporarily_unavailable');
      } else await answer.text();
    }
    expect(statuses.filter((status) => status !== 429)).toHaveLength(5);
    expect(statuses.slice(5).every((status) => status === 429)).toBe(true);
    // Two rows at most for each start that went through, none for the ones refused.
    expect((await rows(direct)) - before).toBeLessThanOrEqual(10);

    // The sign-in page (which writes an upstream login) is limited alike: here one address behind the proxy.
    const pages = [];
    for (let i = 0; i < 7; i += 1) {
      const page = await fetch(`${proxied.issuer}/interaction/some-interaction`, {
        headers: { 'x-forwarded-for': '192.0.2.77' },
      });
      await page.text();
      pages.push(page.status);
    }
    expect(pages.slice(0, 5).every((status) => status !== 429)).toBe(true);
    expect(pages.slice(5)).toEqual([429, 429]);
  });

  it('sweeps expired interactions and upstream logins at once, other models a day after expiry', async () => {
    const db = direct.app.db.pool;
    await db.query(
      `INSERT INTO oauth_models (kind, id, payload, expires_at) VALUES
         ('Interaction', 'expired-interaction', '{}', now() - interval '1 second'),
         ('dev-idp:Interaction', 'expired-dev-interaction', '{}', now() - interval '1 second'),
         ('AccessToken', 'recently-expired-token', '{}', now() - interval '1 hour'),
         ('AccessToken', 'long-expired-token', '{}', now() - interval '2 days')`,
    );
    await db.query(
      `INSERT INTO oauth_upstream_logins (state, interaction, code_verifier, nonce, expires_at)
       VALUES ('expired-state', 'x', 'v', 'n', now() - interval '1 second'), ('live-state', 'x', 'v', 'n', now() + interval '5 minutes')`,
    );
    await sweepExpiredOAuthRows(db);
    const left = await db.query<{ id: string }>(
      `SELECT id FROM oauth_models WHERE id IN ('expired-interaction', 'expired-dev-interaction', 'recently-expired-token', 'long-expired-token')`,
    );
    expect(left.rows.map((row) => row.id)).toEqual(['recently-expired-token']);
    const logins = await db.query<{ state: string }>(
      `SELECT state FROM oauth_upstream_logins WHERE state LIKE '%-state'`,
    );
    expect(logins.rows.map((row) => row.state)).toEqual(['live-state']);
    // An instance that stops writing still sweeps them with its retention tasks.
    expect(retentionTasks(direct.app.service.context).map((task) => task.sweep)).toContain(sweepExpiredOAuthRows);
  });

  const register = (sso: SsoApp, forwardedFor?: string) =>
    fetch(`${sso.issuer}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
      body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:9000/cb'], token_endpoint_auth_method: 'none' }),
    }).then(async (answer) => {
      await answer.text();
      return answer.status;
    });

  it('believes no X-Forwarded-For without TRUST_PROXY, from loopback or anywhere', async () => {
    // This file's first test registered one client from this address already.
    const statuses = [];
    for (const forged of ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4', '203.0.113.5'])
      statuses.push(await register(direct, forged));
    expect(statuses).toEqual([201, 201, 429, 429, 429]);
  });

  it('with TRUST_PROXY, counts the address the proxy forwarded, not what the client put before it', async () => {
    // The proxy appends the address it saw: the last entry is the client's, whatever it sent ahead of it.
    const statuses = [];
    for (const claimed of ['1.1.1.1', '1.1.1.2', '1.1.1.3', '1.1.1.4'])
      statuses.push(await register(proxied, `${claimed}, 203.0.113.50`));
    expect(statuses).toEqual([201, 201, 201, 429]);
    // Another client behind the same proxy has its own allowance.
    expect(await register(proxied, '203.0.113.51')).toBe(201);
  });
});
