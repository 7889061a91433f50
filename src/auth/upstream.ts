import * as oidc from 'openid-client';
import type { Queryable } from '../store/db.js';

/**
 * Sign-in at the external OpenID provider, as a relying party with openid-client: discovery from
 * the issuer, authorization code with PKCE, `state` and `nonce`, the ID token verified, the email
 * read from UserInfo. The state is kept in PostgreSQL (any instance may receive the callback),
 * single-use and bound to the interaction that sent the person away. The provider's tokens are
 * used here once and dropped: they are never stored, accepted as ours, or passed upstream.
 */

export interface UpstreamSettings {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  scopes: string;
  redirectUri: string;
}

export interface UpstreamIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

/** A sign-in that failed for a reason the person should read. */
export class SignInError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
    this.name = 'SignInError';
  }
}

const stateLifetimeSeconds = 600;
const requestTimeoutSeconds = 10;

export class UpstreamProvider {
  private configuration: Promise<oidc.Configuration> | null = null;

  constructor(
    private readonly db: Queryable,
    readonly settings: UpstreamSettings,
  ) {}

  get issuer(): string {
    return this.settings.issuer;
  }

  /** Discovery once, retried on the next sign-in when the provider could not be reached. */
  private config(): Promise<oidc.Configuration> {
    const { issuer, clientId, clientSecret } = this.settings;
    const url = new URL(issuer);
    this.configuration ??= oidc
      .discovery(url, clientId, undefined, clientSecret ? oidc.ClientSecretBasic(clientSecret) : oidc.None(), {
        // The ID token's signature is checked against the provider's keys even though it came
        // straight from the token endpoint; http is allowed only for loopback issuers
        // (development), as configuration refuses other http URLs.
        execute: [oidc.enableNonRepudiationChecks, ...(url.protocol === 'http:' ? [oidc.allowInsecureRequests] : [])],
        timeout: requestTimeoutSeconds,
      })
      .catch((error: unknown) => {
        this.configuration = null;
        throw new SignInError(
          `The identity provider at ${issuer} could not be reached (${(error as Error).message}). Try again later.`,
          502,
        );
      });
    return this.configuration;
  }

  /** The URL that sends the person to the provider for this interaction (back to `redirectUri`, one the provider knows). */
  async start(interactionUid: string, redirectUri = this.settings.redirectUri): Promise<URL> {
    const config = await this.config();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    await this.db.query(
      `INSERT INTO oauth_upstream_logins (state, interaction, code_verifier, nonce, expires_at)
       VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
      [state, interactionUid, codeVerifier, nonce, stateLifetimeSeconds],
    );
    return oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: this.settings.scopes,
      response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
  }

  /** Completes the sign-in the provider sent back to `callbackUrl` (the redirect URI with its query). */
  async finish(interactionUid: string, callbackUrl: URL): Promise<UpstreamIdentity> {
    const state = callbackUrl.searchParams.get('state');
    if (!state)
      throw new SignInError(
        'The identity provider sent the person back without a state parameter; start the sign-in again from your application.',
      );
    // Single use, whatever happens next: a replayed callback finds the state spent.
    const spent = await this.db.query<{ interaction: string; code_verifier: string; nonce: string }>(
      `UPDATE oauth_upstream_logins SET used_at = now()
        WHERE state = $1 AND used_at IS NULL AND expires_at > now()
        RETURNING interaction, code_verifier, nonce`,
      [state],
    );
    const login = spent.rows[0];
    if (!login)
      throw new SignInError(
        'This sign-in answer was already used or has expired (each one works once, within 10 minutes). Start again from your application.',
      );
    if (login.interaction !== interactionUid)
      throw new SignInError(
        'This sign-in answer belongs to another sign-in in progress. Start again from your application.',
      );
    const upstreamError = callbackUrl.searchParams.get('error');
    if (upstreamError) {
      const description = callbackUrl.searchParams.get('error_description');
      throw new SignInError(
        `The identity provider refused the sign-in: ${upstreamError}${description ? ` (${description})` : ''}.`,
        403,
      );
    }

    const config = await this.config();
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: login.code_verifier,
        expectedState: state,
        expectedNonce: login.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      throw new SignInError(
        `The identity provider's answer failed verification, so nobody was signed in: ${describe(error)}.`,
        403,
      );
    }
    const claims = tokens.claims();
    if (!claims) throw new SignInError('The identity provider sent no ID token, so nobody was signed in.', 403);
    let profile: Record<string, unknown> = { ...claims };
    // Many providers put the email only in UserInfo, not in the ID token.
    if (config.serverMetadata().userinfo_endpoint) {
      try {
        profile = { ...profile, ...(await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)) };
      } catch (error) {
        throw new SignInError(`The identity provider's UserInfo answer failed verification: ${describe(error)}.`, 403);
      }
    }
    // As the provider sent it: accountForIdentity decides what it matches, and no folding happens here.
    const email = typeof profile.email === 'string' ? profile.email : null;
    return {
      issuer: claims.iss,
      subject: claims.sub,
      email,
      emailVerified: profile.email_verified === true,
      name: typeof profile.name === 'string' ? profile.name : null,
    };
  }
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${message}${cause}`.replace(/\.$/, '');
}
