import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HeadlessBrowser } from './browser.js';
import { startCimdServer, type CimdServer } from './cimd-server.js';
import { atRedirect, authorizationUrl, pkcePair, startSsoApp, type SsoApp } from './helpers.js';

/**
 * Client ID metadata documents the authorization server must refuse: too large, too slow, on a
 * private or loopback address, or naming another client_id. Each refusal is an error page at
 * the authorization endpoint (the client's redirect URI cannot be trusted), and no code.
 */
describe('client ID metadata documents that are refused', () => {
  let dir: string;
  let cimd: CimdServer;
  let sso: SsoApp;
  /** The same service without the development setting: loopback is refused like any private address. */
  let strict: SsoApp;
  const redirectUri = 'http://127.0.0.1:8765/callback';

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'pds-cimd-'));
    cimd = await startCimdServer(dir, redirectUri);
    sso = await startSsoApp({ env: { OAUTH_CIMD_ALLOW_LOOPBACK: 'true', OAUTH_CIMD_CA_FILE: cimd.caFile } });
    strict = await startSsoApp({ env: { OAUTH_CIMD_CA_FILE: cimd.caFile } });
  });
  afterAll(async () => {
    await sso?.stop();
    await strict?.stop();
    await cimd?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function authorize(app: SsoApp, clientId: string) {
    const browser = new HeadlessBrowser();
    const started = Date.now();
    const page = await browser.open(
      authorizationUrl(app, clientId, { challenge: pkcePair().challenge }),
      atRedirect(redirectUri),
    );
    return {
      page,
      ms: Date.now() - started,
      reachedClient: browser.visited.some((url) => url.href.startsWith(redirectUri)),
    };
  }

  it('accepts a good document (the baseline for the refusals below)', async () => {
    const { page, reachedClient } = await authorize(sso, cimd.url('client'));
    // On to sign-in at the identity provider: the client was accepted.
    expect(reachedClient).toBe(false);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Test upstream identity provider');
  });

  it('refuses a document over 5 KiB', async () => {
    const { page, reachedClient } = await authorize(sso, cimd.url('large'));
    expect(page.status).toBe(400);
    expect(page.text).toContain('invalid_client');
    expect(page.text).toContain('client_id metadata document fetch failed');
    expect(cimd.fetched).toContain('large');
    expect(reachedClient).toBe(false);
  });

  it('gives up on a document that takes longer than 2.5 s', async () => {
    const { page, ms, reachedClient } = await authorize(sso, cimd.url('slow'));
    expect(page.status).toBe(400);
    expect(page.text).toContain('client_id metadata document fetch failed');
    expect(ms).toBeGreaterThanOrEqual(2_400);
    expect(ms).toBeLessThan(4_000);
    expect(reachedClient).toBe(false);
  });

  it('fetches a failing document once, remembers the failure, and bounds a body that trickles or breaks off', async () => {
    for (const name of ['slow-body', 'broken-body', 'mismatch', 'large'] as const) {
      const before = cimd.fetched.filter((fetched) => fetched === name).length;
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const { page, reachedClient } = await authorize(sso, cimd.url(name));
        expect(page.status, `${name}, attempt ${attempt}`).toBe(400);
        expect(reachedClient).toBe(false);
      }
      // Three authorizations (each looks the client up more than once): one fetch in all.
      expect(cimd.fetched.filter((fetched) => fetched === name).length - before, name).toBeLessThanOrEqual(1);
    }
  });

  it('refuses a document whose client_id is not its own URL', async () => {
    const { page, reachedClient } = await authorize(sso, cimd.url('mismatch'));
    expect(page.status).toBe(400);
    expect(page.text).toContain('client_id does not match');
    expect(reachedClient).toBe(false);
  });

  it('refuses documents on private addresses, and on loopback unless the development setting allows it', async () => {
    for (const clientId of [
      'https://10.1.2.3/client.json',
      'https://192.168.0.10/client.json',
      'https://[fd00::1]/client.json',
      'https://169.254.169.254/latest/meta-data.json',
    ]) {
      const { page, ms } = await authorize(sso, clientId);
      expect(page.status).toBe(400);
      expect(page.text).toContain('client_id metadata document fetch failed');
      // Refused before any connection is tried (no timeout spent).
      expect(ms).toBeLessThan(1_500);
    }
    const before = cimd.fetched.length;
    const { page } = await authorize(strict, cimd.url('client'));
    expect(page.status).toBe(400);
    expect(page.text).toContain('client_id metadata document fetch failed');
    expect(cimd.fetched.length).toBe(before);
  });

  it('treats an http:// client_id as an unknown client, never fetching it', async () => {
    const { page } = await authorize(sso, cimd.url('client').replace('https://', 'http://'));
    expect(page.status).toBe(400);
    expect(page.text).toContain('invalid_client');
  });
});
