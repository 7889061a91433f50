import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import express from 'express';
import type Provider from 'oidc-provider';
import type { Adapter, Configuration } from 'oidc-provider';
import { oidcProvider } from './oidc-library.js';
import { generateSigningJwk, type SigningJwks } from './signing-keys.js';
import { actionForm, html, sendPage } from './pages.js';

/**
 * A small OpenID provider for trying single sign-on on one machine (OIDC_DEV_PROVIDER=true) and
 * for the tests' upstream: a real oidc-provider instance with a fixed list of people, a page
 * where you pick one (no password: it is for development), automatic consent for its clients,
 * and the email in UserInfo (as many real providers give it).
 */

export interface DevPerson {
  sub: string;
  name: string;
  email: string;
  emailVerified: boolean;
}

export interface DevClient {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
}

export interface DevProviderOptions {
  issuer: string;
  /** The people who can sign in; read on each sign-in. */
  people: () => Promise<DevPerson[]>;
  clients: DevClient[];
  jwks?: SigningJwks;
  /** Prefix of its cookie names, distinct from any other provider on the same host. */
  cookiePrefix: string;
  title?: string;
  /** Its storage (oidc-provider's in-memory store when not given). */
  adapter?: (kind: string) => Adapter;
  /**
   * Also offer an "Email" field: anyone may sign in as any address, taken as verified (so that
   * a tester can be a new person each time). Development only, as the provider itself is.
   */
  anyEmail?: boolean;
}

const typedPrefix = 'email:';
const typedEmail = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** The person of an address typed in the Email field: the same address is always the same subject. */
function typedPerson(sub: string): DevPerson | undefined {
  const email = sub.slice(typedPrefix.length);
  if (!sub.startsWith(typedPrefix) || !typedEmail.test(email) || email.length > 254) return undefined;
  return { sub, name: email.slice(0, email.lastIndexOf('@')), email, emailVerified: true };
}

export interface DevProvider {
  provider: Provider;
  /** Its interaction pages: mount at `<issuer path>/interaction`, ahead of the provider. */
  interactions: express.Router;
}

export async function createDevProvider(options: DevProviderOptions): Promise<DevProvider> {
  const { default: ProviderClass } = await oidcProvider();
  const issuerPath = new URL(options.issuer).pathname.replace(/\/$/, '');
  const cookieKey = randomBytes(32);
  const csrfFor = (uid: string) => createHmac('sha256', cookieKey).update(uid).digest('base64url');
  const title = options.title ?? 'Development identity provider';
  const findPerson = async (sub: string) =>
    (await options.people()).find((person) => person.sub === sub) ?? (options.anyEmail ? typedPerson(sub) : undefined);

  const configuration: Configuration = {
    ...(options.adapter ? { adapter: options.adapter } : {}),
    clients: options.clients.map((client) => ({
      ...client,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: client.client_secret ? 'client_secret_basic' : 'none',
    })),
    jwks: (options.jwks ?? { keys: [generateSigningJwk()] }) as Configuration['jwks'],
    cookies: {
      keys: [cookieKey.toString('base64url')],
      names: {
        session: `${options.cookiePrefix}_session`,
        interaction: `${options.cookiePrefix}_interaction`,
        resume: `${options.cookiePrefix}_resume`,
      },
      short: { path: `${issuerPath}/interaction`, httpOnly: true, sameSite: 'lax' },
      long: { httpOnly: true, sameSite: 'lax' },
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    scopes: ['openid', 'email', 'profile'],
    responseTypes: ['code'],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: true },
      rpInitiatedLogout: { enabled: false },
    } as Configuration['features'],
    interactions: { url: (_ctx, interaction) => `${issuerPath}/interaction/${interaction.uid}` },
    findAccount: async (_ctx, sub) => {
      const person = await findPerson(sub);
      if (!person) return undefined;
      return {
        accountId: sub,
        claims: () => ({ sub, name: person.name, email: person.email, email_verified: person.emailVerified }),
      };
    },
    // Its clients are first party: consent is implied.
    loadExistingGrant: async (ctx) => {
      const { oidc } = ctx;
      if (!oidc.client || !oidc.session?.accountId) return undefined;
      const grant = new oidc.provider.Grant({ clientId: oidc.client.clientId, accountId: oidc.session.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
  };
  const provider: Provider = new ProviderClass(options.issuer, configuration);

  const interactions = express.Router();
  interactions.get('/:uid', async (req, res, next) => {
    try {
      const details = await provider.interactionDetails(req, res);
      const people = await options.people();
      sendPage(
        res,
        200,
        title,
        html`<h1>${title}</h1>
          <p>This provider is for development: choose who signs in (there is no password).</p>
          ${people.map((person) =>
            actionForm(
              `${issuerPath}/interaction/${encodeURIComponent(details.uid)}/login?sub=${encodeURIComponent(person.sub)}`,
              csrfFor(details.uid),
              [{ name: 'login', label: `Sign in as ${person.name} <${person.email}>`, primary: true }],
            ),
          )}
          ${
            options.anyEmail
              ? html`<form
                    class="actions"
                    method="post"
                    action="${issuerPath}/interaction/${encodeURIComponent(details.uid)}/login-email"
                  >
                    <input type="hidden" name="csrf" value="${csrfFor(details.uid)}" />
                    <label for="dev-email">Email</label>
                    <input id="dev-email" type="email" name="email" required autocomplete="email" />
                    <button type="submit">Sign in with this email</button>
                  </form>
                  <p class="note">
                    Any address, taken as verified: for trying sign-up and invitations on one machine.
                  </p>`
              : ''
          }`,
      );
    } catch (error) {
      next(error);
    }
  });
  interactions.post('/:uid/login', express.urlencoded({ extended: false, limit: '4kb' }), async (req, res, next) => {
    try {
      const details = await provider.interactionDetails(req, res);
      const expected = Buffer.from(csrfFor(details.uid));
      const given = Buffer.from(typeof req.body?.csrf === 'string' ? req.body.csrf : '');
      const person = await findPerson(String(req.query.sub ?? ''));
      if (expected.length !== given.length || !timingSafeEqual(expected, given) || !person) {
        sendPage(
          res,
          403,
          title,
          html`<h1>Refused</h1>
            <p>Start again.</p>`,
        );
        return;
      }
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: person.sub } },
        { mergeWithLastSubmission: false },
      );
    } catch (error) {
      next(error);
    }
  });
  interactions.post(
    '/:uid/login-email',
    express.urlencoded({ extended: false, limit: '4kb' }),
    async (req, res, next) => {
      try {
        const details = await provider.interactionDetails(req, res);
        const expected = Buffer.from(csrfFor(details.uid));
        const given = Buffer.from(typeof req.body?.csrf === 'string' ? req.body.csrf : '');
        const email = typeof req.body?.email === 'string' ? req.body.email.trim() : '';
        const person = options.anyEmail ? typedPerson(`${typedPrefix}${email}`) : undefined;
        if (expected.length !== given.length || !timingSafeEqual(expected, given) || !person) {
          sendPage(
            res,
            person || !options.anyEmail ? 403 : 400,
            title,
            html`<h1>Refused</h1>
              <p>
                ${person || !options.anyEmail ? 'Start again.' : 'That is not an email address. Go back and type one.'}
              </p>`,
          );
          return;
        }
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: person.sub } },
          { mergeWithLastSubmission: false },
        );
      } catch (error) {
        next(error);
      }
    },
  );
  return { provider, interactions };
}
