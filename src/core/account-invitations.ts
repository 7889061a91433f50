import { createHmac, timingSafeEqual } from 'node:crypto';
import { mailerRewrite } from '../../operations/schemas/common.js';
import { AppError } from '../errors.js';
import type { Database, Queryable } from '../store/db.js';
import {
  linkPerson,
  memberColumns,
  normalizeEmail,
  requireOwner,
  toMember,
  verifiedEmail,
  type Member,
  type MemberActor,
  type MemberRow,
  type PersonIdentity,
  type Role,
} from './account-members.js';

/**
 * Invitations to an account (the second way to join it, beside signing up: account-members.ts):
 * an owner invites an address; the mailed link is signed, expires after a week and is good once,
 * and only a person whose identity provider vouches for that very address can accept it.
 */

export const invitationLifetimeDays = 7;

export interface Invitation {
  invitationId: number;
  accountId: number;
  accountName: string;
  email: string;
  role: Role;
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
}

function signature(key: Buffer, accountId: number, invitationId: number, email: string, expires: number): string {
  return createHmac('sha256', key)
    .update(`account-invitation\u0000${accountId}\u0000${invitationId}\u0000${email}\u0000${expires}`)
    .digest('base64url');
}

/** The token of an invitation's link: which invitation, until when, and a signature over both and the address. */
function invitationToken(key: Buffer, accountId: number, invitationId: number, email: string, expiresAt: Date): string {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `${accountId}.${invitationId}.${expires}.${signature(key, accountId, invitationId, email, expires)}`;
}

/** An owner invites a person by address; returns the token for the mailed link. */
export async function createInvitation(
  db: Database,
  key: Buffer,
  accountId: number,
  actor: MemberActor,
  input: { email: string; role: Role },
): Promise<{ invitationId: number; token: string; expiresAt: string; email: string }> {
  requireOwner(actor, 'invite people');
  const email = normalizeEmail(input.email);
  if (!email)
    throw new AppError('invalid_request', 'Invalid invitation: email: an email address such as kim@example.com', {
      details: { issues: [{ field: 'email', message: 'an email address such as kim@example.com' }] },
    });
  // The shape above is loose; the mailer parses `To` its own way and would send `<a>@b.test` elsewhere than stored.
  const rewritten = mailerRewrite(email);
  if (rewritten !== null)
    throw new AppError(
      'invalid_request',
      `Invalid invitation: email: one plain address such as kim@example.com (the mailer would send this to ${rewritten})`,
      { details: { issues: [{ field: 'email', message: 'one plain address, as the mailer reads it' }] } },
    );
  if (input.role !== 'owner' && input.role !== 'member')
    throw new AppError('invalid_request', 'Invalid invitation: role: owner or member', {
      details: { issues: [{ field: 'role', message: 'owner or member' }] },
    });
  return db.transaction(async (tx) => {
    const member = await tx.query('SELECT 1 FROM account_members WHERE account_id = $1 AND email = $2', [
      accountId,
      email,
    ]);
    if (member.rowCount) throw new AppError('conflict', `${email} is already a member of this account.`);
    // A new invitation to the same address replaces the one before it.
    await tx.query(
      `UPDATE account_invitations SET revoked_at = now()
        WHERE account_id = $1 AND email = $2 AND accepted_at IS NULL AND revoked_at IS NULL`,
      [accountId, email],
    );
    const inserted = await tx.query<{ id: number; expires_at: Date }>(
      `INSERT INTO account_invitations (account_id, email, role, invited_by, expires_at)
       VALUES ($1, $2, $3, $4, date_trunc('second', now()) + make_interval(days => $5)) RETURNING id, expires_at`,
      [accountId, email, input.role, actor.memberId, invitationLifetimeDays],
    );
    const row = inserted.rows[0] as { id: number; expires_at: Date };
    return {
      invitationId: Number(row.id),
      token: invitationToken(key, accountId, Number(row.id), email, row.expires_at),
      expiresAt: row.expires_at.toISOString(),
      email,
    };
  });
}

export async function listInvitations(db: Queryable, accountId: number): Promise<Invitation[]> {
  const result = await db.query<InvitationRow>(
    `${invitationSelect} WHERE i.account_id = $1 AND i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > now()
      ORDER BY i.id DESC`,
    [accountId],
  );
  return result.rows.map(toInvitation);
}

export async function revokeInvitation(
  db: Queryable,
  accountId: number,
  invitationId: number,
  actor: MemberActor,
): Promise<void> {
  requireOwner(actor, 'withdraw invitations');
  const revoked = await db.query(
    `UPDATE account_invitations SET revoked_at = now()
      WHERE account_id = $1 AND id = $2 AND accepted_at IS NULL AND revoked_at IS NULL`,
    [accountId, invitationId],
  );
  if (!revoked.rowCount) throw new AppError('not_found', `Invitation ${invitationId} not found.`);
}

interface InvitationRow {
  account_id: number;
  id: number;
  account_name: string;
  email: string;
  role: Role;
  inviter: string | null;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
}

