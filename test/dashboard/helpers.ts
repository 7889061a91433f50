import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { HeadlessBrowser, type Page } from '../auth/browser.js';
import { startTestApp, type TestApp, type TestAppOptions } from '../helpers/app.js';

/**
 * What the dashboard's HTTP tests share: the service with the built-in development identity
 * provider (whose Email field lets a test be any new person), and a person's browser (a cookie
 * jar that follows redirects and submits the forms of the pages it lands on).
 */

export function startDashboardApp(options: TestAppOptions = {}): Promise<TestApp> {
  return startTestApp({
    catalog: 'seeded',
    ...options,
    env: { OIDC_DEV_PROVIDER: 'true', ...options.env },
  });
}

let people = 0;
/** A fresh address: a new person every time. */
export function newEmail(label = 'person'): string {
  people += 1;
  return `${label}-${process.pid}-${people}-${Math.random().toString(36).slice(2, 8)}@example.org`;
}

export interface Person {
  browser: HeadlessBrowser;
  /** The page the sign-in ended on. */
  landed: Page;
}

/**
 * Signs a person in through the dashboard: /dashboard → sign-in page → the development provider,
 * where the address is typed in the Email field (or the demo person chosen) → back to the
 * dashboard. Returns where it landed: /dashboard/welcome for a new person.
 */
export async function signIn(app: TestApp, who: string | 'demo', browser = new HeadlessBrowser()): Promise<Person> {
  const signInPage = await browser.open(`${app.url}/dashboard/sign-in`);
  if (!signInPage.url.pathname.startsWith('/dashboard/sign-in'))
    throw new Error(`expected the sign-in page, got ${signInPage.url.href}`);
  const idp = await browser.submit(signInPage, null, undefined, {}, '/dashboard/sign-in');
  // The provider remembers whom this browser signed in as: it answers at once.
  if (idp.url.pathname.startsWith('/dashboard')) return { browser, landed: idp };
  if (!idp.url.pathname.startsWith('/dev-idp/interaction/'))
    throw new Error(`expected the development provider, got ${idp.status} ${idp.url.href}: ${idp.text.slice(0, 300)}`);
  const landed =
    who === 'demo'
      ? await browser.submit(idp, null, undefined, {}, 'sub=demo-person')
      : await browser.submit(idp, null, undefined, { email: who }, 'login-email');
  return { browser, landed };
}

/** A new person signs up: a new account on the free plan. Returns the page they land on (the overview). */
export async function signUp(
  app: TestApp,
  email = newEmail(),
  accountName = 'Acme Testing',
): Promise<Person & { email: string }> {
  const person = await signIn(app, email);
  if (!person.landed.url.pathname.endsWith('/dashboard/welcome'))
    throw new Error(`expected the welcome page, got ${person.landed.url.href}: ${person.landed.text.slice(0, 300)}`);
  const landed = await person.browser.submit(
    person.landed,
    null,
    undefined,
    { accountName, acceptTerms: 'yes' },
    '/sign-up',
  );
  return { browser: person.browser, landed, email };
}

/** The CSRF token of a page's forms. */
export function csrfOf(page: Page): string {
  const match = /name="csrf" value="([^"]+)"/.exec(page.text);
  if (!match) throw new Error(`no CSRF token on ${page.url.href}`);
  return match[1] as string;
}

/** Posts a form as the person's browser would (same origin), with the given fields. */
export function post(
  browser: HeadlessBrowser,
  url: string,
  fields: Record<string, string>,
  origin?: string,
): Promise<Page> {
  return browser.open(url, undefined, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: origin ?? new URL(url).origin },
    body: new URLSearchParams(fields).toString(),
  });
}

/** Creates a key in the dashboard; returns the key shown once, and the keys page. */
export async function createKey(
  app: TestApp,
  browser: HeadlessBrowser,
  fields: { name: string; readOnly?: boolean; dailyCreditCap?: number },
): Promise<{ apiKey: string; page: Page }> {
  const keys = await browser.open(`${app.url}/dashboard/keys`);
  const page = await post(browser, `${app.url}/dashboard/keys`, {
    csrf: csrfOf(keys),
    name: fields.name,
    ...(fields.readOnly ? { readOnly: 'yes' } : {}),
    ...(fields.dailyCreditCap !== undefined ? { dailyCreditCap: String(fields.dailyCreditCap) } : {}),
  });
  const match = /data-testid="new-api-key">(pds_[A-Za-z0-9_-]+)</.exec(page.text);
  if (!match) throw new Error(`no new key on ${page.status} ${page.url.href}: ${page.text.slice(0, 500)}`);
  return { apiKey: match[1] as string, page };
}

/** The text of a page without its tags, for assertions on what a person reads. */
export function textOf(page: Page): string {
  return page.text
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ');
}

/** The newest mail in the outbox folder sent to `to`, as text. */
export async function lastMailTo(app: TestApp, to: string): Promise<string> {
  const outbox = path.join(app.dataDir, 'outbox');
  const files = (await readdir(outbox)).filter((f) => f.endsWith('.eml')).sort();
  for (const file of files.reverse()) {
    const text = await readFile(path.join(outbox, file), 'utf8');
    if (text.includes(`To: ${to}`)) return text;
  }
  throw new Error(`no mail to ${to} in ${outbox}`);
}

/** The invitation link of a mail (quoted-printable soft breaks undone). */
export function invitationLinkIn(mail: string): string {
  const unfolded = mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = /(http:\/\/[^\s]+\/dashboard\/invitations\/accept\?token=[A-Za-z0-9._%-]+)/.exec(unfolded);
  if (!match) throw new Error(`no invitation link in the mail:\n${mail}`);
  return match[1] as string;
}
