import { asciiLowercase } from '../core/accounts.js';
import { AppError } from '../errors.js';
import type { Queryable } from '../store/db.js';
import type { UpstreamIdentity } from './upstream.js';

/**
 * Who a person signed in at the identity provider is here: an operator's link of issuer and
 * subject to an account first, then a verified email that is the account's email. Anything
 * else is nobody: no account is created by signing in.
 */

export interface MappedAccount {
  id: number;
  name: string;
  email: string | null;
  balance: number;
  /** How the person was recognised. */
  by: 'link' | 'email';
}

/**
 * Whether an address an identity provider verified is this account's address: the same
 * characters exactly, except that the domain's ASCII letters may differ in case. No Unicode case
 * folding or normalisation (the Kelvin sign is not k, a full-width letter is not its ASCII one,
 * a combining mark is a character), no trimming, one `@`: anything else is another address.
 */
export function sameAccountEmail(verified: string, accountEmail: string): boolean {
  const split = (address: string) => {
    const at = address.lastIndexOf('@');
    return at > 0 && at === address.indexOf('@') && at < address.length - 1
      ? { local: address.slice(0, at), domain: asciiLowercase(address.slice(at + 1)) }
      : null;
  };
  const a = split(verified);
  const b = split(accountEmail);
  return a !== null && b !== null && a.local === b.local && a.domain === b.domain;
}

/**
 * The account a person signed in at an identity provider acts for, or null: the account an
 * operator linked to the identity's issuer and subject; else, when the provider verified the
 * person's email, the one account whose email is that address (sameAccountEmail). The one
 * function that decides this, for every sign-in (the /mcp/v3 authorization server, the dashboard).
 */
export async function accountForIdentity(db: Queryable, identity: UpstreamIdentity): Promise<MappedAccount | null> {
  // No account's link or address holds a NUL (PostgreSQL stores none): such a claim names nobody.
  if ([identity.issuer, identity.subject, identity.email ?? ''].some((value) => value.includes('\u0000'))) return null;
  const linked = await db.query<{ id: number; name: string; email: string | null; balance: number }>(
    `SELECT a.id, a.name, a.email, coalesce(b.balance, 0)::bigint AS balance
       FROM oauth_identities i JOIN accounts a ON a.id = i.account_id LEFT JOIN credit_balances b ON b.account_id = a.id
      WHERE i.issuer = $1 AND i.subject = $2`,
    [identity.issuer, identity.subject],
  );
  if (linked.rows[0]) return { ...row(linked.rows[0]), by: 'link' };
  if (!identity.email || identity.emailVerified !== true) return null;
  const verified = identity.email;
  // lower() only narrows the candidates (addresses that match differ at most in the case of ASCII
  // letters, which lower() folds in any locale); sameAccountEmail decides.
  const candidates = await db.query<{ id: number; name: string; email: string | null; balance: number }>(
    `SELECT a.id, a.name, a.email, coalesce(b.balance, 0)::bigint AS balance
       FROM accounts a LEFT JOIN credit_balances b ON b.account_id = a.id
      WHERE lower(a.email) = lower($1)`,
    [verified],
  );
  const matching = candidates.rows.filter(
    (candidate) => candidate.email && sameAccountEmail(verified, candidate.email),
  );
  // Two accounts whose addresses differ only in the domain's case: which one is meant cannot be told.
  return matching.length === 1 ? { ...row(matching[0] as (typeof matching)[number]), by: 'email' } : null;
}

function row(r: { id: number; name: string; email: string | null; balance: number }) {
  return { id: Number(r.id), name: r.name, email: r.email, balance: Number(r.balance) };
}

export async function accountSummary(db: Queryable, accountId: number): Promise<Omit<MappedAccount, 'by'> | null> {
  const result = await db.query<{ id: number; name: string; email: string | null; balance: number }>(
    `SELECT a.id, a.name, a.email, coalesce(b.balance, 0)::bigint AS balance
       FROM accounts a LEFT JOIN credit_balances b ON b.account_id = a.id WHERE a.id = $1`,
    [accountId],
  );
  return result.rows[0] ? row(result.rows[0]) : null;
}

