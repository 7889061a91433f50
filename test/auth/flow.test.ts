import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { auth } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { startService, type RunningService } from '../../src/service.js';
import { HeadlessBrowser } from './browser.js';
import { startCimdServer, type CimdServer } from './cimd-server.js';
import {
  atRedirect,
  authorizeAndConnect,
  connectWithTokens,
  people,
  rawToolsList,
  RecordingOAuthProvider,
  signInAtUpstream,
  startSsoApp,
  type SsoApp,
} from './helpers.js';

/**
 * The whole single sign-on flow with the official MCP client's OAuth support, against a real
 * upstream OpenID provider: 401 → protected-resource metadata → authorization-server metadata →
 * a client by metadata document, and one by dynamic registration → authorization with PKCE and
 * resource → sign-in upstream → consent → code → token → tools/list and a charged
 * call_operation on /mcp/v3 → refresh with rotation → revocation → 401.
 */
describe('single sign-on with the official MCP client', () => {
  let sso: SsoApp;
  let cimd: CimdServer;
  let dir: string;
  const redirectUri = 'http://127.0.0.1:8765/callback';

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'pds-sso-flow-'));
    cimd = await startCimdServer(dir, redirectUri);
    sso = await startSsoApp({
      catalog: 'seeded',
      env: { OAUTH_CIMD_ALLOW_LOOPBACK: 'true', OAUTH_CIMD_CA_FILE: cimd.caFile },
    });
  });
  afterAll(async () => {
    await sso?.stop();
    await cimd?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const balance = async () =>
    Number(
      (await sso.app.db.pool.query('SELECT balance FROM credit_balances WHERE account_id = $1', [sso.accountId]))
        .rows[0]?.balance,
    );

  for (const registration of ['metadata document', 'dynamic registration'] as const) {
    it(`signs in a client by ${registration}, serves tools and a charged call, refreshes with rotation, and stops at revocation`, async () => {
      const provider = new RecordingOAuthProvider({
        redirectUri,
        ...(registration === 'metadata document'
          ? { clientMetadataUrl: cimd.url('client') }
          : { clientName: 'Registered Test Client' }),
      });
      const browser = new HeadlessBrowser();
      const { connected, consentPage } = await authorizeAndConnect(sso, provider, { browser });

      // Discovery went where the MCP spec sends clients, and the authorization request was complete.
      const authorizationUrl = provider.authorizationUrls[0] as URL;
      expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${sso.issuer}/authorize`);
      expect(authorizationUrl.searchParams.get('resource')).toBe(sso.resource);
      expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
      expect(authorizationUrl.searchParams.get('scope')?.split(' ')).toEqual(
        expect.arrayContaining(['mcp:read', 'mcp:spend']),
      );
      const clientId = authorizationUrl.searchParams.get('client_id') as string;
      if (registration === 'metadata document') {
        expect(clientId).toBe(cimd.url('client'));
        expect(cimd.fetched).toContain('client');
        expect(consentPage.text).toContain('Metadata Document Client');
        expect(consentPage.text).toMatch(/client ID metadata document at <strong>localhost:\d+<\/strong>/);
      } else {
        expect(clientId).not.toContain('://');
        expect(consentPage.text).toContain('Registered Test Client');
        expect(consentPage.text).toContain('registered dynamically');
      }
      // The person saw the redirect host, the scopes in words, the account and its balance.
      expect(consentPage.text).toContain('127.0.0.1:8765');
      expect(consentPage.text).toContain('spend credits');
      expect(consentPage.text).toContain('search and read');
      expect(consentPage.text).toContain((await balance()).toLocaleString('en'));
      expect(consentPage.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      // RFC 9207: the code came back with our issuer, and the SDK checked it.
      const tokens = provider.currentTokens;
      expect(tokens.refresh_token).toBeTruthy();
      expect(tokens.expires_in).toBeLessThanOrEqual(3600);

      const { client } = connected!;
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual([
        'call_operation',
        'get_endpoint_details_full',
        'search_endpoints',
      ]);
      const before = await balance();
      const search = await client.callTool({
        name: 'call_operation',
        arguments: { operationId: 'companySearch', payload: { searchParams: {}, pageSize: 3 } },
      });
      expect(search.isError).toBeFalsy();
      expect((search.structuredContent as { chargeInfo: { creditsCharged: number } }).chargeInfo.creditsCharged).toBe(
        3,
      );
      expect(await balance()).toBe(before - 3);

      // Refresh: a new refresh token each time; the old one is spent.
      const firstRefresh = tokens.refresh_token as string;
      expect(await auth(provider, { serverUrl: sso.resource })).toBe('AUTHORIZED');
      const refreshed = provider.currentTokens;
      expect(refreshed.refresh_token).toBeTruthy();
      expect(refreshed.refresh_token).not.toBe(firstRefresh);
      expect(refreshed.access_token).not.toBe(tokens.access_token);
      const again = await connectWithTokens(sso.resource, provider);
      expect((await again.client.listTools()).tools).toHaveLength(3);

      // Revocation: the access token stops working at once on this instance.
      const revoked = await fetch(`${sso.issuer}/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          token: refreshed.access_token,
          token_type_hint: 'access_token',
          client_id: clientId,
        }),
      });
      expect(revoked.status).toBe(200);
      const after = await rawToolsList(sso.resource, refreshed.access_token);
      expect(after.status).toBe(401);
      expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"');
      await client.close();
      await again.client.close();
    });
  }

  it('serves any step from any instance, and another instance honours a revocation within OAUTH_TOKEN_CACHE_SECONDS', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pds-sso-second-'));
    const config = sso.app.service.context.config;
    // Behind one public URL: both instances are the same issuer and resource.
    const second: RunningService = await startService(
      {
        ...config,
        PUBLIC_URL: sso.app.url,
        OAUTH_TOKEN_CACHE_SECONDS: 2,
        dataDir,
        exportDir: path.join(dataDir, 'exports'),
        JOB_WORKER: false,
      },
      { log: createLogger('silent') },
    );
    try {
      const onSecond = (url: URL) => {
        const moved = new URL(url);
        moved.port = new URL(second.url).port;
        return moved;
      };
      const provider = new RecordingOAuthProvider({ redirectUri, clientName: 'Across instances' });
      const browser = new HeadlessBrowser();
      // As behind a load balancer: the browser knows only the public origin.
      browser.publicOrigin = new URL(sso.app.url).origin;
      const { UnauthorizedError, Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
      const transport = new StreamableHTTPClientTransport(new URL(sso.resource), { authProvider: provider });
      await new Client({ name: 'x', version: '1' }).connect(transport).catch((error: unknown) => {
        if (!(error instanceof UnauthorizedError)) throw error;
      });
      const consent = await signInAtUpstream(browser, provider.lastAuthorizationUrl, people.ada, redirectUri);
      // The consent page and its approval on the other instance.
      const consentOnSecond = await browser.open(onSecond(consent.url));
      expect(consentOnSecond.status).toBe(200);
      expect(consentOnSecond.text).toContain('Across instances');
      const landed = await browser.submit(consentOnSecond, 'approve', atRedirect(redirectUri));
      await transport.finishAuth(landed.url.searchParams);
      const token = provider.currentTokens.access_token;
      const secondResource = `${second.url}/mcp/v3`;
      expect((await rawToolsList(secondResource, token)).status).toBe(200);

      await fetch(`${sso.issuer}/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, client_id: provider.clientInformation()?.client_id as string }),
      });
      expect((await rawToolsList(sso.resource, token)).status).toBe(401);
      // The other instance trusted its verdict for at most 2 s (its OAUTH_TOKEN_CACHE_SECONDS).
      const revokedAt = Date.now();
      let status = 200;
      while (status === 200 && Date.now() - revokedAt < 5_000) {
        status = (await rawToolsList(secondResource, token)).status;
        if (status === 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(status).toBe(401);
      expect(Date.now() - revokedAt).toBeLessThanOrEqual(2_500);
    } finally {
      await second.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
