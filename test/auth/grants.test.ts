import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTool, type ToolOutcome } from '../helpers/cli.js';
import { HeadlessBrowser } from './browser.js';
import {
  atRedirect,
  authorizationUrl,
  people,
  pkcePair,
  rawToolsList,
  registerClient,
  signInAtUpstream,
  startSsoApp,
  tokenRequest,
  type SsoApp,
} from './helpers.js';

/**
 * Approvals are remembered per client and account, shown and removed with the accounts
 * command; an operator links a person whose email is not the account's.
 */
describe('remembered approvals and the accounts command', () => {
  let sso: SsoApp;
  const webRedirect = 'https://agent.example/callback';

  beforeAll(async () => {
    // Verdicts are not cached, so that a removal by the command shows at the next call.
    sso = await startSsoApp({ env: { OAUTH_TOKEN_CACHE_SECONDS: '0' } });
  });
  afterAll(async () => {
    await sso?.stop();
  });

  function accounts(...args: string[]): Promise<ToolOutcome> {
    return runTool('accounts', args, { DATABASE_URL: sso.app.service.context.config.DATABASE_URL as string });
  }

  /** An authorization in a fresh browser (a new session): the page it stops at, or the redirect. */
  async function authorize(clientId: string, redirectUri: string, person = people.ada) {
    const browser = new HeadlessBrowser();
    const { challenge, verifier } = pkcePair();
    const page = await signInAtUpstream(
      browser,
      authorizationUrl(sso, clientId, { challenge, redirectUri }),
      person,
      redirectUri,
    );
    return { browser, page, verifier };
  }

  it('asks once per client and account, remembers the approval, and asks again after revoke-grant', async () => {
    const client = await registerClient(sso, {
      client_name: 'Web Agent',
      application_type: 'web',
      redirect_uris: [webRedirect],
    });
    const first = await authorize(client.client_id, webRedirect);
    expect(first.page.text).toContain('Allow <span id="client-name">Web Agent</span>');
    const approved = await first.browser.submit(first.page, 'approve', atRedirect(webRedirect));
    const code = approved.url.searchParams.get('code') as string;
    const tokens = await tokenRequest(sso, {
      grant_type: 'authorization_code',
      code,
      code_verifier: first.verifier,
      redirect_uri: webRedirect,
      client_id: client.client_id,
      resource: sso.resource,
    });
    expect(tokens.status).toBe(200);

    // Another browser, another day: signed in again upstream, but not asked again.
    const second = await authorize(client.client_id, webRedirect);
    expect(second.page.url.href.startsWith(webRedirect)).toBe(true);
    expect(second.page.url.searchParams.get('code')).toBeTruthy();

    const listed = await accounts('list-grants', '--account', String(sso.accountId));
    expect(listed.code, listed.stderr).toBe(0);
    const line = listed.stdout.split('\n').find((l) => l.includes(client.client_id)) ?? '';
    expect(line).toContain(`account ${sso.accountId}`);
    expect(line).toContain('Web Agent');
    expect(line).toMatch(/scopes [^\t]*mcp:read/);
    expect(line).toMatch(/scopes [^\t]*mcp:spend/);
    expect(line).toMatch(/[1-9]\d* active token\(s\)/);

    expect((await rawToolsList(sso.resource, tokens.body.access_token)).status).toBe(200);
    const revoked = await accounts('revoke-grant', '--account', String(sso.accountId), '--client', client.client_id);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toMatch(/Revoked 1 approval/);
    expect((await rawToolsList(sso.resource, tokens.body.access_token)).status).toBe(401);
    expect(
      (
        await tokenRequest(sso, {
          grant_type: 'refresh_token',
          refresh_token: tokens.body.refresh_token,
          client_id: client.client_id,
        })
      ).body.error,
    ).toBe('invalid_grant');
    expect((await accounts('list-grants', '--account', String(sso.accountId))).stdout).not.toContain(client.client_id);

    const third = await authorize(client.client_id, webRedirect);
    expect(third.page.text).toContain('Allow <span id="client-name">Web Agent</span>');
    expect((await accounts('revoke-grant', '--grant', 'no-such-grant')).code).toBe(1);
  });

  it('always asks a native (localhost) client again, saying it was approved before', async () => {
    const client = await registerClient(sso, { client_name: 'Desktop Agent' });
    const redirect = 'http://127.0.0.1:8765/callback';
    const first = await authorize(client.client_id, redirect);
    await first.browser.submit(first.page, 'approve', atRedirect(redirect));
    const second = await authorize(client.client_id, redirect);
    expect(second.page.text).toContain('Desktop Agent');
    expect(second.page.text).toContain('You approved this application before');
    expect(second.page.text).toContain('The answer goes to an application on this computer');
  });

  it('links a person whose email matches no account, with link-identity', async () => {
    const client = await registerClient(sso, { client_name: 'Linked Agent' });
    const redirect = 'http://127.0.0.1:8765/callback';
    const before = await authorize(client.client_id, redirect, people.stranger);
    expect(before.page.text).toContain('No account for this sign-in');
    const created = await sso.app.createAccount({ credits: 4321 });
    const linked = await accounts(
      'link-identity',
      '--account',
      String(created.accountId),
      '--issuer',
      sso.upstream.issuer,
      '--subject',
      people.stranger.sub,
    );
    expect(linked.code, linked.stderr).toBe(0);
    expect(linked.stdout).toContain(`Linked ${people.stranger.sub}`);
    const after = await authorize(client.client_id, redirect, people.stranger);
    expect(after.page.text).toContain('Linked Agent');
    expect(after.page.text).toContain('4,321');
    const bad = await accounts(
      'link-identity',
      '--account',
      String(created.accountId),
      '--issuer',
      'not a url',
      '--subject',
      'x',
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--issuer');
  });
});
