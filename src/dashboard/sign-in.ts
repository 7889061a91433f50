import { createHash, randomBytes } from 'node:crypto';
import type express from 'express';
import { accountForIdentity } from '../auth/identities.js';
import { SignInError } from '../auth/upstream.js';
import { acceptInvitation, openInvitation } from '../core/account-invitations.js';
import { memberForSignIn, signUp, termsVersion } from '../core/account-members.js';
import { AppError } from '../errors.js';
import { localsOf, requireSessionWithoutAccount, type DashboardDeps } from './deps.js';
import { html, mount, sendHtml, sendMessage, csrfField } from './layout.js';
import { clearCookie, csrfToken, readCookie, setCookie, takeFromBucket } from './security.js';
import { attachAccount, createSession, endSession, endSessionsOf } from './sessions.js';

/** Signing up and in through the service's single sign-on, invitations, and signing out: the dashboard's routes for them. */

export const signInCallbackPath = `${mount}/sign-in/callback`;

/** The URL of the dashboard's callback at the identity provider: register it there besides /oauth/interaction/callback. */
export function signInRedirectUri(publicUrl: string): string {
  return `${publicUrl}${signInCallbackPath}`;
}

/**
 * A return path inside the dashboard, or the dashboard itself. The path is resolved as the browser
 * will resolve it (dot segments), and must stay under /dashboard/ after that: `/dashboard/../oauth`
 * is /oauth to the browser. What a browser or a proxy may decode or fold differently from the URL
 * parser (encoded dots and slashes, backslashes, control characters) is refused rather than cleaned.
 */
