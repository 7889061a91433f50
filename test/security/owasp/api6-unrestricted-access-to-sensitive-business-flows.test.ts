import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HeadlessBrowser } from '../../auth/browser.js';
import { csrfOf, newEmail, post, signUp, startDashboardApp } from '../../dashboard/helpers.js';
import type { TestApp } from '../../helpers/app.js';

/**
 * OWASP API6, the part the other files do not cover: people sign up in the dashboard, so
 * automated sign-ups must be bounded. An account is made only after a single-sign-on sign-in,
 * and sign-ins start limited per client address (DASHBOARD_SIGN_INS_PER_HOUR); the other way in
 * is an owner's invitation, limited per account (DASHBOARD_INVITATIONS_PER_HOUR). Past either,
 * 429 with Retry-After, and nothing is made.
 */
describe('API6: automated sign-ups are bounded', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startDashboardApp({
      catalog: 'empty',
      env: { DASHBOARD_SIGN_INS_PER_HOUR: '3', DASHBOARD_INVITATIONS_PER_HOUR: '2' },
    });
    // The provider's first answer is slow on a loaded machine; asked once here, the sign-ins below do not time out on it.
    await fetch(`${app.url}/dev-idp/.well-known/openid-configuration`, { signal: AbortSignal.timeout(60_000) });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('limits the sign-ins one address may start, and so the accounts it may make', async () => {
    const accountsBefore = Number((await app.db.pool.query('SELECT count(*)::int AS n FROM accounts')).rows[0].n);
    // The first sign-up takes one of the three starts.
    await signUp(app, newEmail('bot-1'));
    const started: number[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const browser = new HeadlessBrowser();
      const page = await browser.open(`${app.url}/dashboard/sign-in`);
      // Stops at the identity provider: a start is what the limit counts.
      const answer = await browser.submit(page, null, (at) => at.pathname.startsWith('/dev-idp'), {}, '/sign-in');
      started.push(answer.status);
    }
    expect(started.slice(0, 2)).toEqual([0, 0]);
    const browser = new HeadlessBrowser();
    const page = await browser.open(`${app.url}/dashboard/sign-in`);
    const refused = await browser.submit(page, null, (at) => at.pathname.startsWith('/dev-idp'), {}, '/sign-in');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const accountsAfter = Number((await app.db.pool.query('SELECT count(*)::int AS n FROM accounts')).rows[0].n);
    expect(accountsAfter - accountsBefore).toBe(1);
  });

  it('limits the invitations an account may send an hour', async () => {
    await app.db.pool.query("DELETE FROM rate_limit_buckets WHERE rate_class = 'dashboard-sign-in'");
    const owner = await signUp(app, newEmail('inviter'));
    const team = await owner.browser.open(`${app.url}/dashboard/team`);
    const invite = (email: string) =>
      post(owner.browser, `${app.url}/dashboard/team/invitations`, { csrf: csrfOf(team), email, role: 'member' });
    expect((await invite(newEmail('one'))).url.search).toBe('?invited=1');
    expect((await invite(newEmail('two'))).url.search).toBe('?invited=1');
    const third = newEmail('three');
    const refused = await invite(third);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const stored = await app.db.pool.query('SELECT 1 FROM account_invitations WHERE email = $1', [third]);
    expect(stored.rowCount).toBe(0);
  });
});
