import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { HeadlessBrowser } from './browser.js';
import { atRedirect, authorizationUrl, pkcePair, registerClient, startSsoApp, type SsoApp } from './helpers.js';

/**
 * What MCP clients read before any sign-in: the protected-resource metadata and the
 * authorization server's metadata at the paths the MCP spec makes clients try, the registration
 * endpoint's rules, and the cross-origin answers browsers need.
 */
describe('authorization server discovery and registration', () => {
  let sso: SsoApp;
  beforeAll(async () => {
    sso = await startSsoApp({ env: { CORS_ORIGINS: 'https://app.example' } });
  });
  afterAll(async () => {
    await sso?.stop();
  });

  it('lists our authorization server and the scopes in the protected-resource metadata', async () => {
    const metadata = await sso.app.request('GET', '/.well-known/oauth-protected-resource/mcp/v3');
    expect(metadata.status).toBe(200);
    expect(metadata.body).toMatchObject({
      resource: sso.resource,
      authorization_servers: [sso.issuer],
      scopes_supported: ['mcp:read', 'mcp:spend'],
      bearer_methods_supported: ['header'],
    });
    expect(metadata.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('serves the same authorization-server metadata at all three discovery paths, issuer exactly as built on PUBLIC_URL', async () => {
    const paths = [
      '/.well-known/oauth-authorization-server/oauth',
      '/.well-known/openid-configuration/oauth',
      '/oauth/.well-known/openid-configuration',
    ];
    const documents = await Promise.all(paths.map((path) => sso.app.request('GET', path)));
    for (const document of documents) {
      expect(document.status).toBe(200);
      expect(document.body.issuer).toBe(sso.issuer);
      expect(document.body).toMatchObject({
        authorization_endpoint: `${sso.issuer}/authorize`,
        token_endpoint: `${sso.issuer}/token`,
        registration_endpoint: `${sso.issuer}/register`,
        revocation_endpoint: `${sso.issuer}/revoke`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        authorization_response_iss_parameter_supported: true,
        client_id_metadata_document_supported: true,
      });
      expect(document.body.scopes_supported).toEqual(
        expect.arrayContaining(['mcp:read', 'mcp:spend', 'offline_access']),
      );
      expect(document.body.token_endpoint_auth_methods_supported).toContain('none');
      expect(document.headers.get('access-control-allow-origin')).toBe('*');
    }
    expect(documents[1]?.body).toEqual(documents[2]?.body);
  });

  it('pins the Host: a forged Host or X-Forwarded-Host never reaches the metadata', async () => {
    const port = new URL(sso.app.url).port;
    const body = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: '/.well-known/oauth-authorization-server/oauth',
          headers: { host: `evil.example:${port}`, 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve(text));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(body).not.toContain('evil.example');
    // Without TRUST_PROXY, X-Forwarded-Proto is not believed either.
    expect(JSON.parse(body).token_endpoint).toBe(`${sso.issuer}/token`);
  });

  it('registers public clients, applies the redirect URI rules, and refuses unknown scopes', async () => {
    const native = await registerClient(sso, {
      application_type: 'native',
      redirect_uris: ['http://127.0.0.1:9000/cb', 'com.example.agent:/callback'],
    });
    expect(native.token_endpoint_auth_method).toBe('none');
    const web = await fetch(`${sso.issuer}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        application_type: 'web',
        redirect_uris: ['http://agent.example/callback'],
        token_endpoint_auth_method: 'none',
      }),
    });
    expect(web.status).toBe(400);
    expect(((await web.json()) as any).error).toBe('invalid_redirect_uri');
    const scoped = await fetch(`${sso.issuer}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['https://agent.example/cb'], scope: 'mcp:read mcp:admin' }),
    });
    expect(scoped.status).toBe(400);
    expect(((await scoped.json()) as any).error).toBe('invalid_client_metadata');
  });

  it('answers any origin on the public endpoints, preflights included, with no credentials', async () => {
    for (const path of [
      '/oauth/token',
      '/oauth/register',
      '/oauth/revoke',
      '/oauth/jwks',
      '/.well-known/oauth-authorization-server/oauth',
    ]) {
      const preflight = await fetch(`${sso.app.url}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://anywhere.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
      expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type');
      expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    }
    const token = await fetch(`${sso.issuer}/token`, {
      method: 'POST',
      headers: { origin: 'https://anywhere.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=refresh_token&refresh_token=x&client_id=nobody',
    });
    expect(token.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers MCP preflights without credentials, for allowed origins only, and exposes the headers clients read', async () => {
    for (const [origin, allowed] of [
      ['https://app.example', true],
      ['http://localhost:5173', true],
      ['https://other.example', false],
    ] as const) {
      for (const path of ['/mcp', '/mcp/v2', '/mcp/v3']) {
        const preflight = await fetch(`${sso.app.url}${path}`, {
          method: 'OPTIONS',
          headers: {
            origin,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
          },
        });
        expect(preflight.status).toBe(allowed ? 204 : 403);
        expect(preflight.headers.get('access-control-allow-origin')).toBe(allowed ? origin : null);
        if (allowed) expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
      }
    }
    const refused = await fetch(sso.resource, {
      method: 'POST',
      headers: {
        origin: 'https://app.example',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(refused.headers.get('access-control-expose-headers')).toBe(
      'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate',
    );
  });
});

describe('single sign-on not configured (the embedded default)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ catalog: 'empty' });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('still runs its authorization server, and says what to set where sign-in would happen', async () => {
    const metadata = await app.request('GET', '/.well-known/oauth-protected-resource/mcp/v3');
    expect(metadata.body.authorization_servers).toEqual([`${app.url}/oauth`]);
    const unauthorized = await fetch(`${app.url}/mcp/v3`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(unauthorized.status).toBe(401);
    const challenge = unauthorized.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain('error_description="Single sign-on is not configured on this server');
    expect(challenge).toContain('OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET');
    expect(((await unauthorized.json()) as any).error.message).toContain('OIDC_DEV_PROVIDER=true');

    const fake = { issuer: `${app.url}/oauth`, resource: `${app.url}/mcp/v3` } as SsoApp;
    const client = await registerClient(fake);
    const browser = new HeadlessBrowser();
    const page = await browser.open(
      authorizationUrl(fake, client.client_id, { challenge: pkcePair().challenge }),
      atRedirect('http://127.0.0.1:8765/callback'),
    );
    expect(page.status).toBe(503);
    expect(page.text).toContain('Single sign-on is not configured');
    expect(page.text).toContain('OIDC_ISSUER');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const back = await browser.submit(page, 'abort', atRedirect('http://127.0.0.1:8765/callback'));
    expect(back.url.searchParams.get('error')).toBe('access_denied');
  });
});
