import { z } from 'zod';
import { positiveInt, nonNegativeInt, booleanFlag, secureUrl } from './types.js';

/**
 * Sign-in: single sign-on and OAuth for /mcp/v3, and dashboard sessions.
 * src/config.ts spreads these shapes into its one schema, in its order: the order of the rows of docs/configuration.md
 * and of the messages of a bad start. Each variable says what it does in `.describe()`; the page is generated from it.
 */

/** The OpenID provider people sign in at, and the OAuth server of /mcp/v3. */
export const signOnShape = {
  OIDC_ISSUER: secureUrl
    .optional()
    .describe(
      'The external OpenID provider where people sign in for `/mcp/v3` (discovery from its issuer URL; https, http only on loopback). Unset: sign-in says single sign-on is not configured.',
    ),
  OIDC_CLIENT_ID: z
    .string()
    .min(1)
    .optional()
    .describe("This service's client id at that provider (required with `OIDC_ISSUER`)."),
  OIDC_CLIENT_SECRET: z
    .string()
    .min(1)
    .optional()
    .describe("This service's client secret at that provider. Unset: a public client (PKCE only)."),
  OIDC_SCOPES: z
    .string()
    .regex(/(^|\s)openid(\s|$)/, 'must include openid')
    .default('openid email profile')
    .describe('Scopes asked of that provider (must include `openid`).'),
  OIDC_DEV_PROVIDER: booleanFlag
    .default(false)
    .describe(
      'Development only: a built-in OpenID provider at `/dev-idp` whose one demo person is the demo account, and where any typed address signs in as a new person (refused with `NODE_ENV=production`). `npm start` turns it on when it serves only loopback and `OIDC_ISSUER` is unset.',
    ),
  OAUTH_TOKEN_CACHE_SECONDS: nonNegativeInt
    .max(60)
    .default(5)
    .describe(
      'How long an instance trusts a verified `/mcp/v3` access token without asking the database again; a revocation reaches other instances within this (at once on the instance that revoked).',
    ),
  OAUTH_REGISTRATIONS_PER_HOUR: positiveInt
    .default(20)
    .describe('Dynamic client registrations accepted per client address and hour (shared by all instances).'),
  OAUTH_SIGN_INS_PER_MINUTE: positiveInt
    .default(30)
    .describe(
      'Sign-ins started per client address and minute (`/oauth/authorize` and the sign-in page, which write rows for anyone; shared by all instances); more are answered 429 with `Retry-After`.',
    ),
  OAUTH_CIMD_ALLOW_LOOPBACK: booleanFlag
    .default(false)
    .describe(
      'Development and tests only: client ID metadata documents may be fetched from loopback addresses (still https); refused in production.',
    ),
  OAUTH_CIMD_CA_FILE: z
    .string()
    .min(1)
    .optional()
    .describe(
      'A PEM file of extra certificate authorities trusted when fetching client ID metadata documents (a development certificate).',
    ),
};

/** Dashboard sessions and what one address or account may start there. */
export const dashboardShape = {
  DASHBOARD_SESSION_IDLE_MINUTES: positiveInt
    .max(24 * 60)
    .default(60)
    .describe('A dashboard session unused this long ends; the person signs in again.'),
  DASHBOARD_SESSION_MAX_HOURS: positiveInt
    .max(30 * 24)
    .default(12)
    .describe('A dashboard session ends this long after sign-in, however busy.'),
  DASHBOARD_SIGN_INS_PER_HOUR: positiveInt
    .default(30)
    .describe('Dashboard sign-ins started per client address and hour (across instances).'),
  DASHBOARD_INVITATIONS_PER_HOUR: positiveInt
    .default(20)
    .describe('Invitations an account may send per hour from the dashboard.'),
};
