import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCimdServer, type CimdServer } from './cimd-server.js';
import { authorizationUrl, pkcePair, startSsoApp, tokensWithScope, type SsoApp } from './helpers.js';

/**
 * The rules for what a client may register, and what the server says about it: web clients'
 * redirect URIs are https (plain http only on loopback), so open registration cannot turn the
 * authorization endpoint's error redirects into a redirector; loopback and private-scheme
 * redirects are a native application's whatever application_type says, and take any port; a
 * public client gets no secret; and the metadata says a public client may revoke its tokens.
 */
describe('client registration rules', () => {
  let sso: SsoApp;
  let dir: string;
  let cimd: CimdServer;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'pds-policy-'));
    cimd = await startCimdServer(dir, 'http://127.0.0.1:8765/callback');
    sso = await startSsoApp({
      env: { OAUTH_REGISTRATIONS_PER_HOUR: '1000', OAUTH_CIMD_ALLOW_LOOPBACK: 'true', OAUTH_CIMD_CA_FILE: cimd.caFile },
    });
  });
  afterAll(async () => {
    await sso?.stop();
    await cimd?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const register = async (metadata: Record<string, unknown>) => {
    const answer = await fetch(`${sso.issuer}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(metadata),
    });
    return { status: answer.status, body: (await answer.json()) as Record<string, any> };
  };
  /** Where /oauth/authorize sends the browser: on to sign-in (the redirect URI was accepted), or an error page. */
  const authorize = async (clientId: string, redirectUri: string) => {
    const answer = await fetch(authorizationUrl(sso, clientId, { challenge: pkcePair().challenge, redirectUri }), {
      redirect: 'manual',
    });
    await answer.text();
    return { status: answer.status, location: answer.headers.get('location') ?? '' };
  };

  it('refuses plain-http redirect URIs of web clients on other hosts, registered or in a metadata document', async () => {
    for (const metadata of [
      { redirect_uris: ['http://evil.example/cb'] },
      { application_type: 'web', redirect_uris: ['http://evil.example/cb'] },
      { application_type: 'web', redirect_uris: ['https://app.example/cb', 'http://evil.example/cb'] },
      { redirect_uris: ['http://10.0.0.8/cb'] },
    ]) {
      const refused = await register({ token_endpoint_auth_method: 'none', ...metadata });
      expect(refused.status, JSON.stringify(metadata)).toBe(400);
      expect(refused.body.error).toBe('invalid_redirect_uri');
      expect(refused.body.error_description).toContain('https');
    }
    const web = await register({ application_type: 'web', redirect_uris: ['https://app.example/cb'] });
    expect(web.status).toBe(201);
    expect(web.body.application_type).toBe('web');

    // The same rule for a client ID metadata document: an error page here, and no redirect to it.
    const fromDocument = await authorize(cimd.url('plain-http'), 'http://evil.example/cb');
    expect(fromDocument.status).toBe(400);
    expect(fromDocument.location).toBe('');
  });

  it('treats loopback and private-scheme redirects as native, whatever application_type says, with any loopback port', async () => {
    for (const applicationType of [undefined, 'web', 'native']) {
      const client = await register({
        ...(applicationType ? { application_type: applicationType } : {}),
        redirect_uris: ['http://127.0.0.1:8765/callback'],
        token_endpoint_auth_method: 'none',
      });
      expect(client.status).toBe(201);
      expect(client.body.application_type).toBe('native');
      for (const port of [8765, 51234]) {
        const started = await authorize(client.body.client_id, `http://127.0.0.1:${port}/callback`);
        expect(started.status, `${applicationType} on port ${port}`).toBe(303);
        expect(started.location).toContain('/oauth/interaction/');
      }
      // Another path or host is still another redirect URI.
      expect((await authorize(client.body.client_id, 'http://127.0.0.1:51234/elsewhere')).status).toBe(400);
    }
    const privateScheme = await register({
      application_type: 'web',
      redirect_uris: ['com.example.agent:/callback'],
      token_endpoint_auth_method: 'none',
    });
    expect(privateScheme.status).toBe(201);
    expect(privateScheme.body.application_type).toBe('native');
    for (const forbidden of ['javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd']) {
      expect((await register({ redirect_uris: [forbidden] })).status, forbidden).toBe(400);
    }
  });

  it('issues no secret to a public client, and one to a confidential client', async () => {
    const omitted = await register({ redirect_uris: ['http://127.0.0.1:8765/callback'] });
    expect(omitted.status).toBe(201);
    expect(omitted.body.token_endpoint_auth_method).toBe('none');
    expect(omitted.body).not.toHaveProperty('client_secret');
    expect(omitted.body).not.toHaveProperty('client_secret_expires_at');
    const none = await register({ redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'none' });
    expect(none.body).not.toHaveProperty('client_secret');
    const confidential = await register({
      redirect_uris: ['https://app.example/cb'],
      token_endpoint_auth_method: 'client_secret_basic',
    });
    expect(confidential.status).toBe(201);
    expect(typeof confidential.body.client_secret).toBe('string');
    // The stored client agrees with what was answered.
    const stored = await sso.app.db.pool.query<{ payload: Record<string, unknown> }>(
      `SELECT payload FROM oauth_models WHERE kind = 'Client' AND id = $1`,
      [omitted.body.client_id],
    );
    expect(stored.rows[0]?.payload).not.toHaveProperty('client_secret');
  });

  it('advertises that public clients may revoke, and a bare client_id revokes', async () => {
    const metadata = await sso.app.request('GET', '/.well-known/oauth-authorization-server/oauth');
    expect(metadata.body.revocation_endpoint_auth_methods_supported).toContain('none');
    expect(metadata.body.revocation_endpoint_auth_methods_supported).toEqual(
      metadata.body.token_endpoint_auth_methods_supported,
    );
    const tokens = await tokensWithScope(sso, 'mcp:read');
    const introspect = () =>
      fetch(sso.resource, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${tokens.access_token}`,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      }).then(async (answer) => {
        await answer.text();
        return answer.status;
      });
    expect(await introspect()).toBe(200);
    const clientId = (
      await sso.app.db.pool.query<{ client_id: string }>(
        `SELECT client_id FROM oauth_models WHERE kind = 'AccessToken' AND id = $1`,
        [tokens.access_token],
      )
    ).rows[0]?.client_id as string;
    const revoked = await fetch(`${sso.issuer}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.access_token, client_id: clientId }),
    });
    expect(revoked.status).toBe(200);
    expect(await introspect()).toBe(401);
  });
});
