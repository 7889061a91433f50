import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientInformationMixed,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type OAuthTokens,
} from '@modelcontextprotocol/client';
import express from 'express';
import type Provider from 'oidc-provider';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { createDevProvider, type DevPerson } from '../../src/auth/dev-provider.js';
import { generateSigningJwk, type SigningJwks } from '../../src/auth/signing-keys.js';
import { startTestApp, type TestApp, type TestAppOptions } from '../helpers/app.js';
import { HeadlessBrowser, type Page } from './browser.js';

/**
 * What the OAuth tests share: a real upstream OpenID provider (a second oidc-provider instance,
 * on its own port), the service configured to sign people in there, and an OAuth client
 * provider for the official MCP client that records where it was sent and what it was given.
 */

export const people: Record<'ada' | 'stranger' | 'unverified' | 'kelvin', DevPerson> = {
  ada: { sub: 'ada-1815', name: 'Ada Lovelace', email: 'ada@analytical.example', emailVerified: true },
  // The K is U+212A KELVIN SIGN, which Unicode lowercasing turns into an ASCII k.
  kelvin: { sub: 'kelvin-1', name: 'Not Kate', email: '\u212Aate@beta.example', emailVerified: true },
  stranger: { sub: 'stranger-1', name: 'Nobody Here', email: 'nobody@elsewhere.example', emailVerified: true },
  unverified: { sub: 'unverified-1', name: 'Unverified Person', email: 'ada@analytical.example', emailVerified: false },
};

export interface Upstream {
  issuer: string;
  clientId: string;
  clientSecret: string;
  jwks: SigningJwks;
  /** The provider, once the service's redirect URI is known. */
  provider(): Provider;
  configure(redirectUri: string): Promise<void>;
  stop(): Promise<void>;
}

/** The upstream provider's storage: a map per provider (it lives as long as the test file). */
function memoryAdapter(): (kind: string) => Adapter {
  const rows = new Map<string, { payload: AdapterPayload; expiresAt: number }>();
  const live = (key: string) => {
    const row = rows.get(key);
    return row && row.expiresAt > Date.now() ? row.payload : undefined;
  };
  return (kind) => ({
    upsert: async (id, payload, expiresIn) => {
      rows.set(`${kind}:${id}`, { payload, expiresAt: Date.now() + (expiresIn ?? 3600) * 1000 });
    },
    find: async (id) => live(`${kind}:${id}`),
    findByUid: async (uid) =>
      [...rows.keys()]
        .filter((key) => key.startsWith(`${kind}:`))
        .map(live)
        .find((p) => p?.uid === uid),
    findByUserCode: async () => undefined,
    consume: async (id) => {
      const row = rows.get(`${kind}:${id}`);
      if (row) row.payload = { ...row.payload, consumed: Math.floor(Date.now() / 1000) };
    },
    destroy: async (id) => {
      rows.delete(`${kind}:${id}`);
    },
    revokeByGrantId: async (grantId) => {
      for (const [key, row] of rows) if (row.payload.grantId === grantId) rows.delete(key);
    },
  });
}

