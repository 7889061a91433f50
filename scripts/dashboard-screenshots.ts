import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { startScratchService } from './scratch-service.js';

/**
 * `npm run screenshots`: every page of the dashboard at 1280 and 375 px wide, into
 * docs/dashboard/, so that a reader sees it without running it. A scratch service with the
 * built-in development identity provider; a person signs up and uses it as the browser tests
 * do (keys, a search, an exclusion list, an audience and its export, an assistant connected
 * through /mcp/v3, a colleague invited and joined). So that the usage chart has a history to
 * show, the account's ledger gets two weeks of earlier charges written straight into the
 * database (the only thing here not made through the product). Needs Debian's chromium.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'docs', 'dashboard');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const widths = [1280, 375] as const;

const { service, stop } = await startScratchService('screenshots', {
  SEED_COMPANIES: '300',
  SEED_PEOPLE: '3000',
  OIDC_DEV_PROVIDER: 'true',
  JOB_WORKER: 'true',
  JOB_POLL_INTERVAL_MS: '50',
  // A watch list's changes within a minute, for its chart.
  NETWORK_SIMULATION_DAYS_PER_SECOND: '3',
});
const base = service.url;
const db = service.context.db.pool;
const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'], headless: true });
const shots: string[] = [];

/** The page at each width (a second context with the same cookies for the narrow one). */
async function shoot(page: Page, name: string, options: { url?: string } = {}): Promise<void> {
  const url = options.url ?? page.url();
  for (const width of widths) {
    let target = page;
    let narrow: BrowserContext | null = null;
    if (width !== 1280) {
      narrow = await browser.newContext({
        viewport: { width, height: 800 },
        storageState: await page.context().storageState(),
      });
      target = await narrow.newPage();
      await target.goto(url);
    } else if (options.url) await page.goto(url);
    await target.waitForLoadState('networkidle');
    const file = path.join(out, `${name}-${width}.png`);
    await target.screenshot({ path: file, fullPage: true });
    shots.push(path.relative(root, file));
    await narrow?.close();
  }
}

