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

export interface Principal {
  accountId: number;
  accountName: string;
  plan: string;
  email: string | null;
}
