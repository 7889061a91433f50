import express, { type Request, type RequestHandler, type Response } from 'express';
import type { MountedAuth } from '../auth/index.js';
import type { AppContext } from '../context.js';
import { AppError } from '../errors.js';
import { mount, type PageContext } from './layout.js';
import type { CookieSettings } from './security.js';
import type { Session, SessionSettings } from './sessions.js';

/** What the dashboard's pages share: their dependencies, and what a request carries in res.locals. */

export interface DashboardDeps {
  context: AppContext;
  auth: MountedAuth;
  cookies: CookieSettings;
  sessions: SessionSettings;
  csrfKey: () => Promise<Buffer>;
  invitationKey: () => Promise<Buffer>;
  publicOrigin: string;
}

/** What every handler of a signed-in page reads from res.locals. */
export interface DashboardLocals {
  session: Session | null;
  page: PageContext;
}

export function localsOf(res: Response): DashboardLocals {
  return res.locals as unknown as DashboardLocals;
}

/** The signed-in person's account, or a redirect to sign-in (null returned: answered). */
export function requireAccount(req: Request, res: Response): NonNullable<Session['account']> | null {
  const { session } = localsOf(res);
  if (session?.account) return session.account;
  if (session) {
    res.redirect(303, `${mount}/welcome`);
    return null;
  }
  res.redirect(303, `${mount}/sign-in?next=${encodeURIComponent(req.originalUrl)}`);
  return null;
}

/**
 * The session of a person signed in who has no account yet (signing up), or a redirect: to sign-in without a session, to
 * the dashboard with an account (null returned: answered).
 */
export function requireSessionWithoutAccount(res: Response): Session | null {
  const { session } = localsOf(res);
  if (session && !session.account) return session;
  res.redirect(303, session ? mount : `${mount}/sign-in`);
  return null;
}

/** Express's form bodies: small, flat. */
export const formBody = express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 50 });

/** A numeric id from a path or a query, or null (which pages answer as not found). */
export function idParam(value: unknown): number | null {
  return typeof value === 'string' && /^[0-9]{1,15}$/.test(value) ? Number(value) : null;
}

/**
 * A route on one of the signed-in account's records named in the path by `param`: the handler gets the account and the
 * record's id; a path that holds no id is answered 404 with `notFound`, as a record of another account is by the handler.
 */
export function accountRecordRoute(
  param: string,
  notFound: string,
  handle: (req: Request, res: Response, accountId: number, id: number) => Promise<void>,
): RequestHandler {
  return async (req, res, next) => {
    try {
      const account = requireAccount(req, res);
      if (!account) return;
      const id = idParam(req.params[param]);
      if (id === null) throw new AppError('not_found', notFound);
      await handle(req, res, account.accountId, id);
    } catch (error) {
      next(error);
    }
  };
}
