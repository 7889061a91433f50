import { gzipSync } from 'node:zlib';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { directPathCounts, metricsEnv } from '../helpers/direct-path.js';

/**
 * The scope rule of /mcp/v3: mcp:read for everything free, mcp:spend for whatever the registry's
 * credit rule charges, on the direct path and on the SDK route alike; a refused call is 403
 * insufficient_scope naming the scope, and the official client steps up and succeeds.
 */
describe('/mcp/v3 scopes', () => {
  const apps: Record<'direct' | 'sdk', SsoApp> = {} as never;
  const redirectUri = 'http://127.0.0.1:8765/callback';

  beforeAll(async () => {
    apps.direct = await startSsoApp({ catalog: 'seeded', env: metricsEnv });
    apps.sdk = await startSsoApp({ catalog: 'seeded', env: { ...metricsEnv, MCP_DIRECT_PATH: 'false' } });
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
      const answeredBefore = (await directPathCounts(sso.app.service)).answered;

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
      expect((await directPathCounts(sso.app.service)).answered - answeredBefore).toBe(route === 'direct' ? 2 : 0);

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

  /**
   * Every way found to dress a charged call so that a check reading the body its own way takes it
   * for free while the SDK runs it: the byte-order mark (the SDK's decoder drops it, JSON.parse does
   * not), other charsets, whitespace JSON does not know, compression, batches, escapes, duplicate
   * keys, both protocol eras, confirmation tokens. Each is 403 insufficient_scope with the step-up
   * challenge, and nothing is charged, confirmed or run.
   */
  const chargedCall = (id: number, operationId = 'companySearch', extra: Record<string, unknown> = {}) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name: 'call_operation',
      arguments: { operationId, payload: { searchParams: {}, pageSize: 3 }, ...extra },
    },
  });
  const freeCall = (id: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'call_operation', arguments: { operationId: 'getCreditBalance', payload: {} } },
  });
  const json = (value: unknown) => JSON.stringify(value);
  const utf16 = (text: string, bom: boolean) =>
    Buffer.concat([bom ? Buffer.from([0xff, 0xfe]) : Buffer.alloc(0), Buffer.from(text, 'utf16le')]);
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  const modernHeaders = {
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': 'call_operation',
  };
  const modernCall = {
    ...chargedCall(9),
    params: {
      ...chargedCall(9).params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'probe', version: '1.0.0' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  };
  const disguises: Array<{ name: string; body: Buffer; headers?: Record<string, string> }> = [
    { name: 'a UTF-8 byte-order mark', body: Buffer.concat([bom, Buffer.from(json(chargedCall(1)))]) },
    {
      name: 'a byte-order mark and charset=utf-8',
      body: Buffer.concat([bom, Buffer.from(json(chargedCall(1)))]),
      headers: { 'content-type': 'application/json; charset="UTF-8"' },
    },
    {
      name: 'a byte-order mark in the 2026-07-28 era',
      body: Buffer.concat([bom, Buffer.from(json(modernCall))]),
      headers: modernHeaders,
    },
    { name: 'two byte-order marks', body: Buffer.concat([bom, bom, Buffer.from(json(chargedCall(1)))]) },
    {
      name: 'UTF-16LE with its mark, charset named',
      body: utf16(json(chargedCall(1)), true),
      headers: { 'content-type': 'application/json; charset=utf-16' },
    },
    { name: 'UTF-16LE with its mark, no charset', body: utf16(json(chargedCall(1)), true) },
    {
      name: 'latin-1 named as the charset',
      body: Buffer.from(json(chargedCall(1)), 'latin1'),
      headers: { 'content-type': 'application/json; charset=iso-8859-1' },
    },
    { name: 'JSON whitespace around it', body: Buffer.from(` \t\r\n${json(chargedCall(1))}\n\t `) },
    { name: 'a no-break space before it', body: Buffer.from(`\u00a0${json(chargedCall(1))}`) },
    { name: 'a line separator before it', body: Buffer.from(`\u2028${json(chargedCall(1))}`) },
    { name: 'an ideographic space after it', body: Buffer.from(`${json(chargedCall(1))}\u3000`) },
    { name: 'a byte-order mark after whitespace', body: Buffer.from(` \ufeff${json(chargedCall(1))}`) },
    { name: 'a NUL byte after it', body: Buffer.from(`${json(chargedCall(1))}\u0000`) },
    {
      name: 'bytes that are not UTF-8',
      body: Buffer.concat([Buffer.from([0xc3, 0x28]), Buffer.from(json(chargedCall(1)))]),
    },
    {
      name: 'a gzip Content-Encoding',
      body: gzipSync(Buffer.from(json(chargedCall(1)))),
      headers: { 'content-encoding': 'gzip' },
    },
    { name: 'a batch of a free call and a charged one', body: Buffer.from(json([freeCall(1), chargedCall(2)])) },
    { name: 'a batch of one charged call', body: Buffer.from(json([chargedCall(1)])) },
    {
      name: 'a byte-order mark before a batch',
      body: Buffer.concat([bom, Buffer.from(json([freeCall(1), chargedCall(2)]))]),
    },
    {
      name: 'escaped letters in the names',
      body: Buffer.from(
        json(chargedCall(1))
          .replace('call_operation', 'call\\u005foperation')
          .replace('companySearch', 'company\\u0053earch'),
      ),
    },
    {
      name: 'a duplicate tool name, the free one first',
      body: Buffer.from(
        json(chargedCall(1)).replace('"name":"call_operation"', '"name":"search_endpoints","name":"call_operation"'),
      ),
    },
    {
      name: 'a duplicate operationId, the free one first',
      body: Buffer.from(
        json(chargedCall(1)).replace(
          '"operationId":"companySearch"',
          '"operationId":"getCreditBalance","operationId":"companySearch"',
        ),
      ),
    },
    { name: 'an enrichment, which needs confirmation', body: Buffer.from(json(chargedCall(1, 'triggerEnrichment'))) },
    { name: 'an audience build, which needs confirmation', body: Buffer.from(json(chargedCall(1, 'buildAudience'))) },
    {
      name: 'a made-up confirmation token',
      body: Buffer.from(json(chargedCall(1, 'companySearch', { confirmationToken: 'x'.repeat(40) }))),
    },
    {
      name: 'a tool name the free list does not know',
      body: Buffer.from(json({ ...chargedCall(1), params: { ...chargedCall(1).params, name: 'Call_Operation' } })),
    },
    { name: 'an empty body', body: Buffer.alloc(0) },
  ];

  const ledgerRows = async (sso: SsoApp) =>
    Number(
      (await sso.app.db.pool.query('SELECT count(*) AS n FROM credit_ledger WHERE account_id = $1', [sso.accountId]))
        .rows[0]?.n,
    );

  for (const route of ['direct', 'sdk'] as const) {
    it(`no disguise of a charged call gets past an mcp:read token (${route === 'direct' ? 'direct path' : 'SDK route'})`, async () => {
      const sso = apps[route];
      const { tokens } = await readOnlyToken(sso);
      const before = { balance: await balance(sso), ledger: await ledgerRows(sso) };
      for (const disguise of disguises) {
        const answer = await fetch(sso.resource, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            authorization: `Bearer ${tokens.access_token}`,
            ...disguise.headers,
          },
          body: disguise.body,
        });
        const text = await answer.text();
        expect(answer.status, `${disguise.name}: ${text.slice(0, 300)}`).toBe(403);
        const challenge = answer.headers.get('www-authenticate') ?? '';
        expect(challenge, disguise.name).toContain('error="insufficient_scope"');
        expect(challenge, disguise.name).toContain('scope="mcp:spend"');
        expect(JSON.parse(text).error.data.error.code, disguise.name).toBe('insufficient_scope');
      }
      expect(await balance(sso)).toBe(before.balance);
      expect(await ledgerRows(sso)).toBe(before.ledger);
      const confirmations = await sso.app.db.pool.query('SELECT count(*) AS n FROM mcp_used_confirmations');
      expect(Number(confirmations.rows[0]?.n)).toBe(0);

      // What the SDK reads, this check reads too: a free call behind a byte-order mark still runs.
      const free = await fetch(sso.resource, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${tokens.access_token}`,
        },
        body: Buffer.concat([bom, Buffer.from(json(freeCall(3)))]),
      });
      expect(free.status).toBe(200);
      expect(await free.text()).toContain(String(before.balance));
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
