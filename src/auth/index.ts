import type { IncomingMessage, ServerResponse } from 'node:http';
import type express from 'express';
import type { NextFunction, Request, Response } from 'express';
import type Provider from 'oidc-provider';
import type { AppContext, ServiceBase } from '../context.js';
import { takeToken } from '../store/token-buckets.js';
import type { Queryable } from '../store/db.js';
import { postgresAdapterFactory, sweepExpiredOAuthRows } from './adapter.js';
import {
  AuthorizationServer,
  interactionMount,
  oauthMount,
  oauthRoutes,
  upstreamCallbackPath,
} from './authorization-server.js';
import { protectedResourceMetadataPath } from './bearer.js';
import { openCors } from './cors.js';
import { createDevProvider } from './dev-provider.js';
import { interactionRouter } from './interactions.js';
import { purposeKey } from './signing-keys.js';
import { UpstreamProvider, type UpstreamSettings } from './upstream.js';

/**
 * Single sign-on for /mcp/v3, mounted on the app: our authorization server at /oauth (always:
 * the protected-resource metadata always names it), its metadata at the paths MCP clients try
 * for an issuer with a path, the interaction pages, and, with OIDC_DEV_PROVIDER=true, a
 * built-in identity provider at /dev-idp. Registers the /mcp/v3 token verifier.
 */

export const devProviderMount = '/dev-idp';

/** The retention sweep's share of the OAuth tables, for an instance that has stopped writing to them (each write sweeps too). */
export const oauthRetention = { name: 'oauthRowsDeleted', sweep: sweepExpiredOAuthRows } as const;
const devClientId = 'pds-dev-sso';

export interface MountedAuth {
  server: AuthorizationServer;
  /** Where people sign in (the external provider, or the development one), or null when neither is configured. */
  upstream: UpstreamProvider | null;
  /** Why sign-in cannot work here, or null. */
  notConfigured: string | null;
}

export interface AuthOptions {
  /** Other pages of this service that people sign in for (the dashboard's callback): the development provider accepts them too. */
  moreRedirectUris?: string[];
}

/** Where people sign in: the configured identity provider, or none (the development provider is set up by mountAuth). */
function signInSettings(base: Pick<ServiceBase, 'config' | 'publicUrl'>): {
  settings: UpstreamSettings | null;
  redirectUri: string;
  notConfigured: string | null;
} {
  const { config, publicUrl } = base;
  const redirectUri = `${publicUrl}${upstreamCallbackPath}`;
  const settings: UpstreamSettings | null =
    config.OIDC_ISSUER && config.OIDC_CLIENT_ID
      ? {
          issuer: config.OIDC_ISSUER,
          clientId: config.OIDC_CLIENT_ID,
          clientSecret: config.OIDC_CLIENT_SECRET,
          scopes: config.OIDC_SCOPES,
          redirectUri,
        }
      : null;
  const notConfigured =
    settings || config.OIDC_DEV_PROVIDER
      ? null
      : 'Single sign-on is not configured on this server: an operator sets OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET ' +
        `(redirect URI ${redirectUri}), or OIDC_DEV_PROVIDER=true to try it on one machine.`;
  return { settings, redirectUri, notConfigured };
}

/** Our authorization server, built once at start (src/service.ts); its routes are mounted by mountAuth. */
export function createAuthorizationServer(base: ServiceBase, signingKey: Buffer): AuthorizationServer {
  const key = async () => signingKey;
  return new AuthorizationServer({
    context: base,
    signingKey: key,
    notConfigured: signInSettings(base).notConfigured,
  });
}