/** A real OpenID provider on a free port; its client (the service) is registered once the service's URL is known. */
export async function startUpstream(): Promise<Upstream> {
  const app = express();
  let instance: Awaited<ReturnType<typeof createDevProvider>> | null = null;
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/idp`;
  const jwks = { keys: [generateSigningJwk()] };
  const clientId = 'prospecting-sso';
  const clientSecret = randomBytes(24).toString('base64url');
  app.use('/idp/interaction', (req, res, next) => (instance ? instance.interactions(req, res, next) : next()));
  app.use('/idp', (req, res) => {
    if (!instance) return res.status(503).end();
    return instance.provider.callback()(req, res);
  });
  return {
    issuer,
    clientId,
    clientSecret,
    jwks,
    provider: () => {
      if (!instance) throw new Error('upstream not configured');
      return instance.provider;
    },
    configure: async (redirectUri) => {
      instance = await createDevProvider({
        issuer,
        people: async () => Object.values(people),
        clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri] }],
        jwks,
        cookiePrefix: 'upstream',
        adapter: memoryAdapter(),
        title: 'Test upstream identity provider',
      });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface SsoApp {
  app: TestApp;
  upstream: Upstream;
  /** The demo account's id; Ada's email is set on it. */
  accountId: number;
  resource: string;
  issuer: string;
  stop(): Promise<void>;
}

/** The service signing people in at a fresh upstream provider; Ada (verified email) owns the demo account. */
export async function startSsoApp(options: TestAppOptions = {}): Promise<SsoApp> {
  const upstream = await startUpstream();
  const app = await startTestApp({
    catalog: 'empty',
    ...options,
    env: {
      // Every sign-in of a test file comes from one address; the limit is tested where it is the subject.
      OAUTH_SIGN_INS_PER_MINUTE: '100000',
      OIDC_ISSUER: upstream.issuer,
      OIDC_CLIENT_ID: upstream.clientId,
      OIDC_CLIENT_SECRET: upstream.clientSecret,
      ...options.env,
    },
  });
  await upstream.configure(`${app.url}/oauth/interaction/callback`);
  const demo = await app.db.pool.query<{ id: string }>(`SELECT id FROM accounts WHERE plan = 'demo'`);
  const accountId = Number(demo.rows[0]?.id);
  await app.db.pool.query('UPDATE accounts SET email = $1 WHERE id = $2', [people.ada.email, accountId]);
  return {
    app,
    upstream,
    accountId,
    resource: `${app.url}/mcp/v3`,
    issuer: `${app.url}/oauth`,
    stop: async () => {
      await app.stop();
      await upstream.stop();
    },
  };
}

/** The official client's OAuth provider, in memory: a DCR client, or a CIMD client when `clientMetadataUrl` is given. */
export class RecordingOAuthProvider implements OAuthClientProvider {
  authorizationUrls: URL[] = [];
  private client: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';
  private discovery: OAuthDiscoveryState | undefined;
  readonly redirectUri: string;
  lastState = '';

  constructor(
    private readonly options: {
      redirectUri?: string;
      clientMetadataUrl?: string;
      scope?: string;
      clientName?: string;
    } = {},
  ) {
    this.redirectUri = options.redirectUri ?? 'http://127.0.0.1:8765/callback';
  }

  get redirectUrl(): string {
    return this.redirectUri;
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.options.clientName ?? 'Test MCP client',
      redirect_uris: [this.redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...(this.options.scope ? { scope: this.options.scope } : {}),
    };
  }

  state(): string {
    this.lastState = randomBytes(16).toString('base64url');
    return this.lastState;
  }

  clientInformation() {
    return this.client;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.client = info;
  }

  tokens() {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrls.push(url);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState() {
    return this.discovery;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'client') this.client = undefined;
  }

  /** Starts from a client and tokens obtained elsewhere (by hand), as a client that signed in earlier. */
  seed(client: OAuthClientInformationMixed, tokens: OAuthTokens): void {
    this.client = client;
    this.saved = tokens;
  }

  get lastAuthorizationUrl(): URL {
    const url = this.authorizationUrls.at(-1);
    if (!url) throw new Error('the client never asked to open the authorization URL');
    return url;
  }

  get currentTokens(): OAuthTokens {
    if (!this.saved) throw new Error('no tokens');
    return this.saved;
  }
}

export const atRedirect = (redirectUri: string) => (url: URL) => url.href.startsWith(redirectUri);

/**
 * The person's part, in the headless browser: from the authorization URL through the upstream
 * sign-in (as `person`) to our consent page; returns that page (or wherever the flow stopped).
 */
export async function signInAtUpstream(
  browser: HeadlessBrowser,
  authorizationUrl: URL,
  person: DevPerson,
  redirectUri: string,
): Promise<Page> {
  const upstreamPage = await browser.open(authorizationUrl, atRedirect(redirectUri));
  if (upstreamPage.status !== 200 || !upstreamPage.text.includes(person.email)) {
    throw new Error(
      `expected the upstream sign-in page, got ${upstreamPage.status} at ${upstreamPage.url.href}: ${upstreamPage.text.slice(0, 500)}`,
    );
  }
  return browser.submit(upstreamPage, null, atRedirect(redirectUri), {}, `sub=${encodeURIComponent(person.sub)}`);
}

export interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
}

/** Connects the official client (2026 era by default) with the provider's tokens. */
export async function connectWithTokens(
  url: string,
  provider: OAuthClientProvider,
  era: 'modern' | 'legacy' = 'modern',
): Promise<Connected> {
  const client = new Client(
    { name: 'sso-test', version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
  await client.connect(transport);
  return { client, transport };
}

/**
 * The whole flow with the official client: connect (401), discovery and registration by the SDK,
 * the person signs in upstream and approves (or denies) on our consent page, the client
 * finishes with the code, and connects again with its tokens.
 */
export async function authorizeAndConnect(
  sso: SsoApp,
  provider: RecordingOAuthProvider,
  options: { person?: DevPerson; decision?: 'approve' | 'deny'; browser?: HeadlessBrowser } = {},
): Promise<{ connected: Connected | null; consentPage: Page; callback: URL }> {
  const browser = options.browser ?? new HeadlessBrowser();
  const first = new Client(
    { name: 'sso-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const transport = new StreamableHTTPClientTransport(new URL(sso.resource), { authProvider: provider });
  await first.connect(transport).then(
    () => {
      throw new Error('connected without signing in');
    },
    (error: unknown) => {
      if (!(error instanceof UnauthorizedError)) throw error;
    },
  );
  const consentPage = await signInAtUpstream(
    browser,
    provider.lastAuthorizationUrl,
    options.person ?? people.ada,
    provider.redirectUri,
  );
  if (consentPage.status !== 200 || !consentPage.text.includes('Approve')) {
    throw new Error(
      `expected our consent page, got ${consentPage.status} at ${consentPage.url.href}: ${consentPage.text.slice(0, 600)}`,
    );
  }
  const landed = await browser.submit(consentPage, options.decision ?? 'approve', atRedirect(provider.redirectUri));
  const callback = landed.url;
  if (!callback.href.startsWith(provider.redirectUri))
    throw new Error(
      `expected the client's redirect URI, got ${landed.status} ${callback.href}: ${landed.text.slice(0, 500)}`,
    );
  if (callback.searchParams.get('error')) return { connected: null, consentPage, callback };
  await transport.finishAuth(callback.searchParams);
  return { connected: await connectWithTokens(sso.resource, provider), consentPage, callback };
}