const invitationSelect = `SELECT i.account_id, i.id, a.name AS account_name, i.email, i.role,
       coalesce(m.name, m.email) AS inviter, i.created_at, i.expires_at, i.accepted_at, i.revoked_at
  FROM account_invitations i JOIN accounts a ON a.id = i.account_id
  LEFT JOIN account_members m ON m.account_id = i.account_id AND m.id = i.invited_by`;

function toInvitation(row: InvitationRow): Invitation {
  return {
    invitationId: Number(row.id),
    accountId: Number(row.account_id),
    accountName: row.account_name,
    email: row.email,
    role: row.role,
    invitedBy: row.inviter,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
  };
}

const invalidInvitation = () =>
  new AppError(
    'not_found',
    'This invitation link is not valid: it was changed or cut short. Open the link from the mail exactly as it came, or ask for a new invitation.',
  );

/** The invitation a token names, if its signature holds and it can still be accepted; a clear refusal otherwise. */
export async function openInvitation(
  db: Queryable,
  key: Buffer,
  token: string,
  forUpdate = false,
): Promise<Invitation> {
  const match = /^(\d{1,15})\.(\d{1,15})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) throw invalidInvitation();
  const [accountId, invitationId, expires] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const result = await db.query<InvitationRow>(
    `${invitationSelect} WHERE i.account_id = $1 AND i.id = $2 ${forUpdate ? 'FOR UPDATE OF i' : ''}`,
    [accountId, invitationId],
  );
  const row = result.rows[0];
  if (!row) throw invalidInvitation();
  const expected = Buffer.from(signature(key, accountId, invitationId, row.email, expires));
  const given = Buffer.from(match[4] as string);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalidInvitation();
  if (Math.floor(row.expires_at.getTime() / 1000) !== expires) throw invalidInvitation();
  if (row.accepted_at) throw new AppError('gone', 'This invitation was already accepted; each link works once.');
  if (row.revoked_at) throw new AppError('gone', 'This invitation was withdrawn (or replaced by a newer one).');
  if (row.expires_at.getTime() <= Date.now())
    throw new AppError(
      'gone',
      `This invitation expired on ${row.expires_at.toISOString().slice(0, 10)}; ask an owner of ${row.account_name} for a new one.`,
    );
  return toInvitation(row);
}

/**
 * Accepts an invitation for the signed-in person, who accepted the terms: their identity provider must vouch for the
 * invited address, and they must not belong to another account. They become a member with the
 * invited role and their identity is linked to the account; the link cannot be used again.
 */
export async function acceptInvitation(
  db: Database,
  key: Buffer,
  token: string,
  identity: PersonIdentity,
): Promise<Member> {
  return db.transaction(async (tx) => {
    const invitation = await openInvitation(tx, key, token, true);
    const email = verifiedEmail(identity);
    if (email !== invitation.email)
      throw new AppError(
        'forbidden',
        `This invitation is for ${invitation.email}, and you signed in as ${identity.email ?? 'someone without an email'}` +
          `${identity.email && !identity.emailVerified ? ' (not verified by your identity provider)' : ''}. Sign in as ${invitation.email} to accept it.`,
      );
    const elsewhere = await tx.query<{ account_id: number }>(
      'SELECT account_id FROM oauth_identities WHERE issuer = $1 AND subject = $2',
      [identity.issuer, identity.subject],
    );
    const current = elsewhere.rows[0]?.account_id;
    if (current !== undefined && Number(current) !== invitation.accountId)
      throw new AppError(
        'conflict',
        'You already belong to another account. A person belongs to one account: ask an owner of yours to remove you first.',
      );
    await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('account-members:' || $1::text, 0))`, [
      invitation.accountId,
    ]);
    const existing = await tx.query<MemberRow>(
      `SELECT ${memberColumns} FROM account_members WHERE account_id = $1 AND (email = $2 OR (issuer = $3 AND subject = $4))`,
      [invitation.accountId, email, identity.issuer, identity.subject],
    );
    if (existing.rows[0]) throw new AppError('conflict', 'You are already a member of this account.');
    const inserted = await tx.query<MemberRow>(
      `INSERT INTO account_members (account_id, email, name, role, issuer, subject, invited_by, terms_accepted_at, last_sign_in_at)
       SELECT $1, $2, $3, role, $4, $5, invited_by, now(), now() FROM account_invitations WHERE account_id = $1 AND id = $6
       RETURNING ${memberColumns}`,
      [invitation.accountId, email, identity.name, identity.issuer, identity.subject, invitation.invitationId],
    );
    const member = toMember(inserted.rows[0] as MemberRow);
    await tx.query(
      'UPDATE account_invitations SET accepted_at = now(), accepted_by = $3 WHERE account_id = $1 AND id = $2',
      [invitation.accountId, invitation.invitationId, member.memberId],
    );
    await linkPerson(tx, invitation.accountId, identity);
    return member;
  });
}
