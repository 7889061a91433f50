import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Queryable } from '../store/db.js';
import { oidcProvider } from './oidc-library.js';

/**
 * oidc-provider's storage interface on PostgreSQL: one row per model instance in oauth_models,
 * so that every instance sees the same clients, grants, sessions, interactions, codes and
 * tokens. The payload is stored as the library gives it; grant, uid, account and client are
 * copied into columns for the lookups the library (and the accounts CLI) make.
 */

/** A NUL, or half of a surrogate pair: characters PostgreSQL cannot store in text or jsonb. */
const unpairedSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const unstorable = { test: (text: string) => text.includes('\u0000') || unpairedSurrogate.test(text) };

function holdsUnstorable(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return unstorable.test(value);
  if (depth > 32 || typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some((item) => holdsUnstorable(item, depth + 1));
  return Object.entries(value).some(([key, item]) => unstorable.test(key) || holdsUnstorable(item, depth + 1));
}

/**
 * A value from a request that PostgreSQL cannot take (a NUL in a client_id, a state, a token, a
 * registration field) is the request's fault: refused as the provider refuses a bad parameter,
 * 400 invalid_request, before it reaches the database (where it would be a 500).
 */
async function refuseUnstorable(value: unknown): Promise<void> {
  if (!holdsUnstorable(value)) return;
  const { errors } = await oidcProvider();
  throw new errors.InvalidRequest('a parameter contains a NUL character or an unpaired surrogate');
}

/**
 * How often each process sweeps expired rows, on its next write. Interactions and upstream logins
 * (what an anonymous sign-in start writes) go as soon as they expire; other models a day after
 * (consumed codes and rotated refresh tokens must outlive their use for reuse detection).
 */
const sweepEveryMs = 60 * 1000;

/** Deletes the sign-in rows that have expired, and the other models a day after they expired. */
export async function sweepExpiredOAuthRows(db: Queryable): Promise<number> {
  const models = await db.query(
    `DELETE FROM oauth_models
      WHERE expires_at < now() - CASE WHEN kind LIKE '%Interaction' THEN interval '0' ELSE interval '1 day' END`,
  );
  const logins = await db.query(`DELETE FROM oauth_upstream_logins WHERE expires_at < now()`);
  return (models.rowCount ?? 0) + (logins.rowCount ?? 0);
}

export class PostgresAdapter implements Adapter {
  private static lastSweep = 0;

  constructor(
    private readonly db: Queryable,
    private readonly kind: string,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    await refuseUnstorable([id, payload]);
    await this.db.query(
      `INSERT INTO oauth_models (kind, id, payload, grant_id, uid, user_code, account_id, client_id, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, CASE WHEN $9::int IS NULL THEN NULL ELSE now() + make_interval(secs => $9::int) END)
       ON CONFLICT (kind, id) DO UPDATE SET
         payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, uid = EXCLUDED.uid, user_code = EXCLUDED.user_code,
         account_id = EXCLUDED.account_id, client_id = EXCLUDED.client_id, expires_at = EXCLUDED.expires_at`,
      [
        this.kind,
        id,
        JSON.stringify(payload),
        payload.grantId ?? null,
        payload.uid ?? null,
        payload.userCode ?? null,
        payload.accountId ?? null,
        payload.clientId ?? (this.kind === 'Client' ? payload.client_id : null) ?? null,
        typeof expiresIn === 'number' ? Math.ceil(expiresIn) : null,
      ],
    );
    this.sweepNowAndThen();
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.one('id = $2', id);
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.one('uid = $2', uid);
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.one('user_code = $2', userCode);
  }

  async consume(id: string): Promise<void> {
    await refuseUnstorable(id);
    await this.db.query('UPDATE oauth_models SET consumed_at = now() WHERE kind = $1 AND id = $2', [this.kind, id]);
  }

  async destroy(id: string): Promise<void> {
    await refuseUnstorable(id);
    await this.db.query('DELETE FROM oauth_models WHERE kind = $1 AND id = $2', [this.kind, id]);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await refuseUnstorable(grantId);
    // The library calls this once per model that may hold tokens of the grant.
    await this.db.query(`DELETE FROM oauth_models WHERE kind = $1 AND grant_id = $2`, [this.kind, grantId]);
  }

  private async one(condition: string, value: string): Promise<AdapterPayload | undefined> {
    await refuseUnstorable(value);
    const result = await this.db.query<{ payload: AdapterPayload; consumed: number | null }>(
      `SELECT payload, extract(epoch FROM consumed_at)::bigint AS consumed
         FROM oauth_models
        WHERE kind = $1 AND ${condition} AND (expires_at IS NULL OR expires_at > now())`,
      [this.kind, value],
    );
    const row = result.rows[0];
    if (!row) return undefined;
    return row.consumed === null ? row.payload : { ...row.payload, consumed: Number(row.consumed) };
  }

  private sweepNowAndThen(): void {
    const now = Date.now();
    if (now - PostgresAdapter.lastSweep < sweepEveryMs) return;
    PostgresAdapter.lastSweep = now;
    sweepExpiredOAuthRows(this.db).catch(() => undefined);
  }
}

/** `namespace` keeps another provider's models (the development identity provider) apart from ours. */
export function postgresAdapterFactory(db: Queryable, namespace = ''): (kind: string) => Adapter {
  return (kind) => new PostgresAdapter(db, `${namespace}${kind}`);
}
