import { createHash, randomBytes } from 'node:crypto';
import type { PersonIdentity, Role } from '../core/account-members.js';
import type { Queryable } from '../store/db.js';

/**
 * Browser sessions of the dashboard, in PostgreSQL so that any instance serves any request. The
 * cookie holds 256 random bits; only their SHA-256 is stored, so a copy of the table signs nobody
 * in. A session is new at every sign-in (an id planted before it is never taken up), ends after
 * an idle time and at an absolute limit, and a person can end all of theirs at once.
 */

export interface SessionSettings {
  idleMinutes: number;
  maxHours: number;
}

export interface Session {
  idHash: Buffer;
  identity: PersonIdentity;
  /** Set once the person belongs to an account (signed up, invited, or matched at sign-in). */
  account: {
    accountId: number;
    accountName: string;
    plan: string;
    memberId: number;
    role: Role;
  } | null;
  createdAt: string;
}

export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSessionId(id: string): Buffer {
  return createHash('sha256').update(id, 'utf8').digest();
}

/** Starts a session for a person who just signed in; returns the cookie's value. */
export async function createSession(
  db: Queryable,
  identity: PersonIdentity,
  member: { accountId: number; memberId: number } | null,
  settings: SessionSettings,
): Promise<string> {
  const id = newSessionId();
  await db.query(
    `INSERT INTO dashboard_sessions (id_hash, issuer, subject, email, email_verified, name, account_id, member_id, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() + make_interval(hours => $9))`,
    [
      hashSessionId(id),
      identity.issuer,
      identity.subject,
      identity.email,
      identity.emailVerified,
      identity.name,
      member?.accountId ?? null,
      member?.memberId ?? null,
      settings.maxHours,
    ],
  );
  return id;
}

/** How much of the idle time may pass before a session's last use is written again. */
const refreshFraction = 0.25;

/**
 * The live session of a cookie, or null: unknown, expired, idle too long, or of a member who was
 * removed (that session is ended here). Marks it used when its last use is older than a minute or
 * a quarter of the idle time, whichever is less: a session in use never reaches its idle end, even
 * with an idle time of a minute, and a busy page does not write on every request.
 */
export async function loadSession(db: Queryable, id: string, settings: SessionSettings): Promise<Session | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return null;
  const idHash = hashSessionId(id);
  const result = await db.query<{
    issuer: string;
    subject: string;
    email: string | null;
    email_verified: boolean;
    name: string | null;
    account_id: number | null;
    member_id: number | null;
    role: Role | null;
    account_name: string | null;
    plan: string | null;
    created_at: Date;
    stale: boolean;
  }>(
    `SELECT s.issuer, s.subject, s.email, s.email_verified, s.name, s.account_id, s.member_id, m.role,
            a.name AS account_name, a.plan, s.created_at, s.last_seen_at < now() - least(interval '1 minute', make_interval(secs => $2::int * 60 * $3::float8)) AS stale
       FROM dashboard_sessions s
       LEFT JOIN account_members m ON m.account_id = s.account_id AND m.id = s.member_id
       LEFT JOIN accounts a ON a.id = s.account_id
      WHERE s.id_hash = $1 AND s.expires_at > now() AND s.last_seen_at > now() - make_interval(mins => $2)`,
    [idHash, settings.idleMinutes, refreshFraction],
  );
  const row = result.rows[0];
  if (!row) return null;
  if (row.account_id !== null && (row.role === null || row.account_name === null)) {
    await endSession(db, idHash);
    return null;
  }
  if (row.stale) await db.query('UPDATE dashboard_sessions SET last_seen_at = now() WHERE id_hash = $1', [idHash]);
  return {
    idHash,
    identity: {
      issuer: row.issuer,
      subject: row.subject,
      email: row.email,
      emailVerified: row.email_verified,
      name: row.name,
    },
    account:
      row.account_id !== null && row.member_id !== null && row.role !== null
        ? {
            accountId: Number(row.account_id),
            accountName: row.account_name as string,
            plan: row.plan as string,
            memberId: Number(row.member_id),
            role: row.role,
          }
        : null,
    createdAt: row.created_at.toISOString(),
  };
}

/** Binds a session to the account its person just joined (signed up, accepted an invitation). */
export async function attachAccount(db: Queryable, idHash: Buffer, accountId: number, memberId: number): Promise<void> {
  await db.query('UPDATE dashboard_sessions SET account_id = $2, member_id = $3 WHERE id_hash = $1', [
    idHash,
    accountId,
    memberId,
  ]);
}

export async function endSession(db: Queryable, idHash: Buffer): Promise<void> {
  await db.query('DELETE FROM dashboard_sessions WHERE id_hash = $1', [idHash]);
}

/** Ends every session of a person (sign out everywhere; removal from an account). */
export async function endSessionsOf(db: Queryable, issuer: string, subject: string): Promise<number> {
  const ended = await db.query('DELETE FROM dashboard_sessions WHERE issuer = $1 AND subject = $2', [issuer, subject]);
  return ended.rowCount ?? 0;
}

/** Sessions past their end are deleted by the retention sweep. */
export const sessionRetention = {
  name: 'dashboardSessionsDeleted',
  sweep: async (db: Queryable): Promise<number> => {
    const deleted = await db.query(
      `DELETE FROM dashboard_sessions WHERE expires_at < now() OR last_seen_at < now() - interval '1 day'`,
    );
    return deleted.rowCount ?? 0;
  },
};
