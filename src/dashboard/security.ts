import { createHmac, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { takeToken } from '../store/token-buckets.js';
import type { Queryable } from '../store/db.js';
import { isLoopbackHost } from '../loopback.js';

/**
 * What every dashboard response and form shares: a strict Content-Security-Policy (scripts and
 * styles from this origin only, no inline code, no framing), cookies that scripts cannot read
 * and other sites do not send with their forms, and a CSRF token in every form that changes
 * anything, bound to the session (or, before sign-in, to the sign-in cookie).
 */

export interface CookieSettings {
  /** Secure cookies everywhere but on a loopback address (plain http there, for trying the service). */
  secure: boolean;
  session: string;
  signIn: string;
}

export function cookieSettings(publicUrl: string): CookieSettings {
  const url = new URL(publicUrl);
  const secure = url.protocol === 'https:' || !isLoopbackHost(url.hostname);
  // __Host-: only this host, path /, Secure; a sibling domain cannot plant one.
  return secure
    ? { secure, session: '__Host-pds_dashboard', signIn: '__Host-pds_dashboard_signin' }
    : { secure, session: 'pds_dashboard', signIn: 'pds_dashboard_signin' };
}

export function readCookie(req: Request, name: string): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** A cookie scripts cannot read and other sites' forms do not send; `maxAgeSeconds` null: until the browser closes. */
export function setCookie(
  res: Response,
  settings: CookieSettings,
  name: string,
  value: string,
  maxAgeSeconds: number | null,
): void {
  res.cookie(name, value, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: settings.secure,
    ...(maxAgeSeconds === null ? {} : { maxAge: maxAgeSeconds * 1000 }),
  });
}

/** Ends a cookie at once (Max-Age=0), with the attributes it was set with: a `__Host-` cookie is replaced only so. */
export function clearCookie(res: Response, settings: CookieSettings, name: string): void {
  setCookie(res, settings, name, '', 0);
}

/** The CSRF token of a binding (a session's hash, or the sign-in cookie). */
export function csrfToken(key: Buffer, binding: string): string {
  return createHmac('sha256', key).update(`dashboard-csrf\u0000${binding}`).digest('base64url');
}

export function csrfValid(key: Buffer, binding: string, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const expected = Buffer.from(csrfToken(key, binding));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** A form post from our own pages: its Origin, when the browser sends one, is ours. */
export function sameOrigin(req: Request, publicOrigin: string): boolean {
  const origin = req.header('origin');
  if (origin === undefined) {
    // No Origin (older browsers): the Referer, when sent, must be ours.
    const referer = req.header('referer');
    return referer === undefined || referer.startsWith(`${publicOrigin}/`);
  }
  return origin === publicOrigin;
}

/**
 * The headers of every dashboard page. `formTargets` are the other origins a form may lead to
 * (the identity provider, after the sign-in form's redirect).
 */
export function pageHeaders(formTargets: string[]): (req: Request, res: Response, next: NextFunction) => void {
  const policy = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    `form-action 'self'${formTargets.map((origin) => ` ${origin}`).join('')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  return (_req, res, next) => {
    res.set({
      'Content-Security-Policy': policy,
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'same-origin',
      'X-Content-Type-Options': 'nosniff',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cache-Control': 'no-store',
    });
    next();
  };
}

/**
 * One request against a per-subject budget of `perHour`, shared by all instances (a token bucket
 * in PostgreSQL); returns the seconds to wait when the budget is spent, or 0.
 */
export async function takeFromBucket(db: Queryable, subject: string, bucket: string, perHour: number): Promise<number> {
  return (await takeToken(db, subject, bucket, perHour, 3600)).retryAfterSeconds;
}
