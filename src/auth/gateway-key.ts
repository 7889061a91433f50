import { createHmac } from 'node:crypto';
import { displayPrefix, hashApiKey } from './api-keys.js';
import type { Queryable } from '../store/db.js';

/**
 * The credential the MCP gateway uses towards the REST API for an account that reached /mcp/v3
 * with an OAuth token. API keys are stored hashed, so the gateway cannot read a person's key
 * back; and the client's token (or the identity provider's) must never travel upstream. So
 * each account gets one gateway key, derived as HMAC(signing secret, purpose, account id): every
 * instance computes the same key without storing it, and only its hash goes to api_keys (with
 * a label saying what it is), created on first use and never shown. A REST API at BACKEND_URL
 * that shares the database accepts it like any key. Revoking it (`npm run accounts --
 * revoke-key --key <prefix>`) stops /mcp/v3 for that account until it is deleted; it is not
 * re-created while a revoked row exists.
 */
export const gatewayKeyLabel = 'mcp/v3 gateway (derived for OAuth sign-ins; never shown)';

export function deriveGatewayKey(signingKey: Buffer, accountId: number): string {
  const mac = createHmac('sha256', signingKey).update(`mcp gateway key\u0000${accountId}`).digest('base64url');
  return `pds_${mac}`;
}

export class GatewayKeys {
  private readonly known = new Map<number, string>();

  constructor(
    private readonly db: Queryable,
    private readonly signingKey: () => Promise<Buffer>,
  ) {}

  /** The account's gateway key, its hash recorded in api_keys the first time it is needed. */
  async forAccount(accountId: number): Promise<string> {
    const known = this.known.get(accountId);
    if (known) return known;
    const key = deriveGatewayKey(await this.signingKey(), accountId);
    await this.db.query(
      `INSERT INTO api_keys (account_id, key_hash, key_prefix, label) VALUES ($1, $2, $3, $4)
       ON CONFLICT (key_hash) DO NOTHING`,
      [accountId, hashApiKey(key), displayPrefix(key), gatewayKeyLabel],
    );
    this.known.set(accountId, key);
    return key;
  }
}
