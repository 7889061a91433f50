import {
  createMCPClient,
  type OAuthClientInformation,
  type OAuthClientProvider as AiSdkOAuthClientProvider,
  type OAuthTokens as AiSdkTokens,
} from '@ai-sdk/mcp';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HeadlessBrowser } from './browser.js';
import {
  atRedirect,
  people,
  RecordingOAuthProvider,
  signInAtUpstream,
  startSsoApp,
  tokensWithScope,
  type SsoApp,
} from './helpers.js';

/**
 * What /mcp/v3 tells a client about scopes, and what each client library then does (the facts
 * docs/mcp-sign-in.md states). The first 401 names both scopes, so a client that asks for what
 * the challenge names (the spec's rule) signs in with mcp:read and mcp:spend at once. A client
 * holding a read-only token meets 403 insufficient_scope on a charged call: the TypeScript SDK v2
 * steps up (tested in scopes.test.ts, refresh token and all); the v1 SDK steps up only when it
 * holds no refresh token (with one, it refreshes, gets the same scope and gives up); the AI SDK
 * does not step up.
 */
describe('scopes in the challenges, and which clients step up', () => {
  let sso: SsoApp;
  const redirectUri = 'http://127.0.0.1:8765/callback';
  beforeAll(async () => {
    sso = await startSsoApp({ catalog: 'seeded' });
  });
  afterAll(async () => {
    await sso?.stop();
  });

  const post = (headers: Record<string, string>) =>
    fetch(sso.resource, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
  const balance = async () =>
    Number(
      (await sso.app.db.pool.query('SELECT balance FROM credit_balances WHERE account_id = $1', [sso.accountId]))
        .rows[0]?.balance,
    );
  const charged = {
    name: 'call_operation',
    arguments: { operationId: 'companySearch', payload: { searchParams: {}, pageSize: 2 } },
  };

  it('names both scopes in every 401 of /mcp/v3', async () => {
    const missing = await post({});
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${sso.app.url}/.well-known/oauth-protected-resource/mcp/v3", scope="mcp:read mcp:spend"`,
    );
    const invalid = await post({ authorization: 'Bearer not-a-token' });
    expect(invalid.status).toBe(401);
    expect(invalid.headers.get('www-authenticate')).toContain('error="invalid_token", scope="mcp:read mcp:spend"');
  });

  it('the TypeScript SDK v1 and the AI SDK ask for both scopes at the first sign-in', async () => {
    const v1 = new RecordingOAuthProvider({ redirectUri });
    const legacy = new LegacyClient({ name: 'v1', version: '1.0.0' });
    await expect(
      legacy.connect(new LegacyTransport(new URL(sso.resource), { authProvider: v1 as never })),
    ).rejects.toThrow(/Unauthorized/i);
    expect(v1.lastAuthorizationUrl.searchParams.get('scope')).toBe('mcp:read mcp:spend');

    const ai = new AiSdkProvider(redirectUri);
    await expect(
      createMCPClient({ transport: { type: 'http', url: sso.resource, authProvider: ai } }),
    ).rejects.toThrow();
    expect(ai.authorizationUrl?.searchParams.get('scope')).toBe('mcp:read mcp:spend');
  });

  it('the v1 SDK holding a refresh token refreshes on 403, gets the same scope, and gives up', async () => {
    const tokens = await tokensWithScope(sso, 'mcp:read offline_access');
    expect(tokens.refresh_token).toBeTruthy();
    const provider = new RecordingOAuthProvider({ redirectUri });
    provider.seed({ client_id: tokens.client_id }, tokens);
    const client = new LegacyClient({ name: 'v1', version: '1.0.0' });
    await client.connect(new LegacyTransport(new URL(sso.resource), { authProvider: provider as never }));
    const before = await balance();
    await expect(client.callTool(charged)).rejects.toThrow(/403 after trying upscoping/);
    expect(provider.authorizationUrls).toEqual([]);
    // It did refresh: the tokens it holds now are new, and still read-only.
    expect(provider.currentTokens.refresh_token).not.toBe(tokens.refresh_token);
    expect(provider.currentTokens.scope).toBe('mcp:read');
    expect(await balance()).toBe(before);
    await client.close();
  });

  it('the v1 SDK without a refresh token steps up, and the call then runs', async () => {
    const tokens = await tokensWithScope(sso, 'mcp:read', { grant_types: ['authorization_code'] });
    expect(tokens.refresh_token).toBeUndefined();
    const provider = new RecordingOAuthProvider({ redirectUri });
    provider.seed({ client_id: tokens.client_id }, tokens);
    const transport = new LegacyTransport(new URL(sso.resource), { authProvider: provider as never });
    const client = new LegacyClient({ name: 'v1', version: '1.0.0' });
    await client.connect(transport);
    await expect(client.callTool(charged)).rejects.toThrow(/Unauthorized/i);
    const stepUp = provider.lastAuthorizationUrl;
    expect(stepUp.searchParams.get('scope')).toBe('mcp:spend');
    const browser = new HeadlessBrowser();
    const consent = await signInAtUpstream(browser, stepUp, people.ada, redirectUri);
    const landed = await browser.submit(consent, 'approve', atRedirect(redirectUri));
    await transport.finishAuth(landed.url.searchParams.get('code') as string);
    const before = await balance();
    const result = await client.callTool(charged);
    expect(result.isError).toBeFalsy();
    expect(await balance()).toBe(before - 2);
    await client.close();
  });

  it('the AI SDK holding a read-only token does not step up: the charged call fails with the 403', async () => {
    const tokens = await tokensWithScope(sso, 'mcp:read offline_access');
    const provider = new AiSdkProvider(redirectUri);
    provider.registered = { client_id: tokens.client_id };
    provider.saveTokens(tokens as AiSdkTokens);
    const client = await createMCPClient({ transport: { type: 'http', url: sso.resource, authProvider: provider } });
    const tools = await client.tools();
    const callOperation = tools.call_operation as unknown as {
      execute: (args: unknown, options: unknown) => Promise<unknown>;
    };
    await expect(callOperation.execute(charged.arguments, { toolCallId: '1', messages: [] })).rejects.toThrow(
      /403|insufficient_scope|mcp:spend/,
    );
    expect(provider.authorizationUrl).toBeNull();
    await client.close();
  });
});

/** The AI SDK's OAuth client provider, in memory. */
class AiSdkProvider implements AiSdkOAuthClientProvider {
  authorizationUrl: URL | null = null;
  registered: OAuthClientInformation | undefined;
  private saved: AiSdkTokens | undefined;
  private verifier = '';
  private currentState = 'state';

  constructor(private readonly redirectUri: string) {}

  get redirectUrl(): string {
    return this.redirectUri;
  }

  get clientMetadata() {
    return {
      client_name: 'AI SDK step-up client',
      redirect_uris: [this.redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  tokens() {
    return this.saved;
  }

  saveTokens(tokens: AiSdkTokens): void {
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

  saveClientInformation(info: OAuthClientInformation): void {
    this.registered = info;
  }

  state(): string {
    return this.currentState;
  }

  saveState(state: string): void {
    this.currentState = state;
  }

  storedState(): string {
    return this.currentState;
  }
}
