import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HeadlessBrowser } from '../auth/browser.js';
import type { TestApp } from '../helpers/app.js';
import { signUp, startDashboardApp } from './helpers.js';

/**
 * The return path of the dashboard's sign-in over HTTP (finding 1 of issue 30): signed in,
 * `/dashboard/sign-in?next=/dashboard/../oauth/authorize?...` answered a Location the browser
 * resolved to /oauth/authorize, from where an error went to a registered client's redirect URI.
 * Now every spelling that leaves /dashboard/ once resolved sends the person to /dashboard.
 */
describe('the sign-in return path', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startDashboardApp();
    // The provider's first answer is slow on a loaded machine; asked once here, the sign-ins below do not time out on it.
    await fetch(`${app.url}/dev-idp/.well-known/openid-configuration`, { signal: AbortSignal.timeout(60_000) });
  });
  afterAll(async () => {
    await app?.stop();
  });

  const leaving = [
    '/dashboard/../oauth/authorize?client_id=x&scope=nothing',
    '/dashboard/keys/../../oauth/authorize?client_id=x',
    '/dashboard/%2e%2e/oauth/authorize?client_id=x',
    '/dashboard/%2E%2E/oauth/authorize?client_id=x',
    '/dashboard\\..\\oauth\\authorize',
    '/dashboard/%0d%0alocation:%20https://evil.example/',
  ];

  it('sends a signed-in person to /dashboard, not out of it, whatever the dots', async () => {
    const { browser } = await signUp(app);
    for (const next of leaving) {
      const url = `${app.url}/dashboard/sign-in?next=${encodeURIComponent(next)}`;
      const landed = await browser.open(url, (at) => !at.pathname.startsWith('/dashboard/sign-in'));
      // The browser resolved the Location: where it went is where the person is.
      expect(landed.url.pathname, next).toBe('/dashboard');
      expect(
        browser.visited.some((at) => at.pathname.startsWith('/oauth')),
        next,
      ).toBe(false);
    }
    const inside = await browser.open(
      `${app.url}/dashboard/sign-in?next=${encodeURIComponent('/dashboard/usage?days=90')}`,
      (at) => !at.pathname.startsWith('/dashboard/sign-in'),
    );
    expect(`${inside.url.pathname}${inside.url.search}`).toBe('/dashboard/usage?days=90');
  });

  it('carries only a safe return path through the sign-in form of a signed-out person', async () => {
    for (const next of leaving) {
      const page = await new HeadlessBrowser().open(`${app.url}/dashboard/sign-in?next=${encodeURIComponent(next)}`);
      expect(page.status).toBe(200);
      expect(page.text, next).toContain('<input type="hidden" name="next" value="/dashboard" />');
    }
  });
});