/**
 * A request to the service by hand, its whole answer read. One with no complete answer within 30 s (an event stream
 * left open, a handler that never answers) fails, naming the request, rather than holding the test until the runner's
 * timeout.
 */
export async function answerTo(
  url: string | URL,
  init: RequestInit,
): Promise<{ status: number; headers: Headers; text: string }> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
    return { status: response.status, headers: response.headers, text: await response.text() };
  } catch (error) {
    if ((error as Error).name !== 'TimeoutError') throw error;
    throw new Error(`${init.method ?? 'GET'} ${String(url)} had no complete answer within 30 s`, { cause: error });
  }
}

/** A public client registered dynamically, for tests that drive the protocol by hand. */
export async function registerClient(
  sso: SsoApp,
  metadata: Record<string, unknown> = {},
): Promise<{ client_id: string } & Record<string, unknown>> {
  const response = await answerTo(`${sso.issuer}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Hand-driven client',
      redirect_uris: ['http://127.0.0.1:8765/callback'],
      application_type: 'native',
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'none',
      ...metadata,
    }),
  });
  const body = JSON.parse(response.text);
  if (response.status !== 201) throw new Error(`registration refused: ${response.status} ${JSON.stringify(body)}`);
  return body as { client_id: string };
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizationUrl(
  sso: SsoApp,
  clientId: string,
  options: { challenge: string; resource?: string | null; scope?: string; state?: string; redirectUri?: string },
): URL {
  const url = new URL(`${sso.issuer}/authorize`);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', clientId);
  url.searchParams.set('redirect_uri', options.redirectUri ?? 'http://127.0.0.1:8765/callback');
  url.searchParams.set('scope', options.scope ?? 'mcp:read mcp:spend offline_access');
  url.searchParams.set('code_challenge', options.challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('state', options.state ?? randomBytes(8).toString('hex'));
  if (options.resource !== null) url.searchParams.set('resource', options.resource ?? sso.resource);
  return url;
}

export async function tokenRequest(
  sso: SsoApp,
  params: Record<string, string>,
): Promise<{ status: number; body: any }> {
  const response = await answerTo(`${sso.issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params),
  });
  return { status: response.status, body: JSON.parse(response.text) };
}

/**
 * By hand: a registered client's authorization request, the person's sign-in upstream and
 * approval; returns the callback URL the browser was sent to (with the code, or an error).
 */
export async function authorizeByHand(
  sso: SsoApp,
  clientId: string,
  options: {
    challenge: string;
    scope?: string;
    person?: DevPerson;
    browser?: HeadlessBrowser;
    decision?: 'approve' | 'deny';
  },
): Promise<URL> {
  const browser = options.browser ?? new HeadlessBrowser();
  const redirectUri = 'http://127.0.0.1:8765/callback';
  const consent = await signInAtUpstream(
    browser,
    authorizationUrl(sso, clientId, options),
    options.person ?? people.ada,
    redirectUri,
  );
  if (consent.url.href.startsWith(redirectUri)) return consent.url;
  const landed = await browser.submit(consent, options.decision ?? 'approve', atRedirect(redirectUri));
  if (!landed.url.href.startsWith(redirectUri))
    throw new Error(`expected the redirect URI, got ${landed.status} ${landed.url.href}: ${landed.text.slice(0, 400)}`);
  return landed.url;
}

/** tools/list on an MCP URL with a bearer token, without a client library: the raw HTTP answer. */
export async function rawToolsList(
  url: string,
  token: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const response = await answerTo(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  const text = response.text;
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // an event stream: kept as text
  }
  return { status: response.status, headers: response.headers, body };
}

/** Tokens of `scope` for Ada's account, obtained by hand: a registered client, sign-in and consent, the code exchanged. */
export async function tokensWithScope(
  sso: SsoApp,
  scope: string,
  metadata: Record<string, unknown> = {},
): Promise<{ access_token: string; refresh_token?: string; scope: string; token_type: string; client_id: string }> {
  const client = await registerClient(sso, { client_name: `Client for ${scope}`, ...metadata });
  const { verifier, challenge } = pkcePair();
  const callback = await authorizeByHand(sso, client.client_id, { challenge, scope });
  const answer = await tokenRequest(sso, {
    grant_type: 'authorization_code',
    code: callback.searchParams.get('code') as string,
    code_verifier: verifier,
    redirect_uri: 'http://127.0.0.1:8765/callback',
    client_id: client.client_id,
    resource: sso.resource,
  });
  if (answer.status !== 200) throw new Error(`token request refused: ${answer.status} ${JSON.stringify(answer.body)}`);
  return { ...answer.body, client_id: client.client_id };
}
