import { createHmac, timingSafeEqual } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { InteractionResults } from 'oidc-provider';
import type { AppContext } from '../context.js';
import type { AuthorizationServer } from './authorization-server.js';
import { accountForIdentity, accountSummary } from './identities.js';
import { isSessionNotFound } from './oidc-library.js';
import { actionForm, html, Html, sendPage } from './pages.js';
import { scopeWords } from './scopes.js';
import { SignInError, type UpstreamProvider } from './upstream.js';
import { isLoopbackHost } from '../loopback.js';

/**
 * The people's side of the authorization server, server-rendered: the sign-in step sends the
 * person to the external identity provider and takes them back (login prompt), then the
 * consent page shows who asks for what (consent prompt). Mounted at /oauth/interaction, ahead
 * of the provider; the interaction cookie's path covers the whole mount, the identity
 * provider's callback included.
 */

export interface InteractionDependencies {
  context: AppContext;
  server: AuthorizationServer;
  upstream: UpstreamProvider | null;
  /** Why sign-in cannot work here (no identity provider configured), or null. */
  notConfigured: string | null;
  csrfKey: () => Promise<Buffer>;
}

/** The interaction a page belongs to is over, or not this browser's. */
class InteractionGone extends Error {}

export function interactionRouter(deps: InteractionDependencies): express.Router {
  const { context, server, upstream } = deps;
  const log = context.log.child({ part: 'oauth' });
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: '8kb' });
  const csrfFor = async (uid: string) =>
    createHmac('sha256', await deps.csrfKey())
      .update(`consent\u0000${uid}`)
      .digest('base64url');
  const csrfValid = async (uid: string, given: unknown) => {
    if (typeof given !== 'string') return false;
    const expected = Buffer.from(await csrfFor(uid));
    const actual = Buffer.from(given);
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  };
  const actionUrl = (uid: string, action: string) =>
    `${server.publicPath}/interaction/${encodeURIComponent(uid)}/${action}`;

  // The identity provider sends the person back here (a fixed redirect URI: it cannot carry the uid).
  router.get('/callback', async (req, res, next) => {
    try {
      if (!upstream) throw new SignInError(deps.notConfigured ?? 'Single sign-on is not configured.', 503);
      const provider = await server.ready();
      const interaction = await provider.interactionDetails(req, res);
      const callbackUrl = new URL(upstream.settings.redirectUri);
      callbackUrl.search = new URL(req.originalUrl, 'http://callback').search;
      let identity: Awaited<ReturnType<UpstreamProvider['finish']>>;
      try {
        identity = await upstream.finish(interaction.uid, callbackUrl);
      } catch (error) {
        if (!(error instanceof SignInError)) throw error;
        // Nobody was signed in; the person can send the application its refusal.
        log.info({ reason: error.message }, 'sign-in refused');
        sendPage(
          res,
          error.status,
          'Sign-in failed',
          html`<h1>Sign-in failed</h1>
            <p id="reason">${error.message}</p>
            <p class="note">Nothing was granted.</p>
            ${actionForm(actionUrl(interaction.uid, 'abort'), await csrfFor(interaction.uid), [{ name: 'abort', label: 'Back to the application' }])}`,
        );
        return;
      }
      const account = await accountForIdentity(context.db.pool, identity);
      if (!account) {
        log.info(
          { issuer: identity.issuer, emailVerified: identity.emailVerified },
          'sign-in of a person with no account',
        );
        const who = identity.email
          ? html`<strong>${identity.email}</strong
              >${identity.emailVerified ? '' : new Html(' (not verified by the identity provider)')}`
          : html`subject <code>${identity.subject}</code>`;
        sendPage(
          res,
          403,
          'No account',
          html`<h1>No account for this sign-in</h1>
            <p>
              You signed in at ${identity.issuer} as ${who}, but no account of this service has that verified email
              address, and no operator has linked this identity to an account.
            </p>
            <p class="note">
              Nothing was granted. An operator can link you with
              <code
                >npm run accounts -- link-identity --account ID --issuer ${identity.issuer} --subject
                ${identity.subject}</code
              >, or set your email on your account.
            </p>
            ${actionForm(actionUrl(interaction.uid, 'abort'), await csrfFor(interaction.uid), [{ name: 'abort', label: 'Back to the application' }])}`,
        );
        return;
      }
      const result: InteractionResults = {
        login: { accountId: String(account.id), amr: ['federated'], remember: false },
      };
      await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
    } catch (error) {
      fail(res, next, error);
    }
  });

  router.get('/:uid', async (req, res, next) => {
    try {
      const provider = await server.ready();
      const details = await provider.interactionDetails(req, res);
      if (details.uid !== req.params.uid) throw new InteractionGone('interaction mismatch');
      if (details.prompt.name === 'login') {
        if (!upstream) {
          sendPage(
            res,
            503,
            'Single sign-on is not configured',
            html`<h1>Single sign-on is not configured</h1>
              <p>${deps.notConfigured ?? ''}</p>
              <p class="note">
                The API-key surfaces work without it: <code>/mcp</code> and <code>/mcp/v2</code> with an
                <code>x-api-key</code> header.
              </p>
              ${actionForm(actionUrl(details.uid, 'abort'), await csrfFor(details.uid), [{ name: 'abort', label: 'Back to the application' }])}`,
          );
          return;
        }
        res.redirect(303, (await upstream.start(details.uid)).href);
        return;
      }
      if (details.prompt.name !== 'consent') throw new Error(`unexpected prompt ${details.prompt.name}`);
      await renderConsent(req, res, details);
    } catch (error) {
      fail(res, next, error);
    }
  });

  router.post('/:uid/consent', form, async (req, res, next) => {
    try {
      const provider = await server.ready();
      const details = await provider.interactionDetails(req, res);
      if (
        details.uid !== req.params.uid ||
        !(await csrfValid(details.uid, req.body?.csrf)) ||
        !sameOrigin(req, context.publicUrl)
      ) {
        sendPage(
          res,
          403,
          'Refused',
          html`<h1>This form was not sent from the consent page</h1>
            <p>Nothing was granted. Start again from your application.</p>`,
        );
        return;
      }
      if (details.prompt.name !== 'consent') throw new InteractionGone('no consent pending');
      if (req.body?.decision !== 'approve') {
        log.info({ clientId: details.params.client_id, accountId: details.session?.accountId }, 'consent denied');
        await provider.interactionFinished(
          req,
          res,
          { error: 'access_denied', error_description: 'The person denied access on the consent page.' },
          { mergeWithLastSubmission: false },
        );
        return;
      }
      const accountId = details.session?.accountId;
      const clientId = String(details.params.client_id);
      if (!accountId) throw new InteractionGone('no signed-in account');
      const grant = details.grantId
        ? await provider.Grant.find(details.grantId)
        : new provider.Grant({ accountId, clientId });
      if (!grant) throw new InteractionGone('grant not found');
      const prompt = details.prompt.details as {
        missingOIDCScope?: string[];
        missingOIDCClaims?: string[];
        missingResourceScopes?: Record<string, string[]>;
      };
      if (prompt.missingOIDCScope) grant.addOIDCScope(prompt.missingOIDCScope.join(' '));
      if (prompt.missingOIDCClaims) grant.addOIDCClaims(prompt.missingOIDCClaims);
      for (const [indicator, scopes] of Object.entries(prompt.missingResourceScopes ?? {}))
        grant.addResourceScope(indicator, scopes.join(' '));
      const grantId = await grant.save();
      log.info({ clientId, accountId }, 'consent approved');
      await provider.interactionFinished(
        req,
        res,
        { consent: details.grantId ? {} : { grantId } },
        { mergeWithLastSubmission: true },
      );
    } catch (error) {
      fail(res, next, error);
    }
  });

  router.post('/:uid/abort', form, async (req, res, next) => {
    try {
      const provider = await server.ready();
      const details = await provider.interactionDetails(req, res);
      if (details.uid !== req.params.uid || !(await csrfValid(details.uid, req.body?.csrf))) {
        sendPage(
          res,
          403,
          'Refused',
          html`<h1>This form was not sent from our page</h1>
            <p>Start again from your application.</p>`,
        );
        return;
      }
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'Sign-in was not completed.' },
        { mergeWithLastSubmission: false },
      );
    } catch (error) {
      fail(res, next, error);
    }
  });

  async function renderConsent(
    _req: Request,
    res: Response,
    details: Awaited<ReturnType<Awaited<ReturnType<AuthorizationServer['ready']>>['interactionDetails']>>,
  ): Promise<void> {
    const provider = await server.ready();
    const { params, uid } = details;
    const clientId = String(params.client_id);
    const client = await provider.Client.find(clientId);
    if (!client)
      throw new SignInError(
        'The application that started this sign-in is no longer known here. Start again from the application.',
      );
    const accountId = Number(details.session?.accountId);
    const account = await accountSummary(context.db.pool, accountId);
    if (!account) throw new SignInError('The signed-in account no longer exists.', 403);
    const isMetadataDocument =
      (client as unknown as { clientIdMetadataDocument?: boolean }).clientIdMetadataDocument === true;
    const origin = isMetadataDocument
      ? html`its client ID metadata document at <strong>${new URL(clientId).host}</strong>`
      : html`registered dynamically with this server`;
    const redirect = new URL(String(params.redirect_uri ?? client.redirectUris?.[0] ?? ''), 'invalid:/');
    const redirectHost = redirect.host || redirect.protocol.replace(/:$/, '');
    const requested = String(params.scope ?? '')
      .split(' ')
      .filter((scope) => scope in scopeWords);
    const previous = details.grantId ? await provider.Grant.find(details.grantId) : undefined;
    const name = client.clientName ?? clientId;
    sendPage(
      res,
      200,
      `Allow ${name}?`,
      html`<h1>Allow <span id="client-name">${name}</span> to use your account?</h1>
        <dl>
          <dt>Application</dt>
          <dd>${name}${client.clientUri ? html` (<span>${client.clientUri}</span>)` : ''}</dd>
          <dt>Known from</dt>
          <dd>${origin}</dd>
          <dt>Sends you back to</dt>
          <dd><strong id="redirect-host">${redirectHost}</strong></dd>
          <dt>Account</dt>
          <dd>${account.name}${account.email ? html` &lt;${account.email}&gt;` : ''}</dd>
          <dt>Balance</dt>
          <dd><span id="balance">${account.balance.toLocaleString('en')}</span> credits</dd>
        </dl>
        <p>It asks to:</p>
        <ul class="scopes">
          ${requested.map((scope) => html`<li data-scope="${scope}">${scopeWords[scope] ?? scope}</li>`)}
        </ul>
        ${isLoopbackHost(redirect.hostname) ? html`<p class="warning">The answer goes to an application on this computer (${redirectHost}). Approve only if you started this sign-in from such an application just now.</p>` : ''}
        ${previous ? html`<p class="note">You approved this application before (${new Date((previous.iat ?? 0) * 1000).toISOString().slice(0, 10)}); it asks again.</p>` : ''}
        ${actionForm(actionUrl(uid, 'consent'), await csrfFor(uid), [
          { name: 'approve', label: 'Approve', primary: true },
          { name: 'deny', label: 'Deny' },
        ])}
        <p class="note">
          You can withdraw this later: an operator lists and removes approvals with
          <code>npm run accounts -- list-grants</code> and <code>revoke-grant</code>.
        </p>`,
    );
  }

  function fail(res: Response, next: NextFunction, error: unknown): void {
    if (error instanceof InteractionGone || isSessionNotFound(error)) {
      sendPage(
        res,
        400,
        'Sign-in expired',
        html`<h1>This sign-in has expired</h1>
          <p>
            It took too long, or it was started in another browser. Nothing was granted. Start again from your
            application.
          </p>`,
      );
      return;
    }
    if (error instanceof SignInError) {
      log.info({ reason: error.message }, 'sign-in refused');
      sendPage(
        res,
        error.status,
        'Sign-in failed',
        html`<h1>Sign-in failed</h1>
          <p id="reason">${error.message}</p>
          <p class="note">Nothing was granted.</p>`,
      );
      return;
    }
    next(error);
  }

  return router;
}

/** A form post from our own pages: its Origin, when the browser sends one, is ours. */
function sameOrigin(req: Request, publicUrl: string): boolean {
  const origin = req.header('origin');
  return origin === undefined || origin === 'null' ? origin === undefined : origin === new URL(publicUrl).origin;
}
