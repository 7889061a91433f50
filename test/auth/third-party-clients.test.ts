import { randomBytes } from 'node:crypto';
import {
  auth as aiSdkAuth,
  createMCPClient,
  type OAuthClientInformation,
  type OAuthClientProvider,
  type OAuthTokens,
} from '@ai-sdk/mcp';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeApiKey } from '../../src/core/accounts.js';
import { HeadlessBrowser } from './browser.js';
import { atRedirect, people, signInAtUpstream, startSsoApp, type SsoApp } from './helpers.js';

/**
 * Clients we did not write: the Vercel AI SDK's MCP client (@ai-sdk/mcp, its own transport and
 * OAuth) and the TypeScript SDK v1 client. Every 401 and 403 of an MCP route is a JSON-RPC error
 * whose message says what to do, which is what these clients show; and the AI SDK signs in to
 * /mcp/v3 through discovery, registration, the upstream provider and our consent page.
 * (The MCP Inspector CLI, which needs Node 22, runs from scripts/mcp-inspector.sh.)
 */
describe('MCP clients of other projects', () => {
  let sso: SsoApp;
  let revokedKey: string;

  beforeAll(async () => {
    sso = await startSsoApp({ catalog: 'empty' });
    revokedKey = (await sso.app.createAccount({ credits: 10 })).apiKey;
    await revokeApiKey(sso.app.db.pool, revokedKey);
  });
  afterAll(async () => {
    await sso?.stop();
  });

  const cases = [
    { name: 'no key', headers: {}, says: 'Missing API key: /mcp' },
    {
      name: 'a wrong key',
      headers: { 'x-api-key': 'pds_not-a-key' },
      says: 'Invalid API key: the x-api-key header does not match an active key',
    },
    {
      name: 'a revoked key',
      headers: () => ({ 'x-api-key': revokedKey }),
      says: 'Invalid API key: this key was revoked on',
    },
  ] as const;
  const headersOf = (c: (typeof cases)[number]): Record<string, string> =>
    typeof c.headers === 'function' ? c.headers() : { ...c.headers };

  for (const path of ['/mcp', '/mcp/v2']) {
    for (const c of cases) {
      it(`${path} with ${c.name}: a 401 JSON-RPC error that says what to do, shown by the AI SDK and the TypeScript SDK v1`, async () => {
        const response = await fetch(`${sso.app.url}${path}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...headersOf(c),
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
          }),
        });
        expect(response.status).toBe(401);
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        expect(response.headers.get('www-authenticate')).toBe(
          'ApiKey realm="prospecting-data-service", header="x-api-key"',
        );
        const body = (await response.json()) as any;
        expect(body).toMatchObject({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32000, data: { error: { code: 'unauthorized' } } },
        });
        const says = c.says.replace('/mcp', path);
        expect(body.error.message).toContain(says);
        expect(body.error.data.error.message).toBe(body.error.message);
        expect(body.error.data.error.requestId).toBe(response.headers.get('x-request-id'));
        if (c.name === 'a wrong key') expect(JSON.stringify(body)).not.toContain('pds_not-a-key');

        const aiSdk = await createMCPClient({
          transport: { type: 'http', url: `${sso.app.url}${path}`, headers: headersOf(c) },
        }).then(
          () => null,
          (error: Error) => error.message,
        );
        expect(aiSdk).toContain(says);
        const v1 = await new LegacyClient({ name: 'v1', version: '1' })
          .connect(new LegacyTransport(new URL(`${sso.app.url}${path}`), { requestInit: { headers: headersOf(c) } }))
          .then(
            () => null,
            (error: Error) => error.message,
          );
        expect(v1).toContain(says);
      });
    }
  }

  it('leaves signposts where OAuth-first clients look next on the API-key routes', async () => {
    for (const [method, path] of [
      ['GET', '/.well-known/oauth-protected-resource/mcp'],
      ['GET', '/.well-known/oauth-protected-resource'],
      ['GET', '/.well-known/oauth-authorization-server'],
      ['GET', '/.well-known/openid-configuration'],
      ['POST', '/register'],
      ['POST', '/token'],
    ] as const) {
      const response = await fetch(`${sso.app.url}${path}`, {
        method,
        ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}),
      });
      expect(response.status).toBe(404);
      const body = (await response.json()) as any;
      expect(body.error).toBe('not_found');
      expect(body.error_description).toContain('API key in the x-api-key header');
      expect(body.error_description).toContain('/.well-known/oauth-protected-resource/mcp/v3');
    }
  });

  it('answers the 403s of the MCP routes as JSON-RPC errors too (foreign Origin, refused preflight)', async () => {
    const foreign = await fetch(`${sso.app.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        origin: 'https://evil.example',
        'x-api-key': sso.app.apiKey,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as any).error.message).toMatch(/origin/i);
    const preflight = await fetch(`${sso.app.url}/mcp/v3`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(403);
    expect(((await preflight.json()) as any).error.message).toContain('CORS_ORIGINS');
  });

  it('the AI SDK signs in to /mcp/v3: discovery, registration, upstream sign-in, consent, tokens, tools', async () => {
    const redirectUri = 'http://127.0.0.1:8766/callback';
    const provider = new AiSdkProvider(redirectUri);
    const url = sso.resource;
    await expect(createMCPClient({ transport: { type: 'http', url, authProvider: provider } })).rejects.toThrow(
      /Unauthorized|authorization/i,
    );
    const authorizationUrl = provider.authorizationUrl as URL;
    expect(authorizationUrl.searchParams.get('resource')).toBe(sso.resource);
    expect(provider.registered?.client_id).toBeTruthy();

    const browser = new HeadlessBrowser();
    const consent = await signInAtUpstream(browser, authorizationUrl, people.ada, redirectUri);
    expect(consent.text).toContain('AI SDK test client');
    const landed = await browser.submit(consent, 'approve', atRedirect(redirectUri));
    const params = landed.url.searchParams;
    expect(
      await aiSdkAuth(provider, {
        serverUrl: url,
        authorizationCode: params.get('code') as string,
        callbackState: params.get('state') ?? undefined,
        callbackIssuer: params.get('iss') ?? undefined,
      }),
    ).toBe('AUTHORIZED');
    const client = await createMCPClient({ transport: { type: 'http', url, authProvider: provider } });
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name).sort()).toEqual([
      'call_operation',
      'get_endpoint_details_full',
      'search_endpoints',
    ]);
    await client.close();
  });
});

/** The AI SDK's OAuth client provider, in memory. */
class AiSdkProvider implements OAuthClientProvider {
  authorizationUrl: URL | null = null;
  registered: OAuthClientInformation | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';
  private currentState = '';

  constructor(private readonly redirectUri: string) {}

  get redirectUrl(): string {
    return this.redirectUri;
  }

  get clientMetadata() {
    return {
      client_name: 'AI SDK test client',
      redirect_uris: [this.redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  tokens() {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }

  clientInformation() {
    return this.registered;
  }

  isClientInformationDynamicallyRegistered(): boolean {
    return this.registered !== undefined;
  }

  saveClientInformation(info: OAuthClientInformation): void {
    this.registered = info;
  }

  state(): string {
    this.currentState = randomBytes(12).toString('hex');
    return this.currentState;
  }

  saveState(state: string): void {
    this.currentState = state;
  }

  storedState(): string {
    return this.currentState;
  }
}
