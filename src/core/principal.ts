import { createHash, randomBytes } from 'node:crypto';

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

/** The API key a request came with, and what it may do. */
export interface KeyGrant {
  id: number;
  name: string | null;
  /** Only operations that are free and change nothing. */
  readOnly: boolean;
  /** Most credits the key may spend per UTC day; null: no cap. */
  dailyCreditCap: number | null;
}

/** Who a call runs for: the account, and the credential that proved it (a key, or an OAuth grant). */
export interface Principal {
  accountId: number;
  accountName: string;
  plan: string;
  email: string | null;
  /** The key the caller authenticated with; absent when it signed in otherwise. */
  key?: KeyGrant | null;
  /** The OAuth grant of /mcp/v3 the caller signed in with (its client and the scopes its token carries); absent for a key. */
  oauth?: OAuthGrant | null;
}

export interface OAuthGrant {
  clientId: string;
  scopes: readonly string[];
}
