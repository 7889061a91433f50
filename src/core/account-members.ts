import { AppError } from '../errors.js';
import type { Database, Queryable } from '../store/db.js';
import { canonicalEmail, grantMonthlyFreeCredits, insertAccount, type Account } from './accounts.js';

/**
 * The people of an account and what each may do. An owner manages members, invitations and
 * every key; a member uses keys (their own to manage) and sees usage. A person is known by their
 * identity provider's issuer and subject; they belong to one account at most, the one
 * oauth_identities links them to, so that the dashboard and /mcp/v3 agree on who they are.
 *
 * People join an account by signing up (a new account on the free plan, of which they are the
 * owner) or by accepting an owner's invitation (account-invitations.ts).
 */

export type Role = 'owner' | 'member';

/** A person as their identity provider describes them after sign-in. */
export interface PersonIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

export interface Member {
  memberId: number;
  accountId: number;
  email: string | null;
  name: string | null;
  role: Role;
  createdAt: string;
  lastSignInAt: string | null;
  invitedBy: number | null;
}

export interface MemberRow {
  account_id: number;
  id: number;
  email: string | null;
  name: string | null;
  role: Role;
  created_at: Date;
  last_sign_in_at: Date | null;
  invited_by: number | null;
}

export const memberColumns = 'account_id, id, email, name, role, created_at, last_sign_in_at, invited_by';

export function toMember(row: MemberRow): Member {
  return {
    memberId: Number(row.id),
    accountId: Number(row.account_id),
    email: row.email,
    name: row.name,
    role: row.role,
    createdAt: row.created_at.toISOString(),
    lastSignInAt: row.last_sign_in_at?.toISOString() ?? null,
    invitedBy: row.invited_by === null ? null : Number(row.invited_by),
  };
}

const emailShape = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/**
 * An address as it is compared here: trimmed, its domain lowercased in ASCII only, its local
 * part exactly as given (the same rule sign-in uses to match a verified address); null when it
 * is not an address.
 */
export function normalizeEmail(raw: string | null | undefined): string | null {
  const value = (raw ?? '').trim();
  if (!emailShape.test(value) || value.length > 254) return null;
  return canonicalEmail(value);
}

/** The verified address of an identity, normalised, or null. */
export function verifiedEmail(identity: PersonIdentity): string | null {
  return identity.emailVerified ? normalizeEmail(identity.email) : null;
}

export async function listMembers(db: Queryable, accountId: number): Promise<Member[]> {
  const result = await db.query<MemberRow>(
    `SELECT ${memberColumns} FROM account_members WHERE account_id = $1 ORDER BY role = 'owner' DESC, id`,
    [accountId],
  );
  return result.rows.map(toMember);
}

/**
 * The member a person who signed in to `accountId` is: the one with their identity; else the one
 * with their verified address (who then gets the identity); else, for an account that has no
 * member of that kind yet (made by an operator, or the demo account, whose address or link
 * brought the person here), a new owner.
 */