async function within<T>(what: string, ms: number, attempt: () => Promise<T | null>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await attempt();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not done within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** What the scripted calls read of an answer. */
interface Answer {
  output?: { audienceId?: string; exportId?: string; status?: string };
}

async function api(method: string, pathAndQuery: string, key: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${base}${pathAndQuery}`, {
    method,
    headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  return (await response.json()) as Answer;
}

try {
  await mkdir(out, { recursive: true });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();

  await page.goto(`${base}/dashboard`);
  await shoot(page, 'sign-in');
  await page.getByRole('button', { name: 'Continue with single sign-on' }).click();
  await page.getByLabel('Email').fill('ada@analytical.example');
  await page.getByRole('button', { name: 'Sign in with this email' }).click();
  await page.waitForURL(/\/dashboard\/welcome$/);
  await page.getByLabel('Account name').fill('Analytical Engines');
  await shoot(page, 'sign-up');
  await page.getByLabel(/I accept the/).check();
  await page.getByRole('button', { name: 'Create my account' }).click();
  await page.waitForURL(/\/dashboard\?welcome=1$/);
  const accountId = Number(
    (await db.query(`SELECT id FROM accounts WHERE email = 'ada@analytical.example'`)).rows[0].id,
  );
  await db.query(
    `WITH b AS (UPDATE credit_balances SET balance = balance + 5000 WHERE account_id = $1 RETURNING balance)
     INSERT INTO credit_ledger (account_id, amount, balance_after, unit, reason, created_at)
     SELECT $1, 5000, balance, 'grant', 'credits bought', now() - interval '15 days' FROM b`,
    [accountId],
  );

  // Two weeks of earlier charges, so the chart has something to draw.
  await db.query(
    `INSERT INTO credit_ledger (account_id, amount, balance_after, unit, reason, created_at)
     SELECT $1, -c, 1000, u, 'earlier work', now() - make_interval(days => d)
       FROM generate_series(1, 14) AS d,
            LATERAL (VALUES ('getCompanyFromDb', 20 + (d * 7) % 40), ('getPersonFromDb', 10 + (d * 5) % 25),
                            ('revealContact', CASE WHEN d % 3 = 0 THEN 12 ELSE 0 END)) AS x(u, c)
      WHERE c > 0`,
    [accountId],
  );

  await page.goto(`${base}/dashboard/keys`);
  for (const [name, extra] of [
    ['Reporting (read-only)', 'readOnly'],
    ['Claude on my laptop', 'cap'],
  ] as const) {
    await page.getByLabel('Name', { exact: true }).fill(name);
    if (extra === 'readOnly') await page.getByLabel(/Read-only/).check();
    else await page.getByLabel(/Daily credit cap/).fill('200');
    await page.getByRole('button', { name: 'Create key' }).click();
  }
  await page.getByLabel('Name', { exact: true }).fill('CRM sync');
  await page.getByRole('button', { name: 'Create key' }).click();
  const apiKey = ((await page.getByTestId('new-api-key').textContent()) ?? '').trim();
  await page.screenshot({ path: path.join(out, 'keys-new-key-1280.png'), fullPage: true });
  shots.push('docs/dashboard/keys-new-key-1280.png');

  // Work of the key: searches, a list, an audience built and exported.
  await api('POST', '/v1/company-search', apiKey, { searchParams: {}, pageSize: 25 });
  await api('POST', '/v1/people-search', apiKey, { searchParams: {}, pageSize: 10 });
  await api('POST', '/v1/company-count', apiKey, { searchParams: {} });
  await api('POST', '/v1/company-search', apiKey, { searchParams: { employeeCountV2: { min: 10, max: 1 } } });
  const audience = await api('POST', '/v1/audiences/create', apiKey, {
    name: 'Software companies',
    creationMethod: 'NORMAL',
  });
  const audienceId = audience.output?.audienceId as string | undefined;
  if (audienceId) {
    await api('PATCH', `/v1/audiences/${audienceId}/search-params`, apiKey, {
      companySearchParams: {},
      prospectSearchParams: {},
      maxCompanies: 40,
      maxProspects: 60,
    });
    await api('POST', `/v1/audiences/${audienceId}/build`, apiKey, {});
    await within('audience build', 30_000, async () => {
      const status = await api('GET', `/v1/audiences/${audienceId}`, apiKey);
      return status.output?.status === 'BUILDING' || status.output?.status === 'DRAFT' ? null : status;
    });
    const exported = await api('POST', `/v1/audiences/${audienceId}/export/companies`, apiKey, {});
    const exportId = exported.output?.exportId as string | undefined;
    if (exportId)
      await within('export', 30_000, async () => {
        const status = await api('GET', `/v1/audiences/${audienceId}/exports/${exportId}`, apiKey);
        return status.output?.status === 'READY' || status.output?.status === 'FAILED' ? status : null;
      });
  }
  await page.goto(`${base}/dashboard`);
  await shoot(page, 'overview');
  await shoot(page, 'keys', { url: `${base}/dashboard/keys` });
  await shoot(page, 'usage', { url: `${base}/dashboard/usage` });
  await shoot(page, 'requests', { url: `${base}/dashboard/requests` });

  // An assistant connected through /mcp/v3, by hand: registration, the person's approval, the code for tokens, one call.
  const redirectUri = 'http://127.0.0.1:9/callback';
  const client = (await (
    await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Claude Desktop',
        redirect_uris: [redirectUri],
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
      }),
      signal: AbortSignal.timeout(10_000),
    })
  ).json()) as { client_id: string };
  const { createHash, randomBytes } = await import('node:crypto');
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL(`${base}/oauth/authorize`);
  for (const [name, value] of Object.entries({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: redirectUri,
    scope: 'mcp:read mcp:spend offline_access',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: 'screenshots',
    resource: `${base}/mcp/v3`,
  }))
    authorize.searchParams.set(name, value);
  let code = '';
  await page.route(`${redirectUri}**`, async (route) => {
    code = new URL(route.request().url()).searchParams.get('code') ?? '';
    await route.fulfill({ status: 200, contentType: 'text/html', body: '<!DOCTYPE html><title>done</title>' });
  });
  await page.goto(authorize.href);
  await page.getByRole('button', { name: 'Approve' }).click();
  await within('authorization code', 10_000, async () => (code ? code : null));
  const tokens = (await (
    await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: redirectUri,
        client_id: client.client_id,
        resource: `${base}/mcp/v3`,
      }),
      signal: AbortSignal.timeout(10_000),
    })
  ).json()) as { access_token: string };
  await fetch(`${base}/mcp/v3`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${tokens.access_token}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    signal: AbortSignal.timeout(10_000),
  }).then((r) => r.text());
  await shoot(page, 'assistants', { url: `${base}/dashboard/assistants` });

  // Lists and audiences.
  await page.goto(`${base}/dashboard/data`);
  await page.getByLabel('Name').fill('Customers');
  await page.getByRole('button', { name: 'Create list' }).click();
  const domains = (await db.query(`SELECT domains[1] AS d FROM companies WHERE cardinality(domains) > 0 LIMIT 6`)).rows;
  await page
    .getByLabel('Or paste the rows')
    .fill(['domain', ...domains.map((r: { d: string }) => r.d), 'unknown-shop.example', 'not a domain'].join('\n'));
  const listUrl = page.url();
  await page.getByRole('button', { name: 'Add entries' }).click();
  await page.screenshot({ path: path.join(out, 'list-upload-1280.png'), fullPage: true });
  shots.push('docs/dashboard/list-upload-1280.png');
  await shoot(page, 'list', { url: listUrl });
  await shoot(page, 'data', { url: `${base}/dashboard/data` });

  // A watch list of people, its changes found on the fast network clock.
  await page.goto(`${base}/dashboard/watch-lists`);
  await page.getByLabel('Name').fill('Champions');
  await page.getByRole('button', { name: 'Create watch list' }).click();
  const watchListUrl = page.url();
  const slugs = (await db.query(`SELECT network_slug FROM people WHERE network_slug IS NOT NULL ORDER BY id LIMIT 30`))
    .rows;
  await page
    .getByLabel('Or paste the rows')
    .fill(['profile', ...slugs.map((r: { network_slug: string }) => r.network_slug), 'nobody-by-this-slug'].join('\n'));
  await page.getByRole('button', { name: 'Add items' }).click();
  await page.screenshot({ path: path.join(out, 'watch-list-upload-1280.png'), fullPage: true });
  shots.push('docs/dashboard/watch-list-upload-1280.png');
  // Weekly checks of 30 people on the account's credits: a few changes in a simulated half year.
  await within('changes on the watch list', 120_000, async () => {
    const found = await db.query(`SELECT count(*)::int AS n FROM watch_list_changes`);
    return found.rows[0].n >= 5 ? true : null;
  });
  await shoot(page, 'watch-list', { url: watchListUrl });
  await shoot(page, 'watch-lists', { url: `${base}/dashboard/watch-lists` });

  // A colleague invited, and joining.
  await page.goto(`${base}/dashboard/team`);
  await page.getByLabel('Email').fill('grace@analytical.example');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  const outbox = path.join(service.context.config.dataDir, 'outbox');
  const mail = await within('invitation mail', 10_000, async () => {
    for (const file of await readdir(outbox).catch(() => [] as string[]))
      if (file.endsWith('.eml')) {
        const text = await readFile(path.join(outbox, file), 'utf8');
        if (text.includes('To: grace@analytical.example')) return text;
      }
    return null;
  });
  const link = /(http:\/\/\S+\/dashboard\/invitations\/accept\?token=[A-Za-z0-9._%-]+)/.exec(
    mail.replace(/=\r?\n/g, '').replace(/=3D/g, '='),
  )?.[1] as string;
  await page.goto(`${base}/dashboard/team`);
  await shoot(page, 'team-invited');
  const grace = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const gracePage = await grace.newPage();
  await gracePage.goto(link);
  await gracePage.getByRole('button', { name: 'Continue with single sign-on' }).click();
  await gracePage.getByLabel('Email').fill('grace@analytical.example');
  await gracePage.getByRole('button', { name: 'Sign in with this email' }).click();
  await gracePage.waitForURL(/\/dashboard\/invitations\/accept/);
  await shoot(gracePage, 'invitation');
  await gracePage.getByLabel(/I accept the/).check();
  await gracePage.getByRole('button', { name: /^Join/ }).click();
  await gracePage.waitForURL(/joined=1/);
  await shoot(page, 'team', { url: `${base}/dashboard/team` });
  await shoot(page, 'terms', { url: `${base}/dashboard/terms` });
  await gracePage.getByRole('button', { name: 'Sign out' }).click();
  await gracePage.waitForURL(/signed-out$/);
  await shoot(gracePage, 'signed-out');
  await grace.close();
  await context.close();
  process.stdout.write(`Dashboard screenshots (${shots.length}):\n${shots.map((s) => `  ${s}`).join('\n')}\n`);
} finally {
  await browser.close();
  await stop();
}
