import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import { AppError } from '../errors.js';
import type { Queryable } from '../store/db.js';

/**
 * Credits. The ledger is append-only (a trigger refuses updates and deletes); `credit_balances`
 * holds the running sum and cannot go negative (a CHECK). Every movement runs inside the
 * caller's transaction, so a charge and what it pays for commit or roll back together.
 */

export interface LedgerEntryInput {
  unit: string;
  reason: string;
  reference?: string;
  /** A movement with a key already in the ledger is not applied again. */
  idempotencyKey?: string;
}

export interface Movement {
  applied: boolean;
  balanceAfter: number;
}

/**
 * The API key a request spends with. Every charge made while an operation runs for a key is
 * recorded against it (the ledger's api_key_id, the key's spend of the day), and a key with a
 * daily cap is held to it by the very statement that takes the credits: no handler can charge
 * around it, and concurrent charges cannot overshoot it. Jobs that charge later run outside any
 * request and spend with no key.
 */
export interface SpendingKey {
  accountId: number;
  keyId: number;
  /** Most credits the key may spend per UTC day; null: no cap. */
  dailyCreditCap: number | null;
}

const spendingKey = new AsyncLocalStorage<SpendingKey>();
const chargingOperation = new AsyncLocalStorage<string>();

/**
 * Runs `work` with every ledger entry it writes naming `operationId`: the operation as people call it, which the
 * metered unit alone cannot tell (peopleSearch and others charge getPersonFromDb).
 */
export function chargeFor<T>(operationId: string, work: () => Promise<T>): Promise<T> {
  return chargingOperation.run(operationId, work);
}

/** Runs `work` with every charge it makes attributed to `key` (and held to its cap). */
export function spendWith<T>(key: SpendingKey | null, work: () => Promise<T>): Promise<T> {
  return key ? spendingKey.run(key, work) : work();
}

/** The capped key charges of `accountId` are held to now, if any: such a charge needs a transaction. */
export function cappedSpendingKey(accountId: number): SpendingKey | null {
  const key = spendingKey.getStore();
  return key && key.accountId === accountId && key.dailyCreditCap !== null ? key : null;
}

function keyFor(accountId: number): SpendingKey | null {
  const key = spendingKey.getStore();
  return key && key.accountId === accountId ? key : null;
}

