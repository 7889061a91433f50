import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationUrl, pkcePair, registerClient, startSsoApp, tokenRequest, type SsoApp } from './helpers.js';

/**
 * The consent page in a real browser (Debian's chromium, driven by playwright-core): approve and
 * deny clicked, framing refused, a screenshot kept as a test artifact (artifacts/consent-page.png);
 * and a page of another origin that talks to the authorization server and to /mcp/v3 with fetch
 * (CORS, preflights without credentials). Runs with `npm run test:browser` (.ci/run installs
 * chromium and runs it as its own step); without chromium it fails and says how to install it.
 */
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const artifacts = path.resolve('artifacts');

describe('the consent page in chromium', () => {
  let sso: SsoApp;
  let browser: Browser;
  let site: Server;
  let siteOrigin: string;
  /** The MCP client's redirect URI: a page of the test's own site, where the browser lands with the code. */
  let redirectUri: string;

  beforeAll(async () => {
    if (!existsSync(chromiumPath)) {
      throw new Error(
        `Chromium is not installed at ${chromiumPath}: install it with "apt-get install -y chromium" (as .ci/run does), or set CHROMIUM_PATH.`,
      );
    }
    sso = await startSsoApp({ catalog: 'seeded' });
    browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'], headless: true });
    // Another origin: pages that frame the consent page, or call the service with fetch.
    site = createServer((req, res) => {
      const target = new URL(req.url ?? '/', 'http://site').searchParams.get('target') ?? '';
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        req.url?.startsWith('/frame')
          ? `<!DOCTYPE html><iframe id="f" src="${target.replace(/"/g, '&quot;')}"></iframe>`
          : '<!DOCTYPE html><title>client</title>',
      );
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const port = (site.address() as AddressInfo).port;
    siteOrigin = `http://localhost:${port}`;
    redirectUri = `http://127.0.0.1:${port}/callback`;
    await mkdir(artifacts, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    site?.close();
    await sso?.stop();
  });

  /** Opens the authorization URL in a fresh browser context and signs Ada in upstream; returns the page at our consent page. */
  async function toConsent(clientId: string): Promise<{ page: Page; verifier: string; landed: () => Promise<URL> }> {
    const context = await browser.newContext({ viewport: { width: 900, height: 900 } });
    const page = await context.newPage();
    const landed = async () => {
      await page.waitForURL((url) => url.href.startsWith(redirectUri));
      return new URL(page.url());
    };
    const { verifier, challenge } = pkcePair();
    await page.goto(authorizationUrl(sso, clientId, { challenge, redirectUri }).href);
    await page.getByRole('button', { name: /Sign in as Ada Lovelace/ }).click();
    await page.waitForURL(/\/oauth\/interaction\/[^/]+$/);
    return { page, verifier, landed };
  }

  it('shows who asks for what, is saved as a screenshot, and approving sends the code to the client', async () => {
    const client = await registerClient(sso, {
      client_name: 'Claude Desktop (test)',
      client_uri: 'https://claude.example',
      redirect_uris: [redirectUri],
    });
    const { page, verifier, landed } = await toConsent(client.client_id);
    await expect(page.locator('#client-name').textContent()).resolves.toBe('Claude Desktop (test)');
    await expect(page.locator('#redirect-host').textContent()).resolves.toBe(new URL(redirectUri).host);
    const scopes = await page.locator('ul.scopes li').allTextContents();
    expect(scopes.join('\n')).toMatch(/search and read/);
    expect(scopes.join('\n')).toMatch(/spend credits/);
    await expect(page.locator('#balance').textContent()).resolves.toMatch(/^\d{1,3}(,\d{3})*$/);
    await page.screenshot({ path: path.join(artifacts, 'consent-page.png'), fullPage: true });

    await page.getByRole('button', { name: 'Approve' }).click();
    const callback = await landed();
    expect(callback.searchParams.get('iss')).toBe(sso.issuer);
    const tokens = await tokenRequest(sso, {
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code') as string,
      code_verifier: verifier,
      redirect_uri: redirectUri,
      client_id: client.client_id,
      resource: sso.resource,
    });
    expect(tokens.status).toBe(200);
    await page.context().close();
  });

  it('denying sends access_denied and no code', async () => {
    const client = await registerClient(sso, { client_name: 'Denied Client', redirect_uris: [redirectUri] });
    const { page, landed } = await toConsent(client.client_id);
    await page.getByRole('button', { name: 'Deny' }).click();
    const callback = await landed();
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('code')).toBeNull();
    await page.context().close();
  });

  it('refuses to be framed by another site (clickjacking)', async () => {
    const client = await registerClient(sso, { client_name: 'Framed Client', redirect_uris: [redirectUri] });
    const { page } = await toConsent(client.client_id);
    const consentUrl = page.url();
    const attacker = await page.context().newPage();
    const blocked = attacker.waitForEvent('console', (message) => /frame-ancestors/.test(message.text()));
    await attacker.goto(`${siteOrigin}/frame?target=${encodeURIComponent(consentUrl)}`);
    expect((await blocked).text()).toContain("frame-ancestors 'none'");
    const frame = attacker.frames().find((f) => f !== attacker.mainFrame());
    expect(await frame?.locator('button', { hasText: 'Approve' }).count()).toBe(0);
    await page.context().close();
  });

  it('lets a page of another origin discover, register, refresh and call /mcp/v3 with fetch', async () => {
    const client = await registerClient(sso, { client_name: 'Browser Client', redirect_uris: [redirectUri] });
    const { page, verifier, landed } = await toConsent(client.client_id);
    await page.getByRole('button', { name: 'Approve' }).click();
    const callback = await landed();
    const tokens = await tokenRequest(sso, {
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code') as string,
      code_verifier: verifier,
      redirect_uri: redirectUri,
      client_id: client.client_id,
      resource: sso.resource,
    });
    const app = await page.context().newPage();
    await app.goto(`${siteOrigin}/app`);
    const seen = await app.evaluate(
      async ({ base, clientId, refreshToken }) => {
        const json = async (response: Response) => ({
          status: response.status,
          body: (await response.json()) as any,
          headers: Object.fromEntries(response.headers),
        });
        const resourceMetadata = await json(await fetch(`${base}/.well-known/oauth-protected-resource/mcp/v3`));
        const serverMetadata = await json(await fetch(`${base}/.well-known/oauth-authorization-server/oauth`));
        const registration = await json(
          await fetch(serverMetadata.body.registration_endpoint, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              redirect_uris: [
                `${(globalThis as unknown as { location: { origin: string } }).location.origin}/callback`,
              ],
              token_endpoint_auth_method: 'none',
              client_name: 'In-page client',
            }),
          }),
        );
        const refreshed = await json(
          await fetch(serverMetadata.body.token_endpoint, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({
              grant_type: 'refresh_token',
              refresh_token: refreshToken,
              client_id: clientId,
            }),
          }),
        );
        const mcp = (token: string | null, body: unknown) =>
          fetch(resourceMetadata.body.resource, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              ...(token ? { authorization: `Bearer ${token}` } : {}),
            },
            body: JSON.stringify(body),
          });
        const unauthorized = await mcp(null, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
        const listed = await mcp(refreshed.body.access_token, {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'search_endpoints', arguments: { query: 'find companies' } },
        });
        return {
          resourceMetadata: resourceMetadata.status,
          authorizationServers: resourceMetadata.body.authorization_servers,
          registration: registration.status,
          refreshed: refreshed.status,
          unauthorized: { status: unauthorized.status, challenge: unauthorized.headers.get('www-authenticate') },
          listed: { status: listed.status, text: await listed.text() },
        };
      },
      { base: sso.app.url, clientId: client.client_id, refreshToken: tokens.body.refresh_token as string },
    );
    expect(seen.resourceMetadata).toBe(200);
    expect(seen.authorizationServers).toEqual([sso.issuer]);
    expect(seen.registration).toBe(201);
    expect(seen.refreshed).toBe(200);
    expect(seen.unauthorized.status).toBe(401);
    // Exposed to the page, so a browser client can find the metadata.
    expect(seen.unauthorized.challenge).toContain('resource_metadata=');
    expect(seen.listed.status).toBe(200);
    expect(seen.listed.text).toContain('companySearch');
    await page.context().close();
  });
});
