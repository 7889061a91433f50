import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directPathCounts } from '../../src/mcp/fast-path.js';
import { HeadlessBrowser } from './browser.js';
import {
  atRedirect,
  authorizeByHand,
  pkcePair,
  registerClient,
  RecordingOAuthProvider,
  startSsoApp,
  tokenRequest,
  type SsoApp,
} from './helpers.js';

/**
 * The scope rule of /mcp/v3: mcp:read for everything free, mcp:spend for whatever the registry's
 * credit rule charges, on the direct path and on the SDK route alike; a refused call is 403
 * insufficient_scope naming the scope, and the official client steps up and succeeds.
 */
describe('/mcp/v3 scopes', () => {
  const apps: Record<'direct' | 'sdk', SsoApp> = {} as never;
  const redirectUri = 'http://127.0.0.1:8765/callback';

  beforeAll(async () => {
    apps.direct = await startSsoApp({ catalog: 'seeded' });
    apps.sdk = await startSsoApp({ catalog: 'seeded', env: { MCP_DIRECT_PATH: 'false' } });
  });
  afterAll(async () => {
    await apps.direct?.stop();
    await apps.sdk?.stop();
  });

  /** A read-only token, obtained by hand: client, tokens, and the browser that holds the session. */
  async function readOnlyToken(sso: SsoApp) {
    const client = await registerClient(sso, { client_name: 'Read-only client' });
    const { verifier, challenge } = pkcePair();
    const browser = new HeadlessBrowser();
    const callback = await authorizeByHand(sso, client.client_id, {
      challenge,
      scope: 'mcp:read offline_access',
      browser,
    });
    const answer = await tokenRequest(sso, {
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code') as string,
      code_verifier: verifier,
      redirect_uri: redirectUri,
      client_id: client.client_id,
      resource: sso.resource,
    });
    expect(answer.body.scope).toBe('mcp:read');
    return { client, tokens: answer.body, browser };
  }

  const balance = async (sso: SsoApp) =>
    Number(
      (await sso.app.db.pool.query('SELECT balance FROM credit_balances WHERE account_id = $1', [sso.accountId]))
        .rows[0]?.balance,
    );

  const call = (sso: SsoApp, token: string, name: string, args: Record<string, unknown>) =>
    fetch(sso.resource, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } }),
    });

  for (const route of ['direct', 'sdk'] as const) {
    it(`an mcp:read token reads freely but cannot spend (${route === 'direct' ? 'direct path' : 'SDK route'})`, async () => {
      const sso = apps[route];
      const { tokens } = await readOnlyToken(sso);
      const before = await balance(sso);
      const answeredBefore = directPathCounts.answered;

      const free = await call(sso, tokens.access_token, 'call_operation', {
        operationId: 'getCreditBalance',
        payload: {},
      });
      expect(free.status).toBe(200);
      expect(await free.text()).toContain(String(before));
      const search = await call(sso, tokens.access_token, 'search_endpoints', { query: 'find companies' });
      expect(search.status).toBe(200);
      await search.text();

      const charged = await call(sso, tokens.access_token, 'call_operation', {
        operationId: 'companySearch',
        payload: { searchParams: {}, pageSize: 2 },
      });
      expect(charged.status).toBe(403);
      const challenge = charged.headers.get('www-authenticate') ?? '';
      expect(challenge).toMatch(/^Bearer /);
      expect(challenge).toContain('error="insufficient_scope"');
      expect(challenge).toContain('scope="mcp:spend"');
      expect(challenge).toContain(`resource_metadata="${sso.app.url}/.well-known/oauth-protected-resource/mcp/v3"`);
      const body = (await charged.json()) as any;
      expect(body.error.message).toContain('mcp:spend');
      expect(body.error.data.error.code).toBe('insufficient_scope');
      expect(await balance(sso)).toBe(before);
      // The direct path answered the free calls, and left the refusal to the route that answers it.
      expect(directPathCounts.answered - answeredBefore).toBe(route === 'direct' ? 2 : 0);

      // A stored result is free to read: it needs no mcp:spend.
      const stored = await call(sso, tokens.access_token, 'call_operation', {
        operationId: 'companySearch',
        resultId: 'nothing-stored',
        offset: 0,
      });
      expect(stored.status).toBe(200);
      await stored.text();
    });
  }

  it('the official client steps up on 403 insufficient_scope, and the call then succeeds', async () => {
    const sso = apps.direct;
    const { client, tokens, browser } = await readOnlyToken(sso);
    const provider = new RecordingOAuthProvider({ redirectUri });
    provider.seed({ client_id: client.client_id }, { ...tokens, token_type: 'Bearer' });
    const mcp = new Client(
      { name: 'step-up', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const transport = new StreamableHTTPClientTransport(new URL(sso.resource), { authProvider: provider });
    await mcp.connect(transport);
    const payload = { operationId: 'companySearch', payload: { searchParams: {}, pageSize: 2 } };
    const before = await balance(sso);

    await expect(mcp.callTool({ name: 'call_operation', arguments: payload })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    const stepUp = provider.lastAuthorizationUrl;
    expect(stepUp.searchParams.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['mcp:read', 'mcp:spend']));
    expect(stepUp.searchParams.get('resource')).toBe(sso.resource);
    // Still signed in at our server: straight to the consent page, which asks for the new scope.
    const consent = await browser.open(stepUp, atRedirect(redirectUri));
    expect(consent.text).toContain('data-scope="mcp:spend"');
    const landed = await browser.submit(consent, 'approve', atRedirect(redirectUri));
    await transport.finishAuth(landed.url.searchParams);
    expect(provider.currentTokens.scope?.split(' ')).toEqual(expect.arrayContaining(['mcp:read', 'mcp:spend']));

    const result = await mcp.callTool({ name: 'call_operation', arguments: payload });
    expect(result.isError).toBeFalsy();
    expect(await balance(sso)).toBe(before - 2);
    await mcp.close();
  });
});
