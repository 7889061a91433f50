import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HeadlessBrowser } from '../auth/browser.js';
import type { TestApp } from '../helpers/app.js';
import { createKey, csrfOf, newEmail, post, signIn, signUp, startDashboardApp, textOf } from './helpers.js';

/**
 * The dashboard's sessions and forms over HTTP: sign-up and sign-in through the development
 * provider, the session cookie, CSRF and same-origin refusals, session fixation, idle and
 * absolute ends, signing out (here and everywhere), and ids of another account answered 404.
 */
describe('dashboard sessions and forms', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startDashboardApp({ env: { DASHBOARD_SESSION_IDLE_MINUTES: '5' } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('sends a signed-out person to sign-in, on pages that forbid framing and inline code', async () => {
    const response = await fetch(`${app.url}/dashboard/usage?days=90`, { redirect: 'manual' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/dashboard/sign-in?next=%2Fdashboard%2Fusage%3Fdays%3D90');
    const signInPage = await fetch(`${app.url}/dashboard/sign-in`);
    const csp = signInPage.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(signInPage.headers.get('x-frame-options')).toBe('DENY');
    const html = await signInPage.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/\sstyle=/);
    expect(html).not.toMatch(/\son[a-z]+=/);
  });

  it('signs a new person up on the free plan with 500 credits, and keeps only a hash of the session', async () => {
    const email = newEmail('signup');
    const { browser, landed } = await signUp(app, email, 'Ada Widgets');
    expect(landed.url.pathname).toBe('/dashboard');
    expect(landed.text).toMatch(/data-testid="credit-balance">500</);
    expect(textOf(landed)).toContain('Next monthly grant: 500 credits');
    const account = await app.db.pool.query(`SELECT id, plan, email, name FROM accounts WHERE email = $1`, [email]);
    expect(account.rows[0]).toMatchObject({ plan: 'free', name: 'Ada Widgets' });
    const members = await app.db.pool.query(`SELECT role FROM account_members WHERE account_id = $1`, [
      account.rows[0].id,
    ]);
    expect(members.rows).toEqual([{ role: 'owner' }]);
    const link = await app.db.pool.query(`SELECT account_id FROM oauth_identities WHERE subject = $1`, [
      `email:${email}`,
    ]);
    expect(Number(link.rows[0].account_id)).toBe(Number(account.rows[0].id));
    // The cookie's value is not in the database: only its hash.
    const signedIn = await browser.open(`${app.url}/dashboard/keys`);
    expect(signedIn.status).toBe(200);
    const stored = await app.db.pool.query<{ id_hash: Buffer }>(
      `SELECT id_hash FROM dashboard_sessions WHERE subject = $1`,
      [`email:${email}`],
    );
    expect(stored.rows).toHaveLength(1);
    const cookieValue = (browser as unknown as { cookies: { name: string; value: string }[] }).cookies.find(
      (c) => c.name === 'pds_dashboard',
    )?.value as string;
    expect(stored.rows[0]?.id_hash.equals(createHash('sha256').update(cookieValue).digest())).toBe(true);
    expect(JSON.stringify(stored.rows)).not.toContain(cookieValue);
  });

  it('sets the session cookie HttpOnly and SameSite=Lax (Secure off only on loopback)', async () => {
    const cookies: string[] = [];
    const original = globalThis.fetch;
    globalThis.fetch = async (input, init) => {
      const response = await original(input, init);
      cookies.push(...response.headers.getSetCookie());
      return response;
    };
    try {
      await signUp(app, newEmail('cookie'));
    } finally {
      globalThis.fetch = original;
    }
    const session = cookies.find((c) => c.startsWith('pds_dashboard=') && !c.includes('Max-Age=0'));
    expect(session).toMatch(/; HttpOnly/);
    expect(session).toMatch(/; SameSite=Lax/);
    expect(session).not.toMatch(/; Secure/);
  });

  it('signs the demo person in to the demo account as its owner', async () => {
    const { landed } = await signIn(app, 'demo');
    expect(landed.url.pathname).toBe('/dashboard');
    expect(landed.text).toMatch(/data-testid="credit-balance">1,000,000</);
    const member = await app.db.pool.query(
      `SELECT m.role FROM account_members m JOIN accounts a ON a.id = m.account_id WHERE a.plan = 'demo'`,
    );
    expect(member.rows).toEqual([{ role: 'owner' }]);
  });

  it("refuses a form without its CSRF token, with another session's token, or from another origin, and does nothing", async () => {
    const first = await signUp(app, newEmail('csrf-a'));
    const second = await signUp(app, newEmail('csrf-b'));
    const keysOfSecond = await second.browser.open(`${app.url}/dashboard/keys`);
    const count = async () => Number((await app.db.pool.query(`SELECT count(*)::int AS n FROM api_keys`)).rows[0].n);
    const before = await count();
    const missing = await post(first.browser, `${app.url}/dashboard/keys`, { name: 'no token' });
    expect(missing.status).toBe(403);
    const foreign = await post(first.browser, `${app.url}/dashboard/keys`, {
      name: 'other token',
      csrf: csrfOf(keysOfSecond),
    });
    expect(foreign.status).toBe(403);
    const ownPage = await first.browser.open(`${app.url}/dashboard/keys`);
    const crossSite = await post(
      first.browser,
      `${app.url}/dashboard/keys`,
      { name: 'cross site', csrf: csrfOf(ownPage) },
      'http://evil.example',
    );
    expect(crossSite.status).toBe(403);
    expect(textOf(crossSite)).toContain('nothing was done');
    expect(await count()).toBe(before);
    // The same form, done right, works.
    const { apiKey } = await createKey(app, first.browser, { name: 'proper' });
    expect(apiKey).toMatch(/^pds_/);
    expect(await count()).toBe(before + 1);
  });

  it('never takes up a session id planted before sign-in, and issues a new one at every sign-in', async () => {
    const browser = new HeadlessBrowser();
    const planted = 'A'.repeat(43);
    (browser as unknown as { cookies: unknown[] }).cookies.push({
      name: 'pds_dashboard',
      value: planted,
      host: new URL(app.url).hostname,
      path: '/',
    });
    const email = newEmail('fixation');
    await signIn(app, email, browser);
    const cookieOf = () =>
      (browser as unknown as { cookies: { name: string; value: string }[] }).cookies.find(
        (c) => c.name === 'pds_dashboard',
      )?.value;
    const first = cookieOf();
    expect(first).toBeDefined();
    expect(first).not.toBe(planted);
    // An attacker holding the planted value has nothing.
    const attacker = await fetch(`${app.url}/dashboard/welcome`, {
      headers: { cookie: `pds_dashboard=${planted}` },
      redirect: 'manual',
    });
    expect(attacker.headers.get('location')).toBe('/dashboard/sign-in');
    // Signing in again replaces the session: the old id ends.
    await signIn(app, email, browser);
    const second = cookieOf();
    expect(second).not.toBe(first);
    const old = await fetch(`${app.url}/dashboard/welcome`, {
      headers: { cookie: `pds_dashboard=${first}` },
      redirect: 'manual',
    });
    expect(old.headers.get('location')).toBe('/dashboard/sign-in');
  });

  it('refuses a sign-in answer brought to another browser (login CSRF)', async () => {
    const victim = new HeadlessBrowser();
    const attacker = new HeadlessBrowser();
    // The victim has a sign-in of their own under way; the attacker's answer is not theirs.
    const victimPage = await victim.open(`${app.url}/dashboard/sign-in`);
    await victim.submit(victimPage, null, (url) => url.pathname.startsWith('/dev-idp'), {}, '/dashboard/sign-in');
    const signInPage = await attacker.open(`${app.url}/dashboard/sign-in`);
    const idp = await attacker.submit(signInPage, null, undefined, {}, '/dashboard/sign-in');
    const callback = await attacker.submit(
      idp,
      null,
      (url) => url.pathname === '/dashboard/sign-in/callback',
      { email: newEmail('attacker') },
      'login-email',
    );
    const stolen = callback.url;
    expect(stolen.pathname).toBe('/dashboard/sign-in/callback');
    const replay = await victim.open(stolen);
    expect(replay.status).toBe(400);
    expect(textOf(replay)).toMatch(/another sign-in in progress|Nobody was signed in/);
    expect(
      await app.db.pool.query(`SELECT 1 FROM dashboard_sessions WHERE subject LIKE 'email:attacker-%'`),
    ).toMatchObject({
      rowCount: 0,
    });
  });

  it('ends a session that was idle too long', async () => {
    const email = newEmail('idle');
    const { browser } = await signUp(app, email);
    expect((await browser.open(`${app.url}/dashboard/keys`)).url.pathname).toBe('/dashboard/keys');
    await app.db.pool.query(
      `UPDATE dashboard_sessions SET last_seen_at = now() - interval '6 minutes' WHERE subject = $1`,
      [`email:${email}`],
    );
    expect((await browser.open(`${app.url}/dashboard/keys`)).url.pathname).toBe('/dashboard/sign-in');
  });

  it('signs out here, and everywhere', async () => {
    const email = newEmail('signout');
    const laptop = await signUp(app, email);
    const phone = await signIn(app, email);
    expect(phone.landed.url.pathname).toBe('/dashboard');
    const overview = await laptop.browser.open(`${app.url}/dashboard`);
    const out = await post(laptop.browser, `${app.url}/dashboard/sign-out`, { csrf: csrfOf(overview) });
    expect(out.url.pathname).toBe('/dashboard/signed-out');
    expect((await laptop.browser.open(`${app.url}/dashboard/keys`)).url.pathname).toBe('/dashboard/sign-in');
    expect((await phone.browser.open(`${app.url}/dashboard/keys`)).url.pathname).toBe('/dashboard/keys');
    const tablet = await signIn(app, email);
    const team = await phone.browser.open(`${app.url}/dashboard/team`);
    await post(phone.browser, `${app.url}/dashboard/sign-out-everywhere`, { csrf: csrfOf(team) });
    expect((await phone.browser.open(`${app.url}/dashboard/keys`)).url.pathname).toBe('/dashboard/sign-in');
    expect((await tablet.browser.open(`${app.url}/dashboard/keys`)).url.pathname).toBe('/dashboard/sign-in');
    const left = await app.db.pool.query(`SELECT count(*)::int AS n FROM dashboard_sessions WHERE subject = $1`, [
      `email:${email}`,
    ]);
    expect(left.rows[0].n).toBe(0);
  });

  it("answers another account's ids 404 and changes nothing", async () => {
    const owner = await signUp(app, newEmail('owner-a'));
    const { apiKey } = await createKey(app, owner.browser, { name: 'A key' });
    const keyId = Number(
      (await app.db.pool.query(`SELECT id FROM api_keys WHERE key_prefix = $1`, [apiKey.slice(0, 10)])).rows[0].id,
    );
    const accountA = Number(
      (await app.db.pool.query(`SELECT account_id FROM api_keys WHERE id = $1`, [keyId])).rows[0].account_id,
    );
    const list = await app.request('POST', '/v1/exclusion-lists', { apiKey, name: 'A list', kind: 'companies' });
    const listId = list.body.output.exclusionListId;
    const memberA = Number(
      (await app.db.pool.query(`SELECT id FROM account_members WHERE account_id = $1`, [accountA])).rows[0].id,
    );

    const other = await signUp(app, newEmail('owner-b'));
    const page = await other.browser.open(`${app.url}/dashboard/keys`);
    const csrf = csrfOf(page);
    const attempts = [
      await post(other.browser, `${app.url}/dashboard/keys/${keyId}/revoke`, { csrf }),
      await other.browser.open(`${app.url}/dashboard/lists/${listId}`),
      await other.browser.open(`${app.url}/dashboard/lists/${listId}/entries.csv`),
      await post(other.browser, `${app.url}/dashboard/lists/${listId}/upload`, { csrf, csv: 'example.com' }),
      await post(other.browser, `${app.url}/dashboard/team/members/${memberA}/remove`, { csrf }),
      await post(other.browser, `${app.url}/dashboard/team/invitations/1/revoke`, { csrf }),
      await post(other.browser, `${app.url}/dashboard/assistants/some-grant-id/disconnect`, { csrf }),
    ];
    expect(attempts.map((a) => a.status)).toEqual([404, 404, 404, 404, 404, 404, 404]);
    expect((await app.request('GET', `/v1/credits?apiKey=${apiKey}`)).status).toBe(200);
    const entries = await app.request('GET', `/v1/exclusion-lists/${listId}/entries?apiKey=${apiKey}`);
    expect(entries.body.output.data).toEqual([]);
  });
});

describe('dashboard sign-in limits', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startDashboardApp({ catalog: 'empty', env: { DASHBOARD_SIGN_INS_PER_HOUR: '2' } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('limits the sign-ins started from one address, and says when to retry', async () => {
    const browser = new HeadlessBrowser();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const page = await browser.open(`${app.url}/dashboard/sign-in`);
      const sent = await browser.submit(
        page,
        null,
        (url) => url.pathname.startsWith('/dev-idp'),
        {},
        '/dashboard/sign-in',
      );
      statuses.push(sent.status);
    }
    expect(statuses).toEqual([0, 0, 429]);
  });
});
