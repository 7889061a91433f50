import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordingOAuthProvider } from '../auth/helpers.js';
import type { TestApp } from '../helpers/app.js';
import { invitationLinkIn, lastMailTo, newEmail, startDashboardApp } from './helpers.js';

/**
 * The dashboard in a real browser (Debian's chromium through playwright-core), end to end as the
 * issue lists it: a new person signs up through the development provider, sees 500 credits,
 * creates a key and spends with it from the page, sees the search on the usage page with its
 * chart, revokes the key (then refused); another new person sees nothing of the first; an
 * assistant connected through /mcp/v3 is listed and disconnected (its next call is 401); an
 * invitation is accepted by a second person; signing out ends the session. axe-core checks every
 * page visited (no serious or critical violation); framing and cross-site forms are refused.
 */
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe('the dashboard in chromium', () => {
  let app: TestApp;
  let browser: Browser;
  let site: Server;
  let siteOrigin: string;
  const audited = new Map<string, string[]>();

  beforeAll(async () => {
    if (!existsSync(chromiumPath)) {
      throw new Error(
        `Chromium is not installed at ${chromiumPath}: install it with "apt-get install -y chromium" (as .ci/run does), or set CHROMIUM_PATH.`,
      );
    }
    app = await startDashboardApp();
    browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'], headless: true });
    // Another site: a page that frames the dashboard, and one whose form posts to it.
    site = createServer((req, res) => {
      const target = new URL(req.url ?? '/', 'http://site').searchParams.get('target') ?? '';
      res.writeHead(200, { 'content-type': 'text/html' });
      if (req.url?.startsWith('/frame')) res.end(`<!DOCTYPE html><iframe id="f" src="${target}"></iframe>`);
      else if (req.url?.startsWith('/form'))
        res.end(
          `<!DOCTYPE html><form id="f" method="post" action="${target}"><input name="name" value="planted by another site"><button>go</button></form>`,
        );
      else res.end('<!DOCTYPE html><title>callback</title>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteOrigin = `http://localhost:${(site.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await browser?.close();
    site?.close();
    await app?.stop();
  });

  /** axe-core on the page as it is: no serious or critical violation. */
  async function audit(page: Page, name: string): Promise<void> {
    const results = await new AxeBuilder({ page }).analyze();
    const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    audited.set(
      name,
      bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    );
    expect(bad.map((v) => `${name}: ${v.id} ${v.help} ${v.nodes.map((n) => n.html).join(' | ')}`)).toEqual([]);
  }

  /** A locator's text once it is there (playwright-core has no auto-waiting assertions: wait, then read). */
  async function textOf(locator: Locator): Promise<string> {
    await locator.first().waitFor();
    return (await locator.first().innerText()).trim();
  }

  async function newPerson(width = 1280): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    return { context, page: await context.newPage() };
  }

  /** Through the development provider, typing the address in its Email field. */
  async function signInAs(page: Page, email: string, start = `${app.url}/dashboard`): Promise<void> {
    await page.goto(start);
    await page.waitForURL(/\/dashboard\/sign-in/);
    await audit(page, 'sign-in');
    await page.getByRole('button', { name: 'Continue with single sign-on' }).click();
    await page.waitForURL(/\/dev-idp\/interaction\//);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Sign in with this email' }).click();
    await page.waitForURL(
      (url) => url.pathname.startsWith('/dashboard') && !url.pathname.startsWith('/dashboard/sign-in'),
    );
  }

  async function signUpAs(page: Page, email: string, accountName: string): Promise<void> {
    await signInAs(page, email);
    await page.waitForURL(/\/dashboard\/welcome$/);
    await audit(page, 'welcome');
    await page.getByLabel('Account name').fill(accountName);
    await page.getByLabel(/I accept the/).check();
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.waitForURL(/\/dashboard\?welcome=1$/);
  }

  it('walks a new person from sign-up to a revoked key, and a second person sees nothing of it', async () => {
    const { context, page } = await newPerson();
    const email = newEmail('browser');
    await signUpAs(page, email, 'Browser Co');
    expect(await textOf(page.getByTestId('credit-balance'))).toBe('500');
    await audit(page, 'overview');

    await page.getByRole('link', { name: 'API keys', exact: true }).click();
    await page.getByLabel('Name', { exact: true }).fill('from the browser');
    await page.getByRole('button', { name: 'Create key' }).click();
    const apiKey = ((await page.getByTestId('new-api-key').textContent()) ?? '').trim();
    expect(apiKey).toMatch(/^pds_[A-Za-z0-9_-]{43}$/);
    // The copy button is the script's: shown only when it can work.
    await page.getByRole('button', { name: 'Copy' }).waitFor({ state: 'visible' });
    await audit(page, 'keys');

    const searched = await page.evaluate(
      async ({ base, key }) => {
        const response = await fetch(`${base}/v1/company-search`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': key },
          body: JSON.stringify({ searchParams: {}, pageSize: 7 }),
        });
        return {
          status: response.status,
          requestId: response.headers.get('x-request-id'),
          body: (await response.json()) as any,
        };
      },
      { base: app.url, key: apiKey },
    );
    expect(searched.status).toBe(200);
    expect(searched.body.chargeInfo.creditsCharged).toBe(7);

    await page.getByRole('link', { name: 'Usage', exact: true }).click();
    expect(await textOf(page.getByTestId('credit-balance'))).toBe('493');
    const ledgerRow = page.locator('#ledger-table tbody tr').first();
    expect(await textOf(ledgerRow)).toContain('-7');
    expect(await textOf(ledgerRow)).toContain('getCompanyFromDb');
    expect(await textOf(ledgerRow)).toContain('from the browser');
    expect(await textOf(ledgerRow)).toContain(searched.requestId as string);
    // The chart is drawn from the table's numbers, by the script served from this app.
    await expect.poll(() => page.locator('#usage-chart canvas').count()).toBe(1);
    const canvas = await page.locator('#usage-chart canvas').boundingBox();
    expect(canvas?.width).toBeGreaterThan(200);
    expect(canvas?.height).toBeGreaterThan(100);
    await page.getByText('The same numbers as a table').click();
    const today = new Date().toISOString().slice(0, 10);
    expect(await textOf(page.locator('#usage-table tbody tr', { hasText: today }))).toContain('7');
    await audit(page, 'usage');
    await page.getByRole('link', { name: '90 days' }).click();
    await expect.poll(() => page.locator('#usage-table tbody tr').count()).toBe(90);

    await page.getByRole('link', { name: 'Requests', exact: true }).click();
    expect(await textOf(page.locator(`tr[data-request-id="${searched.requestId}"]`))).toContain('companySearch');
    await audit(page, 'requests');

    await page.getByRole('link', { name: 'API keys', exact: true }).click();
    await page.getByRole('link', { name: /^Change/ }).click();
    await page.getByLabel('Name', { exact: true }).fill('renamed in the browser');
    await page.getByRole('button', { name: 'Rename' }).click();
    expect(await textOf(page.getByRole('status'))).toContain('renamed');
    await audit(page, 'key');
    // Revoking asks first, naming the key; the question changes nothing.
    await page.getByRole('link', { name: /^Revoke/ }).click();
    expect(await textOf(page.getByRole('heading', { level: 1 }))).toContain('renamed in the browser');
    await audit(page, 'revoke-key');
    await page.getByRole('button', { name: /^Revoke/ }).click();
    expect(await textOf(page.getByRole('status'))).toContain('revoked');
    const refused = await page.evaluate(
      async ({ base, key }) => (await fetch(`${base}/v1/credits`, { headers: { 'x-api-key': key } })).status,
      { base: app.url, key: apiKey },
    );
    expect(refused).toBe(401);

    // Another new person sees nothing of the first.
    const other = await newPerson();
    await signUpAs(other.page, newEmail('other'), 'Other Co');
    await other.page.goto(`${app.url}/dashboard/keys`);
    expect(await textOf(other.page.locator('body'))).not.toContain('from the browser');
    await other.page.goto(`${app.url}/dashboard/usage`);
    expect(await textOf(other.page.locator('#ledger-table'))).not.toContain('getCompanyFromDb');
    await other.page.goto(`${app.url}/dashboard/requests`);
    expect(await textOf(other.page.locator('#requests-table'))).toContain('No requests yet');
    const foreign = await other.page.goto(`${app.url}/dashboard/requests?requestId=${searched.requestId}`);
    expect(foreign?.status()).toBe(200);
    expect(await textOf(other.page.locator('#requests-table'))).toContain('No requests match');
    await other.context.close();
    await context.close();
  });

  it('lists an assistant connected through /mcp/v3 and disconnects it: its next call is 401', async () => {
    const { context, page } = await newPerson();
    await signUpAs(page, newEmail('assistant-owner'), 'Assistant Co');
    const redirectUri = `http://127.0.0.1:${(site.address() as AddressInfo).port}/callback`;
    const provider = new RecordingOAuthProvider({ redirectUri, clientName: 'Browser Test Assistant' });
    const transport = new StreamableHTTPClientTransport(new URL(`${app.url}/mcp/v3`), { authProvider: provider });
    await new Client({ name: 'assistant', version: '1' }).connect(transport).catch(() => undefined);
    // The person approves in the same browser, already signed in at the development provider.
    await page.goto(provider.lastAuthorizationUrl.href);
    await page.waitForURL(/\/oauth\/interaction\//);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL((url) => url.href.startsWith(redirectUri));
    await transport.finishAuth(new URL(page.url()).searchParams);
    const client = new Client({ name: 'assistant', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp/v3`), { authProvider: provider }));
    const balance = await client.callTool({
      name: 'call_operation',
      arguments: { operationId: 'getCreditBalance', payload: {} },
    });
    expect((balance.structuredContent as { output: { balance: number } }).output.balance).toBe(500);

    await page.goto(`${app.url}/dashboard/assistants`);
    const card = page.locator('li.card', { hasText: 'Browser Test Assistant' });
    expect(await textOf(card)).toContain('registered dynamically');
    expect(await textOf(card)).toContain('spend credits');
    expect(await textOf(card.locator('dd').nth(4))).not.toBe('not yet');
    await audit(page, 'assistants');
    await card.getByRole('link', { name: /Disconnect/ }).click();
    expect(await textOf(page.getByRole('heading', { level: 1 }))).toContain('Browser Test Assistant');
    await audit(page, 'disconnect-assistant');
    await page.getByRole('button', { name: /Disconnect/ }).click();
    expect(await textOf(page.getByRole('status'))).toContain('disconnected');
    await expect.poll(() => page.locator('li.card', { hasText: 'Browser Test Assistant' }).count()).toBe(0);
    const token = provider.currentTokens.access_token;
    const after = await fetch(`${app.url}/mcp/v3`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(after.status).toBe(401);
    // The disconnected assistant's token opens no other surface either.
    for (const path of ['/mcp', '/mcp/v2', '/v1/credits']) {
      const response = await fetch(`${app.url}${path}`, {
        method: path.startsWith('/v1') ? 'GET' : 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
        },
        ...(path.startsWith('/v1') ? {} : { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) }),
      });
      expect(response.status, path).toBe(401);
    }
    await client.close().catch(() => undefined);
    await context.close();
  });

  it('lets an invited second person join, and signing out ends the session', async () => {
    const owner = await newPerson();
    await signUpAs(owner.page, newEmail('inviter'), 'Invite Co');
    await owner.page.getByRole('link', { name: 'Team' }).click();
    await audit(owner.page, 'team');
    const invitee = newEmail('joiner');
    await owner.page.getByLabel('Email').fill(invitee);
    await owner.page.getByRole('button', { name: 'Send invitation' }).click();
    expect(await textOf(owner.page.getByRole('status'))).toContain('Invitation mailed');
    expect(await textOf(owner.page.locator('main'))).toContain(invitee);

    const second = await newPerson(375);
    const link = invitationLinkIn(await lastMailTo(app, invitee));
    await signInAs(second.page, invitee, link);
    await second.page.waitForURL(/\/dashboard\/invitations\/accept/);
    await audit(second.page, 'invitation');
    await second.page.getByLabel(/I accept the/).check();
    await second.page.getByRole('button', { name: 'Join Invite Co' }).click();
    expect(await textOf(second.page.getByRole('status'))).toContain('You joined Invite Co');
    expect(await textOf(second.page.locator('header'))).toContain('Invite Co (member)');
    await owner.page.reload();
    expect(await textOf(owner.page.locator('#members-table'))).toContain(invitee);

    await second.page.getByRole('button', { name: 'Sign out' }).click();
    await second.page.waitForURL(/\/dashboard\/signed-out$/);
    await audit(second.page, 'signed-out');
    await second.page.goto(`${app.url}/dashboard/keys`);
    await second.page.waitForURL(/\/dashboard\/sign-in/);
    await second.context.close();
    await owner.context.close();
  });

  it('passes axe on the data pages and the terms, and uploads a CSV of domains with a report', async () => {
    const { context, page } = await newPerson();
    await signUpAs(page, newEmail('lists'), 'Lists Co');
    await page.getByRole('link', { name: 'Audiences and lists' }).click();
    await audit(page, 'data');
    await page.getByLabel('Name').fill('Customers');
    await page.getByRole('button', { name: 'Create list' }).click();
    expect(await textOf(page.locator('h1'))).toBe('Customers');
    await page
      .getByLabel('Or paste the rows')
      .fill('domain\nexample.com\nnot a domain\nhttps://www.acme.example/about\n');
    await page.getByRole('button', { name: 'Add entries' }).click();
    expect(await textOf(page.getByTestId('added'))).toBe('2');
    expect(await textOf(page.getByTestId('not-understood'))).toBe('1');
    expect(await textOf(page.locator('.report'))).toContain('line 3');
    await audit(page, 'list');
    await page.goto(`${app.url}/dashboard/terms`);
    await audit(page, 'terms');
    await context.close();
  });

  it('adds people to a watch list from pasted rows, draws its chart, and passes axe at 1280 and at 390 px', async () => {
    const { context, page } = await newPerson();
    await signUpAs(page, newEmail('watching'), 'Watching Co');
    await page.getByRole('link', { name: 'Watch lists' }).click();
    await audit(page, 'watch-lists');
    await page.getByLabel('Name').fill('Champions');
    await page.getByLabel('Kind').selectOption('people');
    await page.getByRole('button', { name: 'Create watch list' }).click();
    expect(await textOf(page.locator('h1'))).toBe('Champions');
    const listPath = new URL(page.url()).pathname;
    const slugs = (
      await app.db.pool.query<{ network_slug: string }>(
        'SELECT network_slug FROM people WHERE network_slug IS NOT NULL ORDER BY id LIMIT 3',
      )
    ).rows.map((r) => r.network_slug);
    await page.getByLabel('Or paste the rows').fill(['profile', ...slugs, 'nobody-by-this-slug-zz9'].join('\n'));
    await page.getByRole('button', { name: 'Add items' }).click();
    expect(await textOf(page.getByTestId('added'))).toBe(String(slugs.length));
    expect(await textOf(page.getByTestId('unresolved'))).toBe('1');
    expect(await textOf(page.locator('.report'))).toContain('line 5');
    await page.locator('#changes-chart[data-drawn="true"] canvas').waitFor();
    await audit(page, 'watch-list');
    await page.setViewportSize({ width: 390, height: 800 });
    await audit(page, 'watch-list at 390 px');
    await page.goto(`${app.url}/dashboard/watch-lists`);
    await audit(page, 'watch-lists at 390 px');
    expect(await page.getByRole('link', { name: 'Champions' }).getAttribute('href')).toBe(listPath);
    await context.close();
  });

  it('passes axe at 390 px on every page with a table', async () => {
    const { context, page } = await newPerson(390);
    await signUpAs(page, newEmail('narrow-axe'), 'Narrow Axe Co');
    for (const path of ['', '/keys', '/usage', '/requests', '/assistants', '/data', '/watch-lists', '/team']) {
      await page.goto(`${app.url}/dashboard${path}`);
      await audit(page, `${path || '/'} at 390 px`);
    }
    await context.close();
  });

  it('refuses to be framed, and refuses a form posted from another site', async () => {
    const { context, page } = await newPerson();
    await signUpAs(page, newEmail('framed'), 'Framed Co');
    const attacker = await context.newPage();
    const blocked = attacker.waitForEvent('console', (message) => /frame-ancestors/.test(message.text()));
    await attacker.goto(`${siteOrigin}/frame?target=${encodeURIComponent(`${app.url}/dashboard/keys`)}`);
    expect((await blocked).text()).toContain("frame-ancestors 'none'");
    const frame = attacker.frames().find((f) => f !== attacker.mainFrame());
    expect(await frame?.locator('button', { hasText: 'Create key' }).count()).toBe(0);

    const keysBefore = await app.db.pool.query(`SELECT count(*)::int AS n FROM api_keys`);
    await attacker.goto(`${siteOrigin}/form?target=${encodeURIComponent(`${app.url}/dashboard/keys`)}`);
    const [response] = await Promise.all([
      attacker.waitForResponse((r) => r.url() === `${app.url}/dashboard/keys` && r.request().method() === 'POST'),
      attacker.locator('#f button').click(),
    ]);
    expect(response.status()).toBe(403);
    const keysAfter = await app.db.pool.query(`SELECT count(*)::int AS n FROM api_keys`);
    expect(keysAfter.rows[0].n).toBe(keysBefore.rows[0].n);
    await context.close();
  });

  it('is legible at 375 px and at 200 % zoom (1280 px seen as 640): no page scrolls sideways', async () => {
    const { context, page } = await newPerson(375);
    await signUpAs(page, newEmail('narrow'), 'Narrow Co');
    const pages = ['', '/keys', '/usage', '/requests', '/assistants', '/data', '/watch-lists', '/team', '/terms'];
    for (const [width, path] of [375, 640].flatMap((w) => pages.map((p) => [w, p] as const))) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`${app.url}/dashboard${path}`);
      const overflow = await page.evaluate(() => {
        const root = (
          globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
        ).document.documentElement;
        return root.scrollWidth - root.clientWidth;
      });
      expect(overflow, `${path} at ${width} px`).toBeLessThanOrEqual(0);
    }
    await context.close();
  });
});
