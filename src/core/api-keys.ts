import { createHash, randomBytes } from 'node:crypto';
import type { AnyOperation } from '../../operations/define.js';
import { AppError } from '../errors.js';
import type { Database, Queryable } from '../store/db.js';
import { capResetsAt, spentToday } from './credits.js';
import type { KeyGrant } from './principal.js';

/**
 * API keys are 256-bit random secrets, so a single SHA-256 is enough to store them safely
 * (no dictionary to attack); only the hash and a short display prefix are kept.
 */
const keyPrefix = 'pds_';

export function generateApiKey(): string {
  return keyPrefix + randomBytes(32).toString('base64url');
}

export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** What is shown in listings: enough to tell keys apart, never enough to use one. */
export function displayPrefix(key: string): string {
  return key.slice(0, keyPrefix.length + 6);
}

/**
 * The label of the keys earlier versions derived for each /mcp/v3 sign-in, as the MCP gateway's
 * credential towards REST. None is made any more (the gateway runs operations in process) and
 * migration 095 revoked them; past charges and requests still name them, as a connected assistant.
 */
export const gatewayKeyLabel = 'mcp/v3 gateway (derived for OAuth sign-ins; never shown)';

/**
 * API keys as an account manages them: issued with a name and optional restrictions, listed,
 * revoked. The operator's CLI, the demo account and the dashboard all issue keys here. A key is
 * stored as its hash and a display prefix; the key itself is returned once, at issue.
 *
 * Restrictions go beyond the vendor's plain keys: a read-only key runs only operations that are
 * free and change nothing; a key with a daily credit cap may spend at most that many credits a
 * UTC day (held where the charge is written: core/credits.ts) and cannot start work that is
 * charged later, whose cost lands outside any request it could be held to.
 */

export interface KeyOptions {
  name?: string | null;
  /** The account member who created it (null: an operator, the demo start). */
  createdBy?: number | null;
  readOnly?: boolean;
  dailyCreditCap?: number | null;
  /** When it stops working (null: never). */
  expiresAt?: Date | null;
}

export interface IssuedKey {
  keyId: number;
  apiKey: string;
  prefix: string;
}

export const maxKeyNameLength = 100;
export const maxDailyCreditCap = 1_000_000_000;

