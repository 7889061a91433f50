import express, { type NextFunction, type Request, type Response } from 'express';
import type { MountedAuth } from '../auth/index.js';
import { purposeKey } from '../auth/signing-keys.js';
import type { AppContext } from '../context.js';
import { AppError } from '../errors.js';
import { retryAfterOf } from '../runner/failures.js';
import { accountPages } from './account-pages.js';
import { keyPages } from './key-pages.js';
import { serveAssets } from './assets.js';
import { dataPages } from './data-pages.js';
import { watchListPages } from './watch-list-pages.js';
import { localsOf, formBody, type DashboardDeps } from './deps.js';
import { mount, sendMessage } from './layout.js';
import { clearCookie, cookieSettings, csrfToken, csrfValid, pageHeaders, readCookie, sameOrigin } from './security.js';
import { loadSession } from './sessions.js';
import { teamPages } from './team-pages.js';
import { usagePages } from './usage-pages.js';
import { signInRoutes } from './sign-in.js';

export { signInRedirectUri } from './sign-in.js';

/**
 * The account dashboard at /dashboard, for people: sign up and sign in through the service's
 * single sign-on, API keys, credits and usage, the request log, connected assistants, the team,
 * and the account's audiences, exports and exclusion lists. Server-rendered over the same core
 * functions as the API; sessions in PostgreSQL; a CSRF token and a same-origin check on every
 * form that changes anything; every id scoped to the signed-in person's account (another
 * account's answers 404).
 */

export function mountDashboard(app: express.Express, context: AppContext, auth: MountedAuth): void {
  const signingKey = async () => context.services.signingKey;
  const deps: DashboardDeps = {
    context,
    auth,
    cookies: cookieSettings(context.publicUrl),
    sessions: {
      idleMinutes: context.config.DASHBOARD_SESSION_IDLE_MINUTES,
      maxHours: context.config.DASHBOARD_SESSION_MAX_HOURS,
    },
    csrfKey: async () => purposeKey(await signingKey(), 'dashboard csrf'),
    invitationKey: async () => purposeKey(await signingKey(), 'dashboard invitations'),
    publicOrigin: new URL(context.publicUrl).origin,
  };
  const log = context.log.child({ part: 'dashboard' });
  const upstreamOrigin = auth.upstream ? new URL(auth.upstream.issuer).origin : null;
  const router = express.Router();
  router.use(pageHeaders(upstreamOrigin && upstreamOrigin !== deps.publicOrigin ? [upstreamOrigin] : []));
  serveAssets(router);
  router.use(loadSessionOf(deps));
  router.use(checkForms(deps));

  signInRoutes(router, deps);
  accountPages(router, deps);
  keyPages(router, deps);
  usagePages(router, deps);
  teamPages(router, deps);
  dataPages(router, deps);
  watchListPages(router, deps);

  router.use((_req: Request, res: Response) => {
    sendMessage(res, 404, localsOf(res).page, 'Not found', 'There is no such page in the dashboard.', {
      href: mount,
      label: 'Back to the dashboard',
    });
  });
  router.use((error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const page = localsOf(res).page ?? { session: null, csrf: '' };
    if (error instanceof AppError) {
      if (error.internal) log.warn({ code: error.code, internal: error.internal }, error.message);
      // A page's own wait (sign-ins, invitations) stands; any other 429 says its wait as the REST API does.
      const retryAfter = res.getHeader('Retry-After') === undefined ? retryAfterOf(error) : null;
      if (retryAfter !== null) res.setHeader('Retry-After', String(retryAfter));
      sendMessage(res, error.status, page, titleOf(error), error.message, { href: backOf(req), label: 'Back' });
      return;
    }
    if ((error as { type?: string }).type === 'entity.too.large') {
      sendMessage(res, 413, page, 'Too large', 'What was sent is too large for this form.', {
        href: backOf(req),
        label: 'Back',
      });
      return;
    }
    log.error({ err: error, requestId: res.locals.requestId }, 'dashboard error');
    sendMessage(
      res,
      500,
      page,
      'Something went wrong',
      `This page failed on our side; it has been logged (request ${String(res.locals.requestId ?? '')}). Try again.`,
      { href: mount, label: 'Back to the dashboard' },
    );
  });
  app.use(mount, router);
}

