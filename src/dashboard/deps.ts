import express, { type Request, type Response } from 'express';
import type { MountedAuth } from '../auth/index.js';
import type { AppContext } from '../context.js';
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