export function safeNext(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2048 || !value.startsWith(mount)) return mount;
  if (value.includes('\\') || [...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return mount;
  if (/%(?:2e|2f|5c|[01][0-9a-f]|7f)/i.test(value.split('?')[0] as string)) return mount;
  const base = 'http://return-path.invalid';
  let resolved: URL;
  try {
    resolved = new URL(value, base);
  } catch {
    return mount;
  }
  if (resolved.origin !== base) return mount;
  if (resolved.pathname !== mount && !resolved.pathname.startsWith(`${mount}/`)) return mount;
  return `${resolved.pathname}${resolved.search}`;
}

const signInCookieSeconds = 15 * 60;

export function signInRoutes(router: express.Router, deps: DashboardDeps): void {
  const { context, auth } = deps;
  const db = context.db;
  const log = context.log.child({ part: 'dashboard' });
  const redirectUri = signInRedirectUri(context.publicUrl);
  const nextCookie = `${deps.cookies.signIn}_next`;
  const bindingOf = (cookie: string) => `dashboard:${createHash('sha256').update(cookie).digest('base64url')}`;

  router.get('/sign-in', async (req, res, next) => {
    try {
      const { session, page } = localsOf(res);
      const target = safeNext(req.query.next ?? readCookie(req, nextCookie));
      if (session?.account) {
        res.redirect(303, target);
        return;
      }
      if (!auth.upstream) {
        sendMessage(
          res,
          503,
          page,
          'Sign-in is not configured',
          `${auth.notConfigured ?? 'Single sign-on is not configured.'} The dashboard's own redirect URI is ${redirectUri}.`,
        );
        return;
      }
      let cookie = readCookie(req, deps.cookies.signIn);
      if (!cookie || !/^[A-Za-z0-9_-]{43}$/.test(cookie)) {
        cookie = randomBytes(32).toString('base64url');
        setCookie(res, deps.cookies, deps.cookies.signIn, cookie, signInCookieSeconds);
      }
      const csrf = csrfToken(await deps.csrfKey(), `signin:${cookie}`);
      const devProvider = context.config.OIDC_DEV_PROVIDER;
      sendHtml(res, 200, {
        title: 'Sign in',
        context: { ...page, csrf },
        body: html`<h1>Sign in to your account</h1>
          <p>
            Sign in with your organisation's single sign-on. A new person gets a new account on the free plan: 500
            credits every month.
          </p>
          <form method="post" action="${mount}/sign-in" class="stack">
            ${csrfField(csrf)}
            <input type="hidden" name="next" value="${target}" />
            <button type="submit" class="primary">Continue with single sign-on</button>
          </form>
          ${
            devProvider
              ? html`<p class="note">
                  This server uses the built-in development identity provider: choose the demo person, or type any email
                  address to be a new person.
                </p>`
              : ''
          }`,
      });
    } catch (error) {
      next(error);
    }
  });

  router.post('/sign-in', async (req, res, next) => {
    try {
      const upstream = auth.upstream;
      const cookie = readCookie(req, deps.cookies.signIn);
      if (!upstream || !cookie) {
        res.redirect(303, `${mount}/sign-in`);
        return;
      }
      const wait = await takeFromBucket(
        db.pool,
        `ip:${req.ip ?? 'unknown'}`,
        'dashboard-sign-in',
        context.config.DASHBOARD_SIGN_INS_PER_HOUR,
      );
      if (wait > 0) {
        res.set('Retry-After', String(wait));
        throw new AppError('rate_limited', `Too many sign-ins from this address; try again in ${wait} s.`);
      }
      setCookie(
        res,
        deps.cookies,
        nextCookie,
        safeNext((req.body as Record<string, unknown>).next),
        signInCookieSeconds,
      );
      res.redirect(303, (await upstream.start(bindingOf(cookie), redirectUri)).href);
    } catch (error) {
      if (error instanceof SignInError) {
        sendMessage(res, error.status, localsOf(res).page, 'Sign-in failed', error.message);
        return;
      }
      next(error);
    }
  });

  router.get('/sign-in/callback', async (req, res, next) => {
    try {
      const { page, session: previous } = localsOf(res);
      const upstream = auth.upstream;
      const cookie = readCookie(req, deps.cookies.signIn);
      if (!upstream || !cookie) {
        sendMessage(
          res,
          400,
          page,
          'Sign-in expired',
          'This sign-in was started in another browser, or took too long. Nobody was signed in.',
          { href: `${mount}/sign-in`, label: 'Sign in again' },
        );
        return;
      }
      const callbackUrl = new URL(redirectUri);
      callbackUrl.search = new URL(req.originalUrl, 'http://callback').search;
      let identity;
      try {
        identity = await upstream.finish(bindingOf(cookie), callbackUrl);
      } catch (error) {
        if (!(error instanceof SignInError)) throw error;
        log.info({ reason: error.message }, 'dashboard sign-in refused');
        sendMessage(res, error.status, page, 'Sign-in failed', error.message, {
          href: `${mount}/sign-in`,
          label: 'Try again',
        });
        return;
      }
      const account = await accountForIdentity(db.pool, identity);
      const member = account ? await memberForSignIn(db, account.id, identity) : null;
      // A new session at every sign-in: whatever id the browser held before is ended, never reused.
      if (previous) await endSession(db.pool, previous.idHash);
      const id = await createSession(
        db.pool,
        identity,
        member ? { accountId: member.accountId, memberId: member.memberId } : null,
        deps.sessions,
      );
      setCookie(res, deps.cookies, deps.cookies.session, id, deps.sessions.maxHours * 3600);
      clearCookie(res, deps.cookies, deps.cookies.signIn);
      clearCookie(res, deps.cookies, nextCookie);
      const target = safeNext(readCookie(req, nextCookie));
      log.info({ accountId: member?.accountId ?? null, by: account?.by ?? null }, 'dashboard sign-in');
      res.redirect(303, member || target.startsWith(`${mount}/invitations/`) ? target : `${mount}/welcome`);
    } catch (error) {
      next(error);
    }
  });

  router.post('/sign-out', async (_req, res, next) => {
    try {
      const { session } = localsOf(res);
      if (session) await endSession(db.pool, session.idHash);
      clearCookie(res, deps.cookies, deps.cookies.session);
      res.redirect(303, `${mount}/signed-out`);
    } catch (error) {
      next(error);
    }
  });

  router.post('/sign-out-everywhere', async (_req, res, next) => {
    try {
      const { session } = localsOf(res);
      if (session) await endSessionsOf(db.pool, session.identity.issuer, session.identity.subject);
      clearCookie(res, deps.cookies, deps.cookies.session);
      res.redirect(303, `${mount}/signed-out`);
    } catch (error) {
      next(error);
    }
  });

  router.get('/signed-out', (_req, res) => {
    sendHtml(res, 200, {
      title: 'Signed out',
      context: { session: null, csrf: '' },
      body: html`<h1>You are signed out</h1>
        <p><a href="${mount}/sign-in">Sign in again</a></p>`,
    });
  });

  router.get('/welcome', (_req, res) => {
    const session = requireSessionWithoutAccount(res);
    if (!session) return;
    const { page } = localsOf(res);
    const { identity } = session;
    const verified = identity.email && identity.emailVerified;
    sendHtml(res, 200, {
      title: 'Sign up',
      context: page,
      body: verified
        ? html`<h1>Create your account</h1>
            <p>
              You signed in as <strong>${identity.email}</strong>, who has no account here yet. Create one on the free
              plan: 500 credits now and 500 at the start of every month. If a colleague invited you, open the link in
              their invitation mail instead.
            </p>
            <form method="post" action="${mount}/sign-up" class="stack">
              ${csrfField(page.csrf)}
              <label for="account-name">Account name</label>
              <input id="account-name" name="accountName" required maxlength="100" value="${identity.name ?? ''}" />
              <div class="check">
                <input id="accept-terms" type="checkbox" name="acceptTerms" value="yes" required />
                <label for="accept-terms"
                  >I accept the <a href="${mount}/terms">terms of service</a> (version ${termsVersion}).</label
                >
              </div>
              <button type="submit" class="primary">Create my account</button>
            </form>`
        : html`<h1>No account for this sign-in</h1>
            <p role="alert">
              Your identity provider did not vouch for an email address of yours (a verified email), which an account
              needs. Sign in with an identity that has one, or ask an operator to link yours to an account.
            </p>`,
    });
  });

  router.post('/sign-up', async (req, res, next) => {
    try {
      const session = requireSessionWithoutAccount(res);
      if (!session) return;
      const body = req.body as Record<string, unknown>;
      const { account, member } = await signUp(db, session.identity, {
        accountName: typeof body.accountName === 'string' ? body.accountName : '',
        acceptedTerms: body.acceptTerms === 'yes',
        monthlyFreeCredits: context.config.FREE_PLAN_MONTHLY_CREDITS,
      });
      await attachAccount(db.pool, session.idHash, account.id, member.memberId);
      log.info({ accountId: account.id }, 'account signed up');
      res.redirect(303, `${mount}?welcome=1`);
    } catch (error) {
      next(error);
    }
  });

  router.get('/terms', (_req, res) => {
    sendHtml(res, 200, {
      title: 'Terms of service',
      context: localsOf(res).page,
      body: html`<h1>Terms of service</h1>
        <p class="note">Version ${termsVersion}.</p>
        <ol class="terms">
          <li>
            You use the data of this service for business-to-business prospecting, within the laws of the people's
            countries you contact.
          </li>
          <li>
            Credits are spent as each operation's rule says (see the API rules); the free plan gives 500 credits each
            calendar month, and unused credits carry over.
          </li>
          <li>Keep your API keys secret: whoever holds one spends your credits. Revoke a key you no longer trust.</li>
          <li>Owners of an account manage its members, keys and connected assistants, and answer for what they do.</li>
          <li>
            We keep your account's ledger and a 30-day request log, without keys, tokens or people's contact details.
          </li>
        </ol>`,
    });
  });

  router.get('/invitations/accept', async (req, res, next) => {
    try {
      const { session, page } = localsOf(res);
      const token = typeof req.query.token === 'string' ? req.query.token : '';
      const invitation = await openInvitation(db.pool, await deps.invitationKey(), token);
      if (!session) {
        // The way back goes in a cookie, not in the sign-in's URL, where the token would reach access logs.
        setCookie(res, deps.cookies, nextCookie, req.originalUrl, signInCookieSeconds);
        res.redirect(303, `${mount}/sign-in`);
        return;
      }
      sendHtml(res, 200, {
        title: 'Invitation',
        context: page,
        body: html`<h1>Join ${invitation.accountName}</h1>
          <p>
            ${invitation.invitedBy ?? 'An owner'} invited <strong>${invitation.email}</strong> to the account
            <strong>${invitation.accountName}</strong> as ${invitation.role === 'owner' ? 'an owner' : 'a member'}. The
            invitation expires on ${invitation.expiresAt.slice(0, 10)}.
          </p>
          <form method="post" action="${mount}/invitations/accept" class="stack">
            ${csrfField(page.csrf)}
            <input type="hidden" name="token" value="${token}" />
            <div class="check">
              <input id="accept-terms" type="checkbox" name="acceptTerms" value="yes" required />
              <label for="accept-terms">I accept the <a href="${mount}/terms">terms of service</a>.</label>
            </div>
            <button type="submit" class="primary">Join ${invitation.accountName}</button>
          </form>`,
      });
    } catch (error) {
      next(error);
    }
  });

  router.post('/invitations/accept', async (req, res, next) => {
    try {
      const { session } = localsOf(res);
      const body = req.body as Record<string, unknown>;
      const token = typeof body.token === 'string' ? body.token : '';
      if (!session) {
        res.redirect(303, `${mount}/sign-in`);
        return;
      }
      if (body.acceptTerms !== 'yes')
        throw new AppError('invalid_request', 'Accept the terms of service to join the account.', {
          details: { issues: [{ field: 'acceptTerms', message: 'must be accepted' }] },
        });
      const member = await acceptInvitation(db, await deps.invitationKey(), token, session.identity);
      await attachAccount(db.pool, session.idHash, member.accountId, member.memberId);
      log.info({ accountId: member.accountId, role: member.role }, 'invitation accepted');
      res.redirect(303, `${mount}?joined=1`);
    } catch (error) {
      next(error);
    }
  });
}