/** The next reset of daily caps: midnight UTC after `now`. */
export function capResetsAt(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

export function keySpendCapError(cap: number, spentToday: number, required: number, now = new Date()): AppError {
  const resetsAt = capResetsAt(now);
  return new AppError(
    'key_spend_cap',
    `This API key may spend at most ${cap} credits a day; it has spent ${spentToday} today and this needs ${required}. ` +
      `Nothing was charged. The cap resets at ${resetsAt.toISOString()} (midnight UTC); an owner of the account, or the person who created the key, can raise or remove it on the dashboard's API keys page (/dashboard/keys, then Change).`,
    {
      details: {
        dailyCreditCap: cap,
        spentToday,
        required,
        resetsAt: resetsAt.toISOString(),
        retryAfterSeconds: Math.max(1, Math.ceil((resetsAt.getTime() - now.getTime()) / 1000)),
      },
    },
  );
}

export async function getBalance(db: Queryable, accountId: number): Promise<number> {
  const result = await db.query<{ balance: number }>('SELECT balance FROM credit_balances WHERE account_id = $1', [
    accountId,
  ]);
  return result.rows[0]?.balance ?? 0;
}

/** Who asked for a charge: the request (the ledger's reference), and its Idempotency-Key's ledger key when it had one. */
export interface ChargeOrigin {
  requestId: string;
  ledgerKey: string | null;
}

/**
 * The ledger entry of a request's charge: an entry with the request's ledger key is applied
 * once, however often the request runs (a retry that takes over from a process that died).
 */
export function requestEntry(origin: ChargeOrigin, unit: string, reason: string): LedgerEntryInput {
  return {
    unit,
    reason,
    reference: origin.requestId,
    ...(origin.ledgerKey ? { idempotencyKey: origin.ledgerKey } : {}),
  };
}

/** Takes `amount` credits, or throws insufficient_credits and takes nothing. */
export async function charge(
  tx: pg.PoolClient,
  accountId: number,
  amount: number,
  entry: LedgerEntryInput,
): Promise<Movement> {
  const skipped = await movementToSkip(tx, accountId, amount, entry);
  if (skipped) return skipped;
  return takeCredits(tx, accountId, amount, entry);
}

/**
 * A charge that pays for nothing written with it (a page of search results), without a key:
 * one statement, so it needs no transaction of its own and costs one round trip instead of four
 * (BEGIN, the balance, the ledger, COMMIT; docs/decisions/0005-credit-ledger.md).
 */
export async function chargeAlone(
  db: Queryable,
  accountId: number,
  amount: number,
  entry: Omit<LedgerEntryInput, 'idempotencyKey'>,
): Promise<Movement> {
  assertWholeCredits(amount);
  if (amount === 0) return { applied: false, balanceAfter: await getBalance(db, accountId) };
  if (cappedSpendingKey(accountId)) throw new Error('a capped key charges in a transaction (charge), not alone');
  return takeCredits(db, accountId, amount, entry);
}

/**
 * The balance and its ledger entry in one statement: both or neither, on its own or inside the
 * caller's transaction. The balance's CHECK and the `balance >= amount` test keep it from going
 * negative; a short balance takes nothing and throws.
 */
async function takeCredits(
  db: Queryable,
  accountId: number,
  amount: number,
  entry: LedgerEntryInput,
): Promise<Movement> {
  const key = keyFor(accountId);
  if (key?.dailyCreditCap != null) await holdToCap(db, key, key.dailyCreditCap, amount);
  const taken = await db.query<{ balance: number }>(
    `WITH taken AS (
       UPDATE credit_balances SET balance = balance - $2::bigint
        WHERE account_id = $1 AND balance >= $2::bigint
        RETURNING balance
     ), entry AS (
       INSERT INTO credit_ledger (account_id, amount, balance_after, unit, reason, reference, idempotency_key, api_key_id,
                                  operation_id)
       SELECT $1, -$2::bigint, balance, $3, $4, $5, $6, $7, $9 FROM taken
     ), spent AS (
       INSERT INTO api_key_daily_spend AS s (account_id, key_id, day, spent)
       SELECT $1, $7, (now() AT TIME ZONE 'UTC')::date, $2::bigint FROM taken WHERE $7::bigint IS NOT NULL AND NOT $8::boolean
       ON CONFLICT (account_id, key_id, day) DO UPDATE SET spent = s.spent + EXCLUDED.spent
     )
     SELECT balance FROM taken`,
    [
      accountId,
      amount,
      entry.unit,
      entry.reason,
      entry.reference ?? null,
      entry.idempotencyKey ?? null,
      key?.keyId ?? null,
      key?.dailyCreditCap != null,
      chargingOperation.getStore() ?? null,
    ],
  );
  const row = taken.rows[0];
  if (!row) {
    const balance = await getBalance(db, accountId);
    throw new AppError(
      'insufficient_credits',
      `This needs ${amount} credits and the balance is ${balance}. Nothing was charged.`,
      {
        details: { required: amount, balance },
      },
    );
  }
  return { applied: true, balanceAfter: row.balance };
}

/**
 * Adds `amount` to a capped key's spend of the day if it stays within the cap, in one statement
 * that locks the day's row: concurrent charges of the key queue on it, and each sees what the
 * ones before it spent. Runs in the charge's transaction, so a charge that then fails (a short
 * balance) takes its amount back off with it.
 */
async function holdToCap(db: Queryable, key: SpendingKey, cap: number, amount: number): Promise<void> {
  const raised = await db.query(
    `INSERT INTO api_key_daily_spend AS s (account_id, key_id, day, spent)
     SELECT $1, $2, (now() AT TIME ZONE 'UTC')::date, $3::bigint WHERE $3::bigint <= $4::bigint
     ON CONFLICT (account_id, key_id, day) DO UPDATE SET spent = s.spent + EXCLUDED.spent
      WHERE s.spent + EXCLUDED.spent <= $4::bigint`,
    [key.accountId, key.keyId, amount, cap],
  );
  if (raised.rowCount) return;
  throw keySpendCapError(cap, await spentToday(db, key.accountId, key.keyId), amount);
}

/** Credits the key has spent today (UTC). */
export async function spentToday(db: Queryable, accountId: number, keyId: number): Promise<number> {
  const result = await db.query<{ spent: number }>(
    `SELECT spent FROM api_key_daily_spend WHERE account_id = $1 AND key_id = $2 AND day = (now() AT TIME ZONE 'UTC')::date`,
    [accountId, keyId],
  );
  return result.rows[0]?.spent ?? 0;
}

/** Adds credits: grants, purchases and refunds. */
export async function credit(
  tx: pg.PoolClient,
  accountId: number,
  amount: number,
  entry: LedgerEntryInput,
): Promise<Movement> {
  const skipped = await movementToSkip(tx, accountId, amount, entry);
  if (skipped) return skipped;
  const updated = await tx.query<{ balance: number }>(
    `INSERT INTO credit_balances (account_id, balance) VALUES ($1, $2)
     ON CONFLICT (account_id) DO UPDATE SET balance = credit_balances.balance + EXCLUDED.balance
     RETURNING balance`,
    [accountId, amount],
  );
  const balanceAfter = (updated.rows[0] as { balance: number }).balance;
  await appendLedger(tx, accountId, amount, balanceAfter, entry);
  return { applied: true, balanceAfter };
}

/**
 * A movement of nothing, or one whose idempotency key is already in the ledger, is not applied:
 * the answer is the current balance. (A balance of 0 is a valid answer, hence the explicit checks.)
 */
async function movementToSkip(
  tx: Queryable,
  accountId: number,
  amount: number,
  entry: LedgerEntryInput,
): Promise<Movement | null> {
  assertWholeCredits(amount);
  if (amount === 0) return { applied: false, balanceAfter: await getBalance(tx, accountId) };
  if (entry.idempotencyKey === undefined) return null;
  // Keyed movements of one account are serialised until commit, so that two concurrent first
  // requests of a month both see the one grant instead of both inserting it (a unique violation).
  await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('credit-ledger:' || $1::text, 0))`, [accountId]);
  const balance = await findByIdempotencyKey(tx, accountId, entry.idempotencyKey);
  return balance === undefined ? null : { applied: false, balanceAfter: balance };
}

async function appendLedger(
  tx: pg.PoolClient,
  accountId: number,
  amount: number,
  balanceAfter: number,
  entry: LedgerEntryInput,
): Promise<void> {
  await tx.query(
    `INSERT INTO credit_ledger (account_id, amount, balance_after, unit, reason, reference, idempotency_key, operation_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      accountId,
      amount,
      balanceAfter,
      entry.unit,
      entry.reason,
      entry.reference ?? null,
      entry.idempotencyKey ?? null,
      chargingOperation.getStore() ?? null,
    ],
  );
}

