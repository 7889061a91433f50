import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { authorizationUrl, pkcePair, registerClient, startSsoApp, type SsoApp } from './helpers.js';

/**
 * NUL characters (and unpaired surrogates) in what a client sends the authorization server, the
 * interaction pages and the development identity provider: in the query (client_id, state,
 * login_hint, resource, an interaction's uid and state), in form bodies (the token and
 * revocation fields) and in registration JSON. PostgreSQL stores none of them; each is 400
 * invalid_request, and nothing is logged as a server error.
 */
describe('NUL bytes on /oauth and /dev-idp', () => {
  let sso: SsoApp;
  let dev: TestApp;
  const lines: Array<{ level: number; msg: string }> = [];
  const capture = () =>
    createLogger(
      'debug',
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString('utf8').split('\n'))
            if (line) lines.push(JSON.parse(line) as { level: number; msg: string });
          done();
        },
      }),
    );
  let clientId: string;
  beforeAll(async () => {
    sso = await startSsoApp({ log: capture() });
    dev = await startTestApp({ catalog: 'empty', env: { OIDC_DEV_PROVIDER: 'true' }, log: capture() });
    clientId = (await registerClient(sso)).client_id;
  });
  afterAll(async () => {
    await sso?.stop();
    await dev?.stop();
  });

  const expectRefused = async (what: string, answer: Response) => {
    const text = await answer.text();
    expect(answer.status, `${what}: ${text.slice(0, 300)}`).toBe(400);
    expect(JSON.parse(text).error, what).toBe('invalid_request');
  };
  const form = (url: string, fields: Record<string, string>) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
    });

  it('refuses a NUL in any authorization parameter, in either provider', async () => {
    const { challenge } = pkcePair();
    for (const parameter of ['client_id', 'state', 'login_hint', 'resource', 'redirect_uri', 'scope', 'nonce']) {
      for (const issuer of [sso.issuer, `${dev.url}/dev-idp`]) {
        const url = authorizationUrl(sso, clientId, { challenge });
        url.href = url.href.replace(sso.issuer, issuer);
        url.searchParams.set(parameter, `${url.searchParams.get(parameter) ?? 'x'}\u0000`);
        await expectRefused(`${parameter} at ${issuer}`, await fetch(url, { redirect: 'manual' }));
      }
    }
    await expectRefused('an interaction uid', await fetch(`${sso.issuer}/interaction/abc%00`));
    await expectRefused(
      'the sign-in callback state',
      await fetch(`${sso.issuer}/interaction/callback?state=%00&code=x`),
    );
  });

  it('refuses a NUL in the token and revocation fields, and in registration metadata', async () => {
    const { verifier } = pkcePair();
    const token = `${sso.issuer}/token`;
    const cases: Array<[string, Record<string, string>]> = [
      [
        'code',
        {
          grant_type: 'authorization_code',
          code: 'abc\u0000',
          code_verifier: verifier,
          client_id: clientId,
          redirect_uri: 'http://127.0.0.1:8765/callback',
        },
      ],
      [
        'client_id',
        { grant_type: 'authorization_code', code: 'abc', code_verifier: verifier, client_id: `${clientId}\u0000` },
      ],
      ['refresh_token', { grant_type: 'refresh_token', refresh_token: 'r\u0000', client_id: clientId }],
    ];
    for (const [field, fields] of cases) await expectRefused(`token ${field}`, await form(token, fields));
    await expectRefused(
      'revocation token',
      await form(`${sso.issuer}/revoke`, { token: 't\u0000', client_id: clientId }),
    );
    await expectRefused(
      'revocation client_id',
      await form(`${sso.issuer}/revoke`, { token: 't', client_id: `${clientId}\u0000` }),
    );
    await expectRefused(
      'dev-idp token client_id',
      await form(`${dev.url}/dev-idp/token`, {
        grant_type: 'authorization_code',
        code: 'c',
        client_id: 'pds-dev-sso\u0000',
      }),
    );
    for (const [field, value] of [
      ['client_name', 'Name\u0000'],
      ['client_uri', 'https://client.example/\u0000'],
      ['client_name', 'Half \ud800 a pair'],
    ] as const) {
      const answer = await fetch(`${sso.issuer}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          redirect_uris: ['http://127.0.0.1:8765/callback'],
          token_endpoint_auth_method: 'none',
          [field]: value,
        }),
      });
      expect(answer.status, `registration ${field}`).toBe(400);
      expect(['invalid_request', 'invalid_client_metadata']).toContain(
        ((await answer.json()) as { error: string }).error,
      );
    }
  });

  it('logged no server error for any of it', () => {
    const errors = lines.filter((line) => line.level >= 50);
    expect(errors.map((line) => line.msg)).toEqual([]);
  });
});