/** Inserts a key inside the caller's transaction (account creation uses it too). */
export async function insertApiKey(
  tx: Queryable,
  accountId: number,
  apiKey: string,
  options: KeyOptions = {},
): Promise<IssuedKey> {
  const prefix = displayPrefix(apiKey);
  const inserted = await tx.query<{ id: number }>(
    `INSERT INTO api_keys (account_id, key_hash, key_prefix, label, created_by_member, read_only, daily_credit_cap, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [
      accountId,
      hashApiKey(apiKey),
      prefix,
      options.name ?? null,
      options.createdBy ?? null,
      options.readOnly ?? false,
      options.dailyCreditCap ?? null,
      options.expiresAt ?? null,
    ],
  );
  return { keyId: Number(inserted.rows[0]?.id), apiKey, prefix };
}

/** Issues a new key for the account, refusing a name or cap out of range (400, naming the field). */
export async function createApiKey(db: Database, accountId: number, options: KeyOptions = {}): Promise<IssuedKey> {
  const name = options.name?.trim() || null;
  const issues: { field: string; message: string }[] = [];
  if (name !== null && name.length > maxKeyNameLength)
    issues.push({ field: 'name', message: `at most ${maxKeyNameLength} characters` });
  const cap = options.dailyCreditCap ?? null;
  if (cap !== null && (!Number.isSafeInteger(cap) || cap < 1 || cap > maxDailyCreditCap))
    issues.push({ field: 'dailyCreditCap', message: `a whole number of credits from 1 to ${maxDailyCreditCap}` });
  if (issues.length)
    throw new AppError('invalid_request', `Invalid key: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}`, {
      details: { issues },
    });
  const account = await db.pool.query('SELECT 1 FROM accounts WHERE id = $1', [accountId]);
  if (!account.rowCount) throw new AppError('not_found', `Account ${accountId} not found.`);
  return insertApiKey(db.pool, accountId, generateApiKey(), { ...options, name, dailyCreditCap: cap });
}

export interface ApiKeyListing {
  keyId: number;
  name: string | null;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** When it stops or stopped working (an expiry, or the end of a rotation's overlap); null: never. */
  expiresAt: string | null;
  /** Whether it is past its expiry now (refused, as a revoked key is). */
  expired: boolean;
  /** The key a rotation issued in its place. */
  replacedByKeyId: number | null;
  createdBy: { memberId: number; name: string | null; email: string } | null;
  readOnly: boolean;
  dailyCreditCap: number | null;
  spentToday: number;
}

/** The account's keys, newest first; `excludeNames` leaves out keys no person made or uses (the gateway's). */
export async function listApiKeys(
  db: Queryable,
  accountId: number,
  options: { excludeNames?: readonly string[]; includeRevoked?: boolean; keyId?: number } = {},
): Promise<ApiKeyListing[]> {
  const result = await db.query<{
    id: number;
    label: string | null;
    key_prefix: string;
    created_at: Date;
    last_used_at: Date | null;
    revoked_at: Date | null;
    expires_at: Date | null;
    expired: boolean;
    replaced_by_key: number | null;
    created_by_member: number | null;
    member_name: string | null;
    member_email: string | null;
    read_only: boolean;
    daily_credit_cap: number | null;
    spent: number | null;
  }>(
    `SELECT k.id, k.label, k.key_prefix, k.created_at, k.last_used_at, k.revoked_at, k.created_by_member,
            k.expires_at, coalesce(k.expires_at <= now(), false) AS expired, k.replaced_by_key,
            m.name AS member_name, m.email AS member_email, k.read_only, k.daily_credit_cap, s.spent
       FROM api_keys k
       LEFT JOIN account_members m ON m.account_id = k.account_id AND m.id = k.created_by_member
       LEFT JOIN api_key_daily_spend s ON s.account_id = k.account_id AND s.key_id = k.id
                                      AND s.day = (now() AT TIME ZONE 'UTC')::date
      WHERE k.account_id = $1 AND (k.label IS NULL OR NOT (k.label = ANY($2::text[])))
        AND ($3::boolean OR (k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())))
        AND ($4::bigint IS NULL OR k.id = $4)
      ORDER BY k.revoked_at IS NOT NULL OR coalesce(k.expires_at <= now(), false), k.id DESC`,
    [accountId, options.excludeNames ?? [], options.includeRevoked ?? true, options.keyId ?? null],
  );
  return result.rows.map((r) => ({
    keyId: Number(r.id),
    name: r.label,
    prefix: r.key_prefix,
    createdAt: r.created_at.toISOString(),
    lastUsedAt: r.last_used_at?.toISOString() ?? null,
    revokedAt: r.revoked_at?.toISOString() ?? null,
    expiresAt: r.expires_at?.toISOString() ?? null,
    expired: r.expired,
    replacedByKeyId: r.replaced_by_key === null ? null : Number(r.replaced_by_key),
    createdBy:
      r.created_by_member !== null && r.member_email !== null
        ? { memberId: Number(r.created_by_member), name: r.member_name, email: r.member_email }
        : null,
    readOnly: r.read_only,
    dailyCreditCap: r.daily_credit_cap,
    spentToday: r.spent ?? 0,
  }));
}

/** Who is revoking: an owner may revoke any key of the account, a member only the keys they created. */
export interface KeyActor {
  memberId: number;
  role: 'owner' | 'member';
}

/**
 * Revokes one key of the account. Another account's key, or one a member may not revoke, is
 * not found (404). Returns the key's hash, so that the caller can drop it from its caches at
 * once; other instances stop accepting it within their cache's lifetime.
 */
export async function revokeApiKeyById(
  db: Queryable,
  accountId: number,
  keyId: number,
  actor: KeyActor,
): Promise<{ keyHash: Buffer; alreadyRevoked: boolean }> {
  const found = await db.query<{ key_hash: Buffer; revoked_at: Date | null }>(
    `UPDATE api_keys SET revoked_at = coalesce(revoked_at, now())
      WHERE account_id = $1 AND id = $2 AND ($3::text = 'owner' OR created_by_member = $4)
      RETURNING key_hash, (SELECT revoked_at FROM api_keys WHERE account_id = $1 AND id = $2) AS revoked_at`,
    [accountId, keyId, actor.role, actor.memberId],
  );
  const row = found.rows[0];
  if (!row) throw new AppError('not_found', `API key ${keyId} not found.`);
  return { keyHash: row.key_hash, alreadyRevoked: row.revoked_at !== null };
}

export const maxRotationOverlapHours = 72;

/** What can be changed of a key after it is issued; a field left out is kept. */
export interface KeyChanges {
  name?: string;
  /** null: no cap. */
  dailyCreditCap?: number | null;
  /** null: it never expires. */
  expiresAt?: Date | null;
}

function invalidKeyChange(field: string, message: string): AppError {
  return new AppError('invalid_request', `Invalid key change: ${field}: ${message}. Nothing was changed.`, {
    details: { issues: [{ field, message }] },
  });
}

function checkKeyChanges(changes: KeyChanges, now: Date): KeyChanges {
  const checked: KeyChanges = {};
  if (changes.name !== undefined) {
    const name = changes.name.trim();
    if (!name) throw invalidKeyChange('name', 'required, so that the key can be told apart');
    if (name.length > maxKeyNameLength) throw invalidKeyChange('name', `at most ${maxKeyNameLength} characters`);
    checked.name = name;
  }
  if (changes.dailyCreditCap !== undefined) {
    const cap = changes.dailyCreditCap;
    if (cap !== null && (!Number.isSafeInteger(cap) || cap < 1 || cap > maxDailyCreditCap))
      throw invalidKeyChange('dailyCreditCap', `a whole number of credits from 1 to ${maxDailyCreditCap}, or none`);
    checked.dailyCreditCap = cap;
  }
  if (changes.expiresAt !== undefined) {
    const at = changes.expiresAt;
    if (at !== null && (Number.isNaN(at.getTime()) || at.getTime() <= now.getTime()))
      throw invalidKeyChange('expiresAt', 'a time in the future, or none');
    checked.expiresAt = at;
  }
  return checked;
}

/**
 * Renames a key, changes or removes its daily cap, sets or clears its expiry. The same people may
 * change a key as may revoke it (KeyActor); another account's key, or one they may not change, is
 * not found (404); a key that no longer works cannot be changed. Returns the key's hash, so that
 * the caller drops the cached grant (which carries the name and the cap) at once.
 */
export async function updateApiKey(
  db: Queryable,
  accountId: number,
  keyId: number,
  actor: KeyActor,
  changes: KeyChanges,
): Promise<{ keyHash: Buffer }> {
  const checked = checkKeyChanges(changes, new Date());
  const found = await db.query<{ key_hash: Buffer; working: boolean }>(
    `SELECT key_hash, revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now()) AS working
       FROM api_keys WHERE account_id = $1 AND id = $2 AND ($3::text = 'owner' OR created_by_member = $4)`,
    [accountId, keyId, actor.role, actor.memberId],
  );
  const row = found.rows[0];
  if (!row) throw new AppError('not_found', `API key ${keyId} not found.`);
  if (!row.working)
    throw new AppError('invalid_state', `API key ${keyId} was revoked or has expired: it can no longer be changed.`);
  await db.query(
    `UPDATE api_keys
        SET label = CASE WHEN $3 THEN $4 ELSE label END,
            daily_credit_cap = CASE WHEN $5 THEN $6::bigint ELSE daily_credit_cap END,
            expires_at = CASE WHEN $7 THEN $8::timestamptz ELSE expires_at END
      WHERE account_id = $1 AND id = $2`,
    [
      accountId,
      keyId,
      checked.name !== undefined,
      checked.name ?? null,
      checked.dailyCreditCap !== undefined,
      checked.dailyCreditCap ?? null,
      checked.expiresAt !== undefined,
      checked.expiresAt ?? null,
    ],
  );
  return { keyHash: row.key_hash };
}

/**
 * Rotates a key: issues a new one with the same name and restrictions (returned once), and lets
 * the old one work `overlapHours` more (0: it stops now), so that the new key can be rolled out
 * before the old one is refused. The overlap is the old key's expiry, never later than an expiry
 * it had. Who may rotate, and what is not found, as for updateApiKey.
 */
export async function rotateApiKey(
  db: Database,
  accountId: number,
  keyId: number,
  actor: KeyActor,
  overlapHours: number,
): Promise<IssuedKey & { oldKeyHash: Buffer; oldKeyWorksUntil: string }> {
  if (!Number.isInteger(overlapHours) || overlapHours < 0 || overlapHours > maxRotationOverlapHours)
    throw invalidKeyChange('overlapHours', `a whole number of hours from 0 to ${maxRotationOverlapHours}`);
  return db.transaction(async (tx) => {
    const found = await tx.query<{
      key_hash: Buffer;
      label: string | null;
      read_only: boolean;
      daily_credit_cap: number | null;
      expires_at: Date | null;
      working: boolean;
      replaced_by_key: number | null;
    }>(
      `SELECT key_hash, label, read_only, daily_credit_cap, expires_at, replaced_by_key,
              revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now()) AS working
         FROM api_keys WHERE account_id = $1 AND id = $2 AND ($3::text = 'owner' OR created_by_member = $4)
          FOR UPDATE`,
      [accountId, keyId, actor.role, actor.memberId],
    );
    const old = found.rows[0];
    if (!old) throw new AppError('not_found', `API key ${keyId} not found.`);
    if (!old.working)
      throw new AppError('invalid_state', `API key ${keyId} was revoked or has expired: it can no longer be rotated.`);
    if (old.replaced_by_key !== null)
      throw new AppError(
        'invalid_state',
        `API key ${keyId} was rotated already, to key ${old.replaced_by_key}: rotate that one instead.`,
      );
    const issued = await insertApiKey(tx, accountId, generateApiKey(), {
      name: old.label,
      createdBy: actor.memberId || null,
      readOnly: old.read_only,
      dailyCreditCap: old.daily_credit_cap,
      expiresAt: old.expires_at,
    });
    const updated = await tx.query<{ expires_at: Date }>(
      `UPDATE api_keys
          SET expires_at = least(coalesce(expires_at, 'infinity'), now() + make_interval(hours => $3)),
              replaced_by_key = $4
        WHERE account_id = $1 AND id = $2 RETURNING expires_at`,
      [accountId, keyId, overlapHours, issued.keyId],
    );
    return {
      ...issued,
      oldKeyHash: old.key_hash,
      oldKeyWorksUntil: (updated.rows[0]?.expires_at ?? new Date()).toISOString(),
    };
  });
}

/**
 * Refuses an operation the key may not run: anything that charges or changes something for a
 * read-only key (403 key_read_only), and work charged later for a key with a daily cap (429
 * key_spend_cap), whose cost is not known at the call and lands outside it, unless that work is
 * charged to the key as it runs (heldToCreatingKey).
 */
export function assertKeyMayRun(key: KeyGrant | null | undefined, operation: AnyOperation): void {
  if (!key) return;
  if (key.readOnly && (operation.credits.charged !== 'free' || !operation.readOnly)) {
    throw new AppError(
      'key_read_only',
      `This API key is read-only: it runs only operations that are free and change nothing, and ${operation.operationId} ` +
        `${operation.credits.charged === 'free' ? 'changes data' : 'charges credits'}. Nothing was done. Use a key without this restriction.`,
      { details: { operationId: operation.operationId, readOnly: true } },
    );
  }
  if (key.dailyCreditCap !== null && operation.credits.charged === 'later' && !operation.credits.heldToCreatingKey) {
    const resetsAt = capResetsAt();
    throw new AppError(
      'key_spend_cap',
      `This API key has a daily cap of ${key.dailyCreditCap} credits, and ${operation.operationId} starts work that is charged ` +
        'later, when the cap cannot hold it. Nothing was done. Use a key without a daily cap for it, or remove the cap on the ' +
        "dashboard's API keys page (/dashboard/keys, then Change).",
      {
        details: {
          dailyCreditCap: key.dailyCreditCap,
          operationId: operation.operationId,
          chargedLater: true,
          resetsAt: resetsAt.toISOString(),
          retryAfterSeconds: Math.max(1, Math.ceil((resetsAt.getTime() - Date.now()) / 1000)),
        },
      },
    );
  }
}

export interface KeyStanding {
  name: string | null;
  readOnly: boolean;
  dailyCreditCap: number | null;
  spentToday: number;
  remainingToday: number | null;
  capResetsAt: string;
}

/** What GET /v1/credits tells about the key it was called with. */
export async function keyStanding(db: Queryable, accountId: number, key: KeyGrant): Promise<KeyStanding> {
  const spent = await spentToday(db, accountId, key.id);
  return {
    name: key.name,
    readOnly: key.readOnly,
    dailyCreditCap: key.dailyCreditCap,
    spentToday: spent,
    remainingToday: key.dailyCreditCap === null ? null : Math.max(0, key.dailyCreditCap - spent),
    capResetsAt: capResetsAt().toISOString(),
  };
}
