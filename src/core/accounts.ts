import type pg from 'pg';
import { generateApiKey, hashApiKey } from './api-keys.js';
import { AppError } from '../errors.js';
import type { Database, Queryable } from '../store/db.js';
import { credit } from './credits.js';
import { createApiKey, insertApiKey } from './api-keys.js';

export type Plan = 'free' | 'pro' | 'enterprise' | 'demo';

export interface Account {
  id: number;
  name: string;
  email: string | null;
  plan: Plan;
  createdAt: string;
}

export interface CreatedAccount {
  account: Account;
  apiKey: string;
}

/**
 * A-Z to a-z and nothing else. Unicode lowercasing folds other letters onto ASCII ones (the
 * Kelvin sign onto k, the Angstrom sign onto å), which would make two different addresses one;
 * an address is only ever lowercased this way.
 */
export function asciiLowercase(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/**
 * An address as accounts and members keep it, and as sign-in compares it: trimmed, the domain's
 * ASCII letters lowercased, the local part exactly as given (a provider that verified
 * `Ann.Lee@x.example` verified that local part, not `ann.lee`).
 */
export function canonicalEmail(address: string): string {
  const value = address.trim();
  const at = value.lastIndexOf('@');
  return at < 0 ? value : `${value.slice(0, at)}@${asciiLowercase(value.slice(at + 1))}`;
}

export async function createAccount(
  db: Database,
  options: { name: string; email?: string | null; plan?: Plan; initialCredits?: number; apiKey?: string },
): Promise<CreatedAccount> {
  return db.transaction(async (tx) => {
    const account = await insertAccount(tx, {
      name: options.name,
      email: options.email ? canonicalEmail(options.email) : null,
      plan: options.plan ?? 'free',
    });
    const { apiKey } = await insertApiKey(tx, account.id, options.apiKey ?? generateApiKey(), { name: 'initial' });
    if (options.initialCredits && options.initialCredits > 0) {
      await credit(tx, account.id, options.initialCredits, {
        unit: 'grant',
        reason: 'initial credits',
        idempotencyKey: 'initial-grant',
      });
    }
    return { account, apiKey };
  });
}

/** The account and its zero balance, inside the caller's transaction; an email already taken is a conflict (409). */
export async function insertAccount(
  tx: Queryable,
  options: { name: string; email: string | null; plan: Plan },
): Promise<Account> {
  const inserted = await tx
    .query<{ id: number; name: string; email: string | null; plan: Plan; created_at: Date }>(
      `INSERT INTO accounts (name, email, plan) VALUES ($1, $2, $3) RETURNING id, name, email, plan, created_at`,
      [options.name, options.email, options.plan],
    )
    .catch((error: unknown) => {
      if ((error as { code?: string }).code === '23505') {
        throw new AppError('conflict', 'An account with this email already exists.');
      }
      throw error;
    });
  const row = inserted.rows[0] as { id: number; name: string; email: string | null; plan: Plan; created_at: Date };
  await tx.query('INSERT INTO credit_balances (account_id, balance) VALUES ($1, 0)', [row.id]);
  return { id: row.id, name: row.name, email: row.email, plan: row.plan, createdAt: row.created_at.toISOString() };
}

export async function issueApiKey(db: Database, accountId: number, label?: string): Promise<string> {
  return (await createApiKey(db, accountId, { name: label ?? null })).apiKey;
}

/** Revokes by the full key or by its display prefix; returns how many keys were revoked. */
export async function revokeApiKey(db: Queryable, keyOrPrefix: string): Promise<number> {
  const byHash = await db.query('UPDATE api_keys SET revoked_at = now() WHERE key_hash = $1 AND revoked_at IS NULL', [
    hashApiKey(keyOrPrefix),
  ]);
  if ((byHash.rowCount ?? 0) > 0) return byHash.rowCount ?? 0;
  const byPrefix = await db.query(
    'UPDATE api_keys SET revoked_at = now() WHERE key_prefix = $1 AND revoked_at IS NULL',
    [keyOrPrefix],
  );
  return byPrefix.rowCount ?? 0;
}

export async function grantCredits(db: Database, accountId: number, amount: number, reason: string): Promise<number> {
  await requireAccount(db.pool, accountId);
  return db.transaction(async (tx) => (await credit(tx, accountId, amount, { unit: 'grant', reason })).balanceAfter);
}

async function requireAccount(db: Queryable, accountId: number): Promise<void> {
  const found = await db.query('SELECT 1 FROM accounts WHERE id = $1', [accountId]);
  if (found.rowCount === 0) throw new AppError('not_found', `Account ${accountId} not found.`);
}

export async function listAccounts(db: Queryable): Promise<Array<Account & { balance: number; activeKeys: number }>> {
  const result = await db.query<{
    id: number;
    name: string;
    email: string | null;
    plan: Plan;
    created_at: Date;
    balance: number;
    active_keys: number;
  }>(
    `SELECT a.id, a.name, a.email, a.plan, a.created_at, coalesce(b.balance, 0) AS balance,
            (SELECT count(*)::int FROM api_keys k WHERE k.account_id = a.id AND k.revoked_at IS NULL) AS active_keys
       FROM accounts a LEFT JOIN credit_balances b ON b.account_id = a.id ORDER BY a.id`,
  );
  return result.rows.map((r) => ({
    id: r.id,
    name: r.name,
    email: r.email,
    plan: r.plan,
    createdAt: r.created_at.toISOString(),
    balance: r.balance,
    activeKeys: r.active_keys,
  }));
}

/**
 * Free-plan accounts receive their monthly credits lazily, on the first balance read or
 * charge of each calendar month (UTC); the ledger's idempotency key makes it once a month.
 * Unused credits carry over.
 */
export async function grantMonthlyFreeCredits(
  tx: pg.PoolClient,
  accountId: number,
  plan: string,
  monthlyCredits: number,
  now = new Date(),
): Promise<void> {
  if (plan !== 'free' || monthlyCredits <= 0) return;
  const month = now.toISOString().slice(0, 7);
  await credit(tx, accountId, monthlyCredits, {
    unit: 'grant',
    reason: `free plan credits for ${month}`,
    idempotencyKey: `free-plan:${month}`,
  });
}