export function mountAuth(app: express.Express, context: AppContext, options: AuthOptions = {}): MountedAuth {
  const { config, publicUrl } = context;
  const log = context.log.child({ part: 'oauth' });
  const { settings, redirectUri, notConfigured } = signInSettings(context);
  const devIssuer = `${publicUrl}${devProviderMount}`;
  const signingKey = async () => context.services.signingKey;
  const devSecret = async () =>
    purposeKey(await signingKey(), 'development identity provider client secret').toString('base64url');
  const server = context.services.authorizationServer;
  if (publicUrl.startsWith('https:') && !config.TRUST_PROXY) {
    log.warn(
      'PUBLIC_URL is https but TRUST_PROXY is not set: behind a TLS-terminating proxy, set TRUST_PROXY=true so that the authorization server sees https',
    );
  }

  // A NUL in the URL (a client_id, state, login_hint, resource, an interaction's state) is refused
  // before anything reads it; in bodies, the adapter refuses what PostgreSQL cannot store.
  const issuerPath = server.publicPath;
  app.use(
    [
      oauthMount,
      devProviderMount,
      `/.well-known/oauth-authorization-server${issuerPath}`,
      `/.well-known/openid-configuration${issuerPath}`,
    ],
    refuseNulInUrl,
  );

  // Public endpoints of the authorization server answer any origin; no cookies are involved.
  const oauthMetadata = `/.well-known/oauth-authorization-server${issuerPath}`;
  const openidMetadata = `/.well-known/openid-configuration${issuerPath}`;
  app.use(
    [
      protectedResourceMetadataPath('/mcp/v3'),
      oauthMetadata,
      openidMetadata,
      `${oauthMount}/.well-known`,
      `${oauthMount}${oauthRoutes.jwks}`,
      `${oauthMount}${oauthRoutes.token}`,
      `${oauthMount}${oauthRoutes.registration}`,
      `${oauthMount}${oauthRoutes.revocation}`,
    ],
    openCors,
  );

  const handOver = pinnedHandler(() => server.ready(), server.issuer, config.TRUST_PROXY, log);
  // RFC 8414 and OpenID discovery with path insertion, as the MCP spec makes clients try them.
  app.get(oauthMetadata, (req, res, next) => handOver(req, res, next, '/.well-known/oauth-authorization-server'));
  app.get(openidMetadata, (req, res, next) => handOver(req, res, next, '/.well-known/openid-configuration'));
  app.post(
    `${oauthMount}${oauthRoutes.registration}`,
    perAddressLimit(context.db.pool, {
      rateClass: 'oauth-registration',
      perPeriod: config.OAUTH_REGISTRATIONS_PER_HOUR,
      periodSeconds: 3600,
      what: 'client registrations',
    }),
  );
  // Anyone may start a sign-in, and each start writes rows: an interaction, then an upstream login.
  const signInLimit = perAddressLimit(context.db.pool, {
    rateClass: 'oauth-sign-in',
    perPeriod: config.OAUTH_SIGN_INS_PER_MINUTE,
    periodSeconds: 60,
    what: 'sign-in starts',
  });
  app.all(`${oauthMount}${oauthRoutes.authorization}`, signInLimit);
  app.get(`${interactionMount}/:uid`, (req, res, next) =>
    req.params.uid === 'callback' ? next() : signInLimit(req, res, next),
  );
  if (config.OIDC_DEV_PROVIDER) app.all(`${devProviderMount}/auth`, signInLimit);

  let upstream: UpstreamProvider | null = settings ? new UpstreamProvider(context.db.pool, settings) : null;
  if (config.OIDC_DEV_PROVIDER) {
    const dev = devIdentityProvider(context, devIssuer, [redirectUri, ...(options.moreRedirectUris ?? [])], devSecret);
    app.use(`${devProviderMount}/interaction`, async (req, res, next) => {
      try {
        (await dev()).interactions(req, res, next);
      } catch (error) {
        next(error);
      }
    });
    const devHandOver = pinnedHandler(async () => (await dev()).provider, devIssuer, config.TRUST_PROXY, log);
    app.use(devProviderMount, (req, res, next) => devHandOver(req, res, next));
    upstream = new LazySecretUpstream(
      context.db.pool,
      { issuer: devIssuer, clientId: devClientId, scopes: 'openid email profile', redirectUri },
      devSecret,
    );
  }

  app.use(
    interactionMount,
    interactionRouter({
      context,
      server,
      upstream,
      notConfigured,
      csrfKey: async () => purposeKey(await signingKey(), 'oauth consent csrf'),
    }),
  );
  app.use(oauthMount, (req, res, next) => handOver(req, res, next));
  return { server, upstream, notConfigured };
}

/**
 * Hands a request to an oidc-provider instance mounted under the app. The provider builds its
 * links from the request, so the Host it sees is pinned to the issuer's (a forged Host or
 * X-Forwarded-Host must not reach metadata or redirects), and forwarded protocol and address
 * are trusted only behind a configured proxy (TRUST_PROXY).
 */
function pinnedHandler(provider: () => Promise<Provider>, issuer: string, trustProxy: boolean, log: AppContext['log']) {
  const { host, pathname } = new URL(issuer);
  const mount = pathname.replace(/\/$/, '');
  const callbacks = new WeakMap<Provider, (req: IncomingMessage, res: ServerResponse) => Promise<void>>();
  return async (req: Request, res: Response, next: NextFunction, rewriteTo?: string): Promise<void> => {
    try {
      const instance = await provider();
      let callback = callbacks.get(instance);
      if (!callback) {
        (instance as unknown as NodeJS.EventEmitter).on('error', (error: Error) =>
          log.warn({ err: error }, 'authorization server request error'),
        );
        callback = instance.callback() as (req: IncomingMessage, res: ServerResponse) => Promise<void>;
        callbacks.set(instance, callback);
      }
      req.headers.host = host;
      delete req.headers['x-forwarded-host'];
      delete req.headers.forwarded;
      if (!trustProxy) {
        delete req.headers['x-forwarded-proto'];
        delete req.headers['x-forwarded-for'];
      }
      if (rewriteTo) req.url = rewriteTo;
      // The provider derives its mount path from originalUrl less url.
      req.originalUrl = `${mount}${req.url}`;
      await callback(req, res);
    } catch (error) {
      next(error);
    }
  };
}