function titleOf(error: AppError): string {
  switch (error.code) {
    case 'not_found':
      return 'Not found';
    case 'forbidden':
      return 'Not allowed';
    case 'rate_limited':
      return 'Too many attempts';
    case 'conflict':
    case 'gone':
      return 'Cannot do that';
    case 'invalid_request':
    case 'invalid_state':
      return 'Please check what you entered';
    default:
      return 'Refused';
  }
}

/** Where "Back" leads after a refusal: the page the form was on, when it is ours. */
function backOf(req: Request): string {
  const path = req.originalUrl.split('?')[0] ?? mount;
  // A change on one key's page leads back to that page.
  if (/^\/dashboard\/keys\/\d+\/(name|cap|expiry|rotate)$/.test(path)) return path.replace(/\/[a-z]+$/, '');
  return path.replace(/\/(revoke|remove|disconnect|upload)$/, '').replace(/\/\d+$/, '') || mount;
}

function loadSessionOf(deps: DashboardDeps) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const id = readCookie(req, deps.cookies.session);
      const session = id ? await loadSession(deps.context.db.pool, id, deps.sessions) : null;
      if (id && !session) clearCookie(res, deps.cookies, deps.cookies.session);
      const binding = session ? session.idHash.toString('hex') : `signin:${readCookie(req, deps.cookies.signIn) ?? ''}`;
      const locals = localsOf(res);
      locals.session = session;
      locals.page = { session, csrf: csrfToken(await deps.csrfKey(), binding) };
      next();
    } catch (error) {
      next(error);
    }
  };
}

/**
 * Every POST: from our own origin, with the CSRF token of this session (or, before sign-in, of
 * the sign-in cookie). The body is read here for urlencoded forms; a file upload (multipart)
 * carries its token in the query string of the form's action.
 */
function checkForms(deps: DashboardDeps) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (req.method !== 'POST') {
      next();
      return;
    }
    const multipart = Boolean(req.is('multipart/form-data'));
    const parse = multipart ? uploadBody : formBody;
    parse(req, res, async (error?: unknown) => {
      try {
        if (error) throw error;
        if (multipart) req.body = await multipartFields(req);
        const { session } = localsOf(res);
        // The sign-in form is bound to the sign-in cookie, whether or not a session exists yet.
        const binding =
          session && req.path !== '/sign-in'
            ? session.idHash.toString('hex')
            : `signin:${readCookie(req, deps.cookies.signIn) ?? ''}`;
        const given = (req.body as Record<string, unknown> | undefined)?.csrf ?? req.query.csrf;
        if (!sameOrigin(req, deps.publicOrigin) || !csrfValid(await deps.csrfKey(), binding, given)) {
          sendMessage(
            res,
            403,
            localsOf(res).page,
            'Refused',
            'This form was not sent from a page of this dashboard in this browser session (or the session ended), so nothing was done. Open the page again and resend it.',
            { href: mount, label: 'Back to the dashboard' },
          );
          return;
        }
        next();
      } catch (caught) {
        next(caught);
      }
    });
  };
}

/** A file upload's body (a CSV of exclusion-list entries): at most 2 MB. */
const uploadBody = express.raw({ type: 'multipart/form-data', limit: '2mb' });

/** The fields of a multipart form, parsed by the platform's own parser (fetch's FormData); files stay Blobs. */
async function multipartFields(req: Request): Promise<Record<string, unknown>> {
  const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  try {
    const form = await new globalThis.Request('http://form.invalid/', {
      method: 'POST',
      headers: { 'content-type': String(req.headers['content-type']) },
      body: raw,
    }).formData();
    const fields: Record<string, unknown> = {};
    for (const [name, value] of form.entries()) fields[name] = value;
    return fields;
  } catch {
    throw new AppError('invalid_request', 'The form could not be read: send it again from the page.');
  }
}
