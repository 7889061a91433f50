import { createPrivateKey, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HeadlessBrowser } from './browser.js';
import {
  atRedirect,
  authorizationUrl,
  authorizeByHand,
  people,
  pkcePair,
  rawToolsList,
  registerClient,
  signInAtUpstream,
  startSsoApp,
  tokenRequest,
  type SsoApp,
} from './helpers.js';

/** Each way single sign-on must refuse, with the error a client or a person then sees. */
describe('single sign-on refusals', () => {
  let sso: SsoApp;
  let clientId: string;
  const redirectUri = 'http://127.0.0.1:8765/callback';
  /** Rewrites the upstream's ID tokens while set: a misbehaving or impersonated identity provider. */
  let tamper: ((idToken: string) => string) | null = null;

  beforeAll(async () => {
    sso = await startSsoApp();
    clientId = (await registerClient(sso)).client_id;
    sso.upstream.provider().use(async (ctx, next) => {
      await next();
      const body = ctx.body as { id_token?: string } | undefined;
      if (tamper && ctx.oidc?.route === 'token' && body?.id_token)
        ctx.body = { ...body, id_token: tamper(body.id_token) };
    });
  });
  afterAll(async () => {
    await sso?.stop();
  });

  /** A code for `clientId`, through sign-in and consent. */
  async function code(scope?: string): Promise<{ code: string; verifier: string }> {
    const { verifier, challenge } = pkcePair();
    const callback = await authorizeByHand(sso, clientId, { challenge, scope });
    const value = callback.searchParams.get('code');
    if (!value) throw new Error(`no code: ${callback.href}`);
    return { code: value, verifier };
  }

  const exchange = (value: string, verifier: string, resource = sso.resource) =>
    tokenRequest(sso, {
      grant_type: 'authorization_code',
      code: value,
      code_verifier: verifier,
      redirect_uri: redirectUri,
      client_id: clientId,
      resource,
    });

  async function tokens(): Promise<{ access_token: string; refresh_token: string }> {
    const { code: value, verifier } = await code();
    const answer = await exchange(value, verifier);
    expect(answer.status).toBe(200);
    return answer.body;
  }

  it('refuses an authorization request without resource, or for another resource (invalid_target)', async () => {
    const browser = new HeadlessBrowser();
    const { challenge } = pkcePair();
    for (const resource of [null, 'https://elsewhere.example/mcp', `${sso.app.url}/mcp`, `${sso.app.url}/mcp/v2`]) {
      const landed = await browser.open(
        authorizationUrl(sso, clientId, { challenge, resource }),
        atRedirect(redirectUri),
      );
      expect(landed.url.href.startsWith(redirectUri)).toBe(true);
      expect(landed.url.searchParams.get('error')).toBe('invalid_target');
      expect(landed.url.searchParams.get('iss')).toBe(sso.issuer);
      expect(landed.url.searchParams.get('code')).toBeNull();
    }
  });

  it('refuses a token request for another resource', async () => {
    const { code: value, verifier } = await code();
    const answer = await exchange(value, verifier, 'https://elsewhere.example/mcp');
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid_target');
  });

  it('refuses an authorization request without PKCE, and a token request with the wrong verifier', async () => {
    const url = authorizationUrl(sso, clientId, { challenge: 'x' });
    url.searchParams.delete('code_challenge');
    url.searchParams.delete('code_challenge_method');
    const landed = await new HeadlessBrowser().open(url, atRedirect(redirectUri));
    expect(landed.url.searchParams.get('error')).toBe('invalid_request');
    expect(landed.url.searchParams.get('error_description')).toMatch(/PKCE/);

    const { code: value, verifier } = await code();
    const answer = await exchange(value, pkcePair().verifier);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid_grant');
    // Someone who intercepted the code gains nothing, and the client that holds the verifier is not locked out.
    const rightful = await exchange(value, verifier);
    expect(rightful.status).toBe(200);
  });

  it('refuses a code used twice, and revokes what the first use issued', async () => {
    const { code: value, verifier } = await code();
    const first = await exchange(value, verifier);
    expect(first.status).toBe(200);
    expect((await rawToolsList(sso.resource, first.body.access_token)).status).toBe(200);
    const second = await exchange(value, verifier);
    expect(second.status).toBe(400);
    expect(second.body.error).toBe('invalid_grant');
    expect((await rawToolsList(sso.resource, first.body.access_token)).status).toBe(401);
  });

  it('refuses a replayed answer of the identity provider (state used once)', async () => {
    const browser = new HeadlessBrowser();
    const { challenge } = pkcePair();
    await signInAtUpstream(browser, authorizationUrl(sso, clientId, { challenge }), people.ada, redirectUri);
    const callback = browser.visited.find((url) => url.pathname === '/oauth/interaction/callback');
    expect(callback?.searchParams.get('state')).toBeTruthy();
    const replay = await browser.open(callback as URL, atRedirect(redirectUri));
    expect(replay.status).toBe(400);
    expect(replay.text).toContain('already used or has expired');
  });

  it('refuses an expired access token (401 invalid_token)', async () => {
    const { access_token: token } = await tokens();
    await sso.app.db.pool.query(
      `UPDATE oauth_models SET payload = jsonb_set(payload, '{exp}', to_jsonb(extract(epoch FROM now())::bigint - 5)) WHERE kind = 'AccessToken' AND id = $1`,
      [token],
    );
    const answer = await rawToolsList(sso.resource, token);
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(answer.body.error.message).toMatch(/invalid, expired or revoked/);
  });

  it('does not accept our token on /mcp, /mcp/v2 or /v1', async () => {
    const { access_token: token } = await tokens();
    for (const path of ['/mcp', '/mcp/v2']) {
      const asBearer = await rawToolsList(`${sso.app.url}${path}`, token);
      expect(asBearer.status).toBe(401);
      expect(asBearer.body.error.message).toContain('OAuth bearer token is not accepted here');
      const asKey = await rawToolsList(`${sso.app.url}${path}`, 'unused', { 'x-api-key': token });
      expect(asKey.status).toBe(401);
      expect(asKey.body.error.message).toMatch(/^Invalid API key/);
    }
    const rest = await sso.app.request('GET', `/v1/credits?apiKey=${encodeURIComponent(token)}`);
    expect(rest.status).toBe(401);
    const restBearer = await fetch(`${sso.app.url}/v1/credits`, { headers: { authorization: `Bearer ${token}` } });
    expect(restBearer.status).toBe(401);
  });

  it("never accepts the identity provider's tokens as ours", async () => {
    // An access token the upstream provider issued (to our service, for Ada): a real one, in its own store.
    const upstream = sso.upstream.provider();
    const issued = new upstream.AccessToken({
      accountId: people.ada.sub,
      clientId: sso.upstream.clientId,
      scope: 'openid email',
      grantId: 'upstream-grant',
    } as never);
    const value = await issued.save();
    expect(await upstream.AccessToken.find(value)).toBeTruthy();
    const answer = await rawToolsList(sso.resource, value);
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  for (const [name, forge, expected] of [
    ['a bad signature', (token: string) => `${token.slice(0, -6)}AAAAAA`, /signature/i],
    ['a wrong nonce', null, /nonce/i],
    ['another audience', null, /aud/i],
  ] as const) {
    it(`refuses an upstream ID token with ${name}, and signs nobody in`, async () => {
      const key = createPrivateKey({ key: sso.upstream.jwks.keys[0] as never, format: 'jwk' });
      const resign = (token: string, change: (claims: Record<string, unknown>) => void) => {
        const [header, payload] = token.split('.') as [string, string];
        const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
        change(claims);
        const body = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
        return `${body}.${sign('RSA-SHA256', Buffer.from(body), key).toString('base64url')}`;
      };
      tamper =
        forge ??
        (name === 'a wrong nonce'
          ? (token) => resign(token, (claims) => (claims.nonce = 'not-the-one-we-sent'))
          : (token) => resign(token, (claims) => (claims.aud = 'some-other-client')));
      try {
        const browser = new HeadlessBrowser();
        const { challenge } = pkcePair();
        const page = await signInAtUpstream(
          browser,
          authorizationUrl(sso, clientId, { challenge }),
          people.ada,
          redirectUri,
        );
        expect(page.status).toBe(403);
        expect(page.text).toContain('failed verification, so nobody was signed in');
        expect(page.text).toMatch(expected);
        expect(browser.visited.some((url) => url.href.startsWith(redirectUri))).toBe(false);
        // The person can send the application the refusal; still no code.
        const back = await browser.submit(page, 'abort', atRedirect(redirectUri));
        expect(back.url.searchParams.get('error')).toBe('access_denied');
        expect(back.url.searchParams.get('code')).toBeNull();
      } finally {
        tamper = null;
      }
    });
  }

  it('tells a person with no account so, and gives the client no token', async () => {
    for (const person of [people.stranger, people.unverified]) {
      const browser = new HeadlessBrowser();
      const { challenge } = pkcePair();
      const page = await signInAtUpstream(browser, authorizationUrl(sso, clientId, { challenge }), person, redirectUri);
      expect(page.status).toBe(403);
      expect(page.text).toContain('No account for this sign-in');
      expect(page.text).toContain(person.email);
      const back = await browser.submit(page, 'abort', atRedirect(redirectUri));
      expect(back.url.searchParams.get('error')).toBe('access_denied');
      expect(back.url.searchParams.get('code')).toBeNull();
    }
  });

  it('sends access_denied and no code when the person denies consent', async () => {
    const { challenge } = pkcePair();
    const callback = await authorizeByHand(sso, clientId, { challenge, decision: 'deny' });
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('iss')).toBe(sso.issuer);
    expect(callback.searchParams.get('code')).toBeNull();
  });

  it('refuses a consent form posted from elsewhere (CSRF)', async () => {
    const browser = new HeadlessBrowser();
    const { challenge } = pkcePair();
    const consent = await signInAtUpstream(
      browser,
      authorizationUrl(sso, clientId, { challenge }),
      people.ada,
      redirectUri,
    );
    const forged = await browser.submit(consent, 'approve', atRedirect(redirectUri), { csrf: 'forged' });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain('was not sent from the consent page');
    browser.publicOrigin = 'https://attacker.example';
    const crossSite = await browser.submit(consent, 'approve', atRedirect(redirectUri));
    expect(crossSite.status).toBe(403);
  });

  it('refuses an authorization request that asks for none of the MCP scopes (invalid_scope)', async () => {
    const { challenge } = pkcePair();
    const landed = await new HeadlessBrowser().open(
      authorizationUrl(sso, clientId, { challenge, scope: 'offline_access' }),
      atRedirect(redirectUri),
    );
    expect(landed.url.searchParams.get('error')).toBe('invalid_scope');
    expect(landed.url.searchParams.get('error_description')).toContain('mcp:read and/or mcp:spend');
    expect(landed.url.searchParams.get('code')).toBeNull();
  });

  it('refuses a consent page opened in another browser (no interaction cookie), granting nothing', async () => {
    const { challenge } = pkcePair();
    const consent = await signInAtUpstream(
      new HeadlessBrowser(),
      authorizationUrl(sso, clientId, { challenge }),
      people.ada,
      redirectUri,
    );
    const elsewhere = await new HeadlessBrowser().open(consent.url, atRedirect(redirectUri));
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.text).toContain('This sign-in has expired');
  });

  it('revokes the whole grant when a rotated refresh token is used again', async () => {
    const first = await tokens();
    const rotated = await tokenRequest(sso, {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id: clientId,
      resource: sso.resource,
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).not.toBe(first.refresh_token);
    expect((await rawToolsList(sso.resource, rotated.body.access_token)).status).toBe(200);

    const reuse = await tokenRequest(sso, {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id: clientId,
    });
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe('invalid_grant');
    // Everything of the grant is gone: the newest access and refresh tokens too.
    expect((await rawToolsList(sso.resource, rotated.body.access_token)).status).toBe(401);
    const newest = await tokenRequest(sso, {
      grant_type: 'refresh_token',
      refresh_token: rotated.body.refresh_token,
      client_id: clientId,
    });
    expect(newest.body.error).toBe('invalid_grant');
  });
});
