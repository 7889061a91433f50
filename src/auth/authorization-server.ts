import { createHash } from 'node:crypto';
import type Provider from 'oidc-provider';
import type { ClientAuthMethod, Configuration, KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { Database } from '../store/db.js';
import { postgresAdapterFactory } from './adapter.js';
import type { Principal } from '../core/principal.js';
import type { BearerGrant, BearerTokenVerifier } from './bearer.js';
import { applyClientPolicy, extraClientProperties } from './client-policy.js';
import { recordGrantUse } from './grant-usage.js';
import { cookieKeys, loadJwks } from './signing-keys.js';
import { oidcProvider } from './oidc-library.js';
import { escapeHtml } from './pages.js';
import { rememberingDocumentFetch } from './document-fetch.js';
import { createSafeFetch } from './safe-fetch.js';
import { mcpScopes } from './scopes.js';

/**
 * Our OAuth authorization server towards MCP clients, on oidc-provider: authorization code with
 * PKCE (S256) only, public clients allowed, resource indicators (our /mcp/v3 URL and nothing
 * else), client ID metadata documents and dynamic registration, opaque access tokens of an
 * hour, refresh tokens rotated on every use (a rotated one used again revokes the grant),
 * revocation; all state in PostgreSQL through the adapter. The people behind the tokens sign in
 * at the external identity provider (interactions.ts) and approve each client on our consent
 * page; the grant they approve is remembered per client and account.
 */

/** Where the provider is mounted on the app, and the issuer's path below PUBLIC_URL. */
export const oauthMount = '/oauth';
export const interactionMount = `${oauthMount}/interaction`;
export const upstreamCallbackPath = `${interactionMount}/callback`;
/** oidc-provider's route paths, relative to the mount. */
export const oauthRoutes = {
  authorization: '/authorize',
  token: '/token',
  registration: '/register',
  revocation: '/revoke',
  jwks: '/jwks',
  end_session: '/logout',
} as const;

const hour = 3600;
/** How clients authenticate at the token and revocation endpoints; public clients (none) first. */
const clientAuthMethods: ClientAuthMethod[] = ['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'];
/** How long a client ID metadata document's fetch (a failure included) is remembered. */
const documentRememberedForMs = 30_000;
/** The whole fetch of a document, headers and body, as oidc-provider bounds its request. */
const documentDeadlineMs = 2_500;
/** oidc-provider's limit on a document (fetchResponseBodyLimits). */
const documentMaxBytes = 5 * 1024;
const day = 24 * hour;

/** What the authorization server needs of the service. */
export interface AuthorizationServerContext {
  config: Config;
  db: Database;
  log: Logger;
  publicUrl: string;
}

export interface AuthorizationServerOptions {
  context: AuthorizationServerContext;
  signingKey: () => Promise<Buffer>;
  /** Set when no identity provider is configured: why sign-in cannot work, and what to set. */
  notConfigured: string | null;
}

interface CachedGrant {
  grant: BearerGrant | null;
  until: number;
}

export class AuthorizationServer {
  readonly issuer: string;
  /** The one resource tokens are issued for: /mcp/v3's canonical URL. */
  readonly resource: string;
  readonly publicPath: string;
  private provider: Promise<Provider> | null = null;
  private readonly tokenCache = new Map<string, CachedGrant>();

  constructor(private readonly options: AuthorizationServerOptions) {
    const { publicUrl } = options.context;
    this.issuer = `${publicUrl}${oauthMount}`;
    this.resource = `${publicUrl}/mcp/v3`;
    this.publicPath = new URL(this.issuer).pathname;
  }

  /** The provider, built on first use (its keys live in the database). */
  ready(): Promise<Provider> {
    this.provider ??= this.build().catch((error: unknown) => {
      this.provider = null;
      throw error;
    });
    return this.provider;
  }

  /** Forgets cached token verdicts, e.g. after a revocation on this instance. */
  forgetTokens(): void {
    this.tokenCache.clear();
  }

  private async build(): Promise<Provider> {
    const { context } = this.options;
    const { config, db } = context;
    const { default: ProviderClass, errors } = await oidcProvider();
    const signingKey = await this.options.signingKey();
    const jwks = await loadJwks(db.pool);
    const interactionPublicPath = `${this.publicPath}/interaction`;
    const resource = this.resource;
    const fetchDocument = rememberingDocumentFetch(
      createSafeFetch({ allowLoopback: config.OAUTH_CIMD_ALLOW_LOOPBACK, extraCaFile: config.OAUTH_CIMD_CA_FILE }),
      { rememberMs: documentRememberedForMs, deadlineMs: documentDeadlineMs, maxBytes: documentMaxBytes },
    );

    const configuration: Configuration = {
      adapter: postgresAdapterFactory(db.pool),
      clients: [],
      jwks: jwks as Configuration['jwks'],
      cookies: {
        keys: cookieKeys(signingKey),
        // Distinct names, so that another provider on the same host (the development one) keeps its own.
        names: { session: 'pds_oauth_session', interaction: 'pds_oauth_interaction', resume: 'pds_oauth_resume' },
        // The interaction cookie must reach the callback from the identity provider too.
        short: { path: interactionPublicPath, httpOnly: true, sameSite: 'lax' },
        long: { httpOnly: true, sameSite: 'lax' },
      },
      routes: oauthRoutes,
      claims: { openid: ['sub'] },
      scopes: ['openid', 'offline_access', ...mcpScopes],
      responseTypes: ['code'],
      pkce: { required: () => true },
      clientAuthMethods,
      // MCP clients are public clients; one that omits the method in registration gets none, not a secret.
      clientDefaults: {
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      },
      allowOmittingSingleRegisteredRedirectUri: false,
      // The registration policy (client-policy.ts) runs wherever a client's metadata is read.
      extraClientMetadata: {
        properties: [...extraClientProperties],
        validator: (_ctx, property, _value, metadata) => {
          if (property === extraClientProperties[0]) applyClientPolicy(metadata as Record<string, unknown>, errors);
        },
      },
      features: {
        devInteractions: { enabled: false },
        userinfo: { enabled: false },
        rpInitiatedLogout: { enabled: false },
        introspection: { enabled: false },
        revocation: {
          enabled: true,
          // A client revokes only its own tokens; a public client asking for another's is answered as if it succeeded (no probing).
          allowedPolicy: (_ctx, client, token) => {
            if (token.clientId === client.clientId) return true;
            if (client.clientAuthMethod === 'none') return false;
            throw new errors.InvalidRequest('this client may not revoke the presented token');
          },
        },
        dPoP: { enabled: false },
        pushedAuthorizationRequests: { enabled: false },
        registration: { enabled: true, initialAccessToken: false, issueRegistrationAccessToken: false },
        resourceIndicators: {
          enabled: true,
          defaultResource: (_ctx, _client, oneOf) => {
            if (oneOf) return oneOf;
            throw new errors.InvalidTarget(`the resource parameter is required and must be ${resource}`);
          },
          useGrantedResource: () => true,
          getResourceServerInfo: (ctx, indicator) => {
            if (!sameResource(indicator, resource))
              throw new errors.InvalidTarget(`this server issues tokens only for ${resource}`);
            // A request for none of its scopes could only end in no token: refuse it where the client learns why.
            const asked = String(ctx.oidc.params?.scope ?? '').split(' ');
            if (ctx.oidc.route === 'authorization' && !mcpScopes.some((scope) => asked.includes(scope))) {
              throw new errors.InvalidScope(
                `ask for ${mcpScopes.join(' and/or ')} (the scopes of ${resource})`,
                mcpScopes.join(' '),
              );
            }
            return {
              scope: mcpScopes.join(' '),
              audience: resource,
              accessTokenTTL: hour,
              accessTokenFormat: 'opaque',
            };
          },
        },
        clientIdMetadataDocument: {
          enabled: true,
          ack: 'draft-02',
          cacheDuration: { min: 60, max: day },
          allowClient: () => true,
        },
      } as Configuration['features'],
      interactions: { url: (_ctx, interaction) => `${interactionPublicPath}/${interaction.uid}` },
      findAccount: async (_ctx, sub) => {
        const found = await db.pool.query('SELECT 1 FROM accounts WHERE id::text = $1', [sub]);
        return found.rowCount ? { accountId: sub, claims: () => ({ sub }) } : undefined;
      },
      // An approval is remembered per client and account, across browsers and sessions.
      loadExistingGrant: async (ctx) => {
        const { oidc } = ctx;
        const clientId = oidc.client?.clientId;
        const accountId = oidc.session?.accountId;
        const inSession = oidc.result?.consent?.grantId ?? (clientId ? oidc.session?.grantIdFor(clientId) : undefined);
        if (inSession) return oidc.provider.Grant.find(inSession);
        if (!clientId || !accountId) return undefined;
        const remembered = await db.pool.query<{ id: string }>(
          `SELECT id FROM oauth_models WHERE kind = 'Grant' AND account_id = $1 AND client_id = $2
              AND (expires_at IS NULL OR expires_at > now()) ORDER BY created_at DESC LIMIT 1`,
          [accountId, clientId],
        );
        return remembered.rows[0] ? oidc.provider.Grant.find(remembered.rows[0].id) : undefined;
      },
      issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
      rotateRefreshToken: true,
      // Tokens outlive the browser session at this server: the grant is what keeps them.
      expiresWithSession: () => false,
      ttl: {
        AccessToken: hour,
        AuthorizationCode: 60,
        IdToken: hour,
        RefreshToken: 14 * day,
        Grant: 90 * day,
        Interaction: 30 * 60,
        Session: day,
      },
      // The public endpoints answer any origin themselves (mountAuthorizationServer); this keeps the provider from refusing one.
      clientBasedCORS: () => true,
      fetch: fetchDocument as unknown as Configuration['fetch'],
      discovery: {
        service_documentation: `${context.publicUrl}/llms.txt`,
        // Without it, RFC 8414's default (client_secret_basic only) tells public clients they cannot revoke.
        revocation_endpoint_auth_methods_supported: clientAuthMethods,
      },
      renderError: (ctx, out) => {
        ctx.type = 'html';
        ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
        ctx.set('X-Frame-Options', 'DENY');
        const lines = Object.entries(out)
          .map(([key, value]) => `<p><strong>${escapeHtml(key)}</strong>: ${escapeHtml(value)}</p>`)
          .join('');
        ctx.body = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Sign-in request refused</title></head><body style="font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto"><h1>This sign-in request was refused</h1>${lines}<p>Nothing was granted. Start again from your application.</p></body></html>`;
      },
    };
    const provider = new ProviderClass(this.issuer, configuration);
    provider.proxy = config.TRUST_PROXY;
    const log = context.log.child({ part: 'oauth' });
    provider.on('server_error', (_ctx: KoaContextWithOIDC, error: Error) =>
      log.error({ err: error }, 'authorization server error'),
    );
    // Revocations take effect at once on this instance; other instances within OAUTH_TOKEN_CACHE_SECONDS.
    provider.on('grant.revoked', () => this.forgetTokens());
    provider.on('access_token.destroyed', () => this.forgetTokens());
    return provider;
  }

  /** The verifier /mcp/v3 uses: our opaque access tokens only, issued for /mcp/v3, of a grant that still stands. */
  verifier(): BearerTokenVerifier {
    const ttlMs = this.options.context.config.OAUTH_TOKEN_CACHE_SECONDS * 1000;
    return {
      authorizationServers: [this.issuer],
      scopesSupported: [...mcpScopes],
      unavailableReason: this.options.notConfigured ?? undefined,
      verify: async (token) => {
        if (token.length > 512) return null;
        const key = createHash('sha256').update(token).digest('base64url');
        const now = Date.now();
        const cached = this.tokenCache.get(key);
        if (cached && cached.until > now) return cached.grant;
        const grant = await this.lookUp(token);
        if (ttlMs > 0) {
          if (this.tokenCache.size >= 10_000) this.tokenCache.clear();
          this.tokenCache.set(key, { grant, until: now + ttlMs });
        }
        return grant;
      },
    };
  }

  private async lookUp(token: string): Promise<BearerGrant | null> {
    const provider = await this.ready();
    const accessToken = await provider.AccessToken.find(token);
    if (!accessToken?.accountId || !accessToken.grantId) return null;
    const audience = Array.isArray(accessToken.aud) ? accessToken.aud : [accessToken.aud];
    if (!audience.some((aud) => typeof aud === 'string' && sameResource(aud, this.resource))) return null;
    const grant = await provider.Grant.find(accessToken.grantId);
    if (!grant || grant.accountId !== accessToken.accountId || grant.clientId !== accessToken.clientId) return null;
    const accountId = Number(accessToken.accountId);
    const account = await this.options.context.db.pool.query<{ name: string; plan: string; email: string | null }>(
      'SELECT name, plan, email FROM accounts WHERE id = $1',
      [accountId],
    );
    const row = account.rows[0];
    if (!row) return null;
    const clientId = accessToken.clientId as string;
    const scopes = [...accessToken.scopes];
    const principal: Principal = {
      accountId,
      accountName: row.name,
      plan: row.plan,
      email: row.email,
      oauth: { clientId, scopes },
    };
    recordGrantUse(this.options.context.db.pool, grant.jti, accountId).catch((error: unknown) =>
      this.options.context.log.warn({ err: error }, 'grant use not recorded'),
    );
    return { principal, clientId, scopes, expiresAt: accessToken.exp as number };
  }
}

/** RFC 8707 resource comparison: scheme and host case-insensitively, the rest exactly. */
export function sameResource(candidate: string, resource: string): boolean {
  try {
    return new URL(candidate).href === new URL(resource).href && !candidate.includes('#');
  } catch {
    return false;
  }
}