export async function memberForSignIn(db: Database, accountId: number, identity: PersonIdentity): Promise<Member> {
  return db.transaction(async (tx) => {
    // Two first sign-ins of one person at once make one member.
    await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('account-members:' || $1::text, 0))`, [accountId]);
    const byIdentity = await tx.query<MemberRow>(
      `UPDATE account_members SET last_sign_in_at = now(), name = coalesce($4, name)
        WHERE account_id = $1 AND issuer = $2 AND subject = $3 RETURNING ${memberColumns}`,
      [accountId, identity.issuer, identity.subject, identity.name],
    );
    if (byIdentity.rows[0]) return toMember(byIdentity.rows[0]);
    const email = verifiedEmail(identity);
    if (email) {
      const byEmail = await tx.query<MemberRow>(
        `UPDATE account_members SET last_sign_in_at = now(), issuer = $3, subject = $4, name = coalesce($5, name)
          WHERE account_id = $1 AND email = $2 AND issuer IS NULL RETURNING ${memberColumns}`,
        [accountId, email, identity.issuer, identity.subject, identity.name],
      );
      if (byEmail.rows[0]) return toMember(byEmail.rows[0]);
    }
    const inserted = await tx
      .query<MemberRow>(
        `INSERT INTO account_members (account_id, email, name, role, issuer, subject, last_sign_in_at)
         VALUES ($1, $2, $3, 'owner', $4, $5, now()) RETURNING ${memberColumns}`,
        [accountId, email, identity.name, identity.issuer, identity.subject],
      )
      .catch((error: unknown) => {
        if ((error as { code?: string }).code !== '23505') throw error;
        throw new AppError(
          'conflict',
          'Another sign-in of this address is already a member of this account: sign in the way you did before.',
        );
      });
    return toMember(inserted.rows[0] as MemberRow);
  });
}

/** The terms a person accepts when signing up; a new version asks nobody again, but is recorded for new people. */
export const termsVersion = '2026-11';

/**
 * A new account on the free plan for a person the identity provider vouches for, with them as
 * its owner and this month's free credits (the monthly grant gives them again each month).
 */
export async function signUp(
  db: Database,
  identity: PersonIdentity,
  options: { accountName: string; monthlyFreeCredits: number; acceptedTerms: boolean },
): Promise<{ account: Account; member: Member }> {
  const email = verifiedEmail(identity);
  const issues: { field: string; message: string }[] = [];
  if (!options.acceptedTerms) issues.push({ field: 'acceptTerms', message: 'the terms must be accepted to sign up' });
  const accountName = options.accountName.trim();
  if (accountName.length < 1 || accountName.length > 100)
    issues.push({ field: 'accountName', message: 'from 1 to 100 characters' });
  if (issues.length)
    throw new AppError(
      'invalid_request',
      `Cannot sign up: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}`,
      {
        details: { issues },
      },
    );
  if (!email)
    throw new AppError(
      'forbidden',
      'Your identity provider did not vouch for an email address (a verified email), so no account can be made for this sign-in.',
    );
  return db.transaction(async (tx) => {
    const taken = await tx.query('SELECT 1 FROM oauth_identities WHERE issuer = $1 AND subject = $2', [
      identity.issuer,
      identity.subject,
    ]);
    if (taken.rowCount) throw new AppError('conflict', 'You already belong to an account: sign in again to reach it.');
    const account = await insertAccount(tx, { name: accountName, email, plan: 'free' });
    const inserted = await tx.query<MemberRow>(
      `INSERT INTO account_members (account_id, email, name, role, issuer, subject, terms_accepted_at, last_sign_in_at)
       VALUES ($1, $2, $3, 'owner', $4, $5, now(), now()) RETURNING ${memberColumns}`,
      [account.id, email, identity.name, identity.issuer, identity.subject],
    );
    await linkPerson(tx, account.id, identity);
    await grantMonthlyFreeCredits(tx, account.id, 'free', options.monthlyFreeCredits);
    return { account, member: toMember(inserted.rows[0] as MemberRow) };
  });
}

/** Links the person's identity to the account, as an operator's link-identity does, so /mcp/v3 finds them there too. */
export async function linkPerson(tx: Queryable, accountId: number, identity: PersonIdentity): Promise<void> {
  await tx.query(
    `INSERT INTO oauth_identities (issuer, subject, account_id) VALUES ($1, $2, $3)
     ON CONFLICT (issuer, subject) DO UPDATE SET account_id = EXCLUDED.account_id, created_at = now()`,
    [identity.issuer, identity.subject, accountId],
  );
}

/** The addresses of the account's owners (its own address when it has no owner yet): whom to tell about the account. */
export async function accountOwnerEmails(db: Queryable, accountId: number): Promise<string[]> {
  const result = await db.query<{ email: string }>(
    `SELECT email FROM account_members WHERE account_id = $1 AND role = 'owner' AND email IS NOT NULL
     UNION
     SELECT email FROM accounts
      WHERE id = $1 AND email IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM account_members WHERE account_id = $1 AND role = 'owner' AND email IS NOT NULL)
     ORDER BY email`,
    [accountId],
  );
  return result.rows.map((r) => r.email);
}

export interface MemberActor {
  memberId: number;
  role: Role;
}

export function requireOwner(actor: MemberActor, what: string): void {
  if (actor.role !== 'owner') throw new AppError('forbidden', `Only an owner of the account can ${what}.`);
}

/**
 * Removes a member: their link to the account goes (they can no longer sign in to it, in the
 * dashboard or through /mcp/v3), and their sessions with it (the caller ends them). The last
 * owner cannot be removed. Keys they created stay with the account.
 */
export async function removeMember(
  db: Database,
  accountId: number,
  memberId: number,
  actor: MemberActor,
  options: { revokeKeys?: boolean } = {},
): Promise<{ issuer: string | null; subject: string | null; revokedKeyHashes: Buffer[] }> {
  requireOwner(actor, 'remove members');
  return db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('account-members:' || $1::text, 0))`, [accountId]);
    const target = await tx.query<MemberRow & { issuer: string | null; subject: string | null }>(
      `SELECT ${memberColumns}, issuer, subject FROM account_members WHERE account_id = $1 AND id = $2`,
      [accountId, memberId],
    );
    const row = target.rows[0];
    if (!row) throw new AppError('not_found', `Member ${memberId} not found.`);
    if (row.role === 'owner') {
      const owners = await tx.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM account_members WHERE account_id = $1 AND role = 'owner'`,
        [accountId],
      );
      if ((owners.rows[0]?.n ?? 0) <= 1)
        throw new AppError(
          'invalid_state',
          'The last owner of an account cannot be removed: make someone else an owner first.',
        );
    }
    await tx.query('DELETE FROM account_members WHERE account_id = $1 AND id = $2', [accountId, memberId]);
    if (row.issuer !== null)
      await tx.query('DELETE FROM oauth_identities WHERE issuer = $1 AND subject = $2 AND account_id = $3', [
        row.issuer,
        row.subject,
        accountId,
      ]);
    // Sign-in by address finds the account by its own address: it passes to the owner removing them.
    if (row.email !== null) {
      const actorEmail = await tx.query<{ email: string | null }>(
        'SELECT email FROM account_members WHERE account_id = $1 AND id = $2',
        [accountId, actor.memberId],
      );
      await tx.query('SAVEPOINT move_address');
      try {
        await tx.query('UPDATE accounts SET email = $3 WHERE id = $1 AND email = $2', [
          accountId,
          row.email,
          actorEmail.rows[0]?.email ?? null,
        ]);
      } catch {
        await tx.query('ROLLBACK TO SAVEPOINT move_address');
        await tx.query('UPDATE accounts SET email = NULL WHERE id = $1 AND email = $2', [accountId, row.email]);
      }
    }
    // The member's keys go with them unless the owner chose to keep them: a key outlives its maker only by choice.
    const revoked =
      options.revokeKeys === false
        ? { rows: [] }
        : await tx.query<{ key_hash: Buffer }>(
            `UPDATE api_keys SET revoked_at = now()
              WHERE account_id = $1 AND created_by_member = $2 AND revoked_at IS NULL RETURNING key_hash`,
            [accountId, memberId],
          );
    return { issuer: row.issuer, subject: row.subject, revokedKeyHashes: revoked.rows.map((r) => r.key_hash) };
  });
}

/** The working keys a member made, by name: what removing them would revoke. */
export async function workingKeysMadeBy(db: Queryable, accountId: number, memberId: number): Promise<string[]> {
  const keys = await db.query<{ label: string | null; key_prefix: string }>(
    `SELECT label, key_prefix FROM api_keys
      WHERE account_id = $1 AND created_by_member = $2 AND revoked_at IS NULL ORDER BY id`,
    [accountId, memberId],
  );
  return keys.rows.map((k) => k.label ?? k.key_prefix);
}

// ---- Invitations -------------------------------------------------------------------------