export async function linkIdentity(
  db: Queryable,
  accountId: number,
  issuer: string,
  subject: string,
): Promise<'linked' | 'moved' | 'unchanged'> {
  const account = await db.query('SELECT 1 FROM accounts WHERE id = $1', [accountId]);
  if (account.rowCount === 0) throw new AppError('not_found', `Account ${accountId} not found.`);
  const previous = await db.query<{ account_id: number }>(
    'SELECT account_id FROM oauth_identities WHERE issuer = $1 AND subject = $2',
    [issuer, subject],
  );
  const before = previous.rows[0]?.account_id;
  if (before !== undefined && Number(before) === accountId) return 'unchanged';
  await db.query(
    `INSERT INTO oauth_identities (issuer, subject, account_id) VALUES ($1, $2, $3)
     ON CONFLICT (issuer, subject) DO UPDATE SET account_id = EXCLUDED.account_id, created_at = now()`,
    [issuer, subject, accountId],
  );
  return before === undefined ? 'linked' : 'moved';
}

export interface GrantListing {
  grantId: string;
  accountId: number;
  accountName: string;
  clientId: string;
  clientName: string | null;
  scopes: string[];
  createdAt: string;
  expiresAt: string | null;
  activeTokens: number;
}

/** The remembered approvals (oidc-provider grants), by account, newest first. */
export async function listGrants(db: Queryable, accountId?: number): Promise<GrantListing[]> {
  const result = await db.query<{
    id: string;
    account_id: string;
    name: string | null;
    client_id: string;
    payload: Record<string, unknown>;
    client_payload: Record<string, unknown> | null;
    created_at: Date;
    expires_at: Date | null;
    tokens: number;
  }>(
    `SELECT g.id, g.account_id, a.name, g.client_id, g.payload, c.payload AS client_payload, g.created_at, g.expires_at,
            (SELECT count(*)::int FROM oauth_models t WHERE t.grant_id = g.id AND t.kind IN ('AccessToken', 'RefreshToken')
                AND (t.expires_at IS NULL OR t.expires_at > now()) AND t.consumed_at IS NULL) AS tokens
       FROM oauth_models g
       LEFT JOIN accounts a ON a.id::text = g.account_id
       LEFT JOIN oauth_models c ON c.kind = 'Client' AND c.id = g.client_id
      WHERE g.kind = 'Grant' AND (g.expires_at IS NULL OR g.expires_at > now()) AND ($1::text IS NULL OR g.account_id = $1::text)
      ORDER BY g.created_at DESC`,
    [accountId === undefined ? null : String(accountId)],
  );
  return result.rows.map((r) => {
    const resources = (r.payload.resources ?? {}) as Record<string, string>;
    const openid = (r.payload.openid as { scope?: string } | undefined)?.scope ?? '';
    const scopes = [
      ...new Set([...openid.split(' '), ...Object.values(resources).flatMap((s) => s.split(' '))].filter(Boolean)),
    ];
    return {
      grantId: r.id,
      accountId: Number(r.account_id),
      accountName: r.name ?? '(deleted account)',
      clientId: r.client_id,
      clientName: typeof r.client_payload?.client_name === 'string' ? r.client_payload.client_name : null,
      scopes,
      createdAt: r.created_at.toISOString(),
      expiresAt: r.expires_at ? r.expires_at.toISOString() : null,
      activeTokens: r.tokens,
    };
  });
}

/**
 * Removes approvals and every code and token issued under them: by grant id, or all of one
 * account's grants for one client. Returns how many grants were removed.
 */
export async function revokeGrants(
  db: Queryable,
  target: { grantId: string } | { accountId: number; clientId: string },
): Promise<number> {
  const grants = await db.query<{ id: string }>(
    'grantId' in target
      ? `DELETE FROM oauth_models WHERE kind = 'Grant' AND id = $1 RETURNING id`
      : `DELETE FROM oauth_models WHERE kind = 'Grant' AND account_id = $1 AND client_id = $2 RETURNING id`,
    'grantId' in target ? [target.grantId] : [String(target.accountId), target.clientId],
  );
  const ids = grants.rows.map((g) => g.id);
  if (ids.length) await db.query('DELETE FROM oauth_models WHERE grant_id = ANY($1::text[])', [ids]);
  return ids.length;
}