/** 400 invalid_request for a URL that carries a NUL character, raw or percent-encoded. */
function refuseNulInUrl(req: Request, res: Response, next: NextFunction): void {
  const url = req.originalUrl;
  if (!url.includes('\u0000') && !/%00/i.test(url)) {
    next();
    return;
  }
  res.status(400).json({
    error: 'invalid_request',
    error_description: 'a parameter contains a NUL character, which no parameter of this server accepts',
  });
}

/**
 * A per-address limit across instances (a token bucket in PostgreSQL, refilled evenly over the
 * period, holding at most `perPeriod`), for the steps that anyone may take without credentials and
 * that write rows: dynamic client registration, and the start of a sign-in (each writes an
 * interaction, and the sign-in page an upstream login). The address is req.ip: the peer's,
 * or with TRUST_PROXY the one the proxy forwarded (src/app.ts).
 */
export function perAddressLimit(
  db: Queryable,
  limit: { rateClass: string; perPeriod: number; periodSeconds: number; what: string },
) {
  const { rateClass, perPeriod, periodSeconds, what } = limit;
  const period = periodSeconds === 3600 ? 'an hour' : periodSeconds === 60 ? 'a minute' : `${periodSeconds} s`;
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const taken = await takeToken(db, `ip:${req.ip ?? 'unknown'}`, rateClass, perPeriod, periodSeconds);
      if (taken.allowed) {
        next();
        return;
      }
      const retryAfter = taken.retryAfterSeconds;
      res
        .status(429)
        .set('Retry-After', String(retryAfter))
        .json({
          error: 'temporarily_unavailable',
          error_description: `Too many ${what} from this address (at most ${perPeriod} ${period}); retry in ${retryAfter} s.`,
        });
    } catch (error) {
      next(error);
    }
  };
}

/** The built-in identity provider of OIDC_DEV_PROVIDER: the demo person is the demo account's owner. */
function devIdentityProvider(
  context: AppContext,
  issuer: string,
  redirectUris: string[],
  secret: () => Promise<string>,
) {
  let built: ReturnType<typeof createDevProvider> | null = null;
  const demoEmail = async () => {
    // The demo account gets an email if it has none, so that the demo person maps to it by email.
    await context.db.pool.query(
      `UPDATE accounts SET email = 'demo@prospecting.local' WHERE plan = 'demo' AND email IS NULL
          AND NOT EXISTS (SELECT 1 FROM accounts WHERE email = 'demo@prospecting.local')`,
    );
    const demo = await context.db.pool.query<{ email: string | null }>(
      `SELECT email FROM accounts WHERE plan = 'demo' ORDER BY id LIMIT 1`,
    );
    return demo.rows[0]?.email ?? 'demo@prospecting.local';
  };
  return () => {
    built ??= (async () =>
      createDevProvider({
        issuer,
        people: async () => [
          { sub: 'demo-person', name: 'Demo Person', email: await demoEmail(), emailVerified: true },
        ],
        clients: [{ client_id: devClientId, client_secret: await secret(), redirect_uris: redirectUris }],
        anyEmail: true,
        cookiePrefix: 'pds_dev_idp',
        adapter: postgresAdapterFactory(context.db.pool, 'dev-idp:'),
        title: 'Built-in development identity provider (OIDC_DEV_PROVIDER)',
      }))();
    return built;
  };
}

/** The upstream of the development provider, whose client secret is derived from the signing key on first use. */
class LazySecretUpstream extends UpstreamProvider {
  private resolved = false;

  constructor(
    db: Queryable,
    settings: UpstreamSettings,
    private readonly secret: () => Promise<string>,
  ) {
    super(db, settings);
  }

  private async withSecret(): Promise<void> {
    if (this.resolved) return;
    this.settings.clientSecret = await this.secret();
    this.resolved = true;
  }

  override async start(interactionUid: string, redirectUri?: string): Promise<URL> {
    await this.withSecret();
    return super.start(interactionUid, redirectUri);
  }

  override async finish(interactionUid: string, callbackUrl: URL) {
    await this.withSecret();
    return super.finish(interactionUid, callbackUrl);
  }
}