async function findByIdempotencyKey(tx: Queryable, accountId: number, key: string): Promise<number | undefined> {
  const existing = await tx.query<{ balance: number }>(
    `SELECT b.balance FROM credit_ledger l JOIN credit_balances b ON b.account_id = l.account_id
      WHERE l.account_id = $1 AND l.idempotency_key = $2`,
    [accountId, key],
  );
  return existing.rows[0]?.balance;
}

function assertWholeCredits(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount < 0)
    throw new Error(`credit amounts are non-negative integers, got ${amount}`);
}

export interface LedgerRow {
  id: number;
  amount: number;
  balanceAfter: number;
  unit: string;
  reason: string;
  reference: string | null;
  createdAt: string;
}

export async function listLedger(db: Queryable, accountId: number, limit = 100): Promise<LedgerRow[]> {
  const result = await db.query<{
    id: number;
    amount: number;
    balance_after: number;
    unit: string;
    reason: string;
    reference: string | null;
    created_at: Date;
  }>(
    `SELECT id, amount, balance_after, unit, reason, reference, created_at FROM credit_ledger
      WHERE account_id = $1 ORDER BY id DESC LIMIT $2`,
    [accountId, limit],
  );
  return result.rows.map((r) => ({
    id: r.id,
    amount: r.amount,
    balanceAfter: r.balance_after,
    unit: r.unit,
    reason: r.reason,
    reference: r.reference,
    createdAt: r.created_at.toISOString(),
  }));
}
