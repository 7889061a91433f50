import { createHmac, generateKeyPairSync, randomUUID, type JsonWebKey } from 'node:crypto';
import type { Queryable } from '../store/db.js';

/**
 * The authorization server's keys, the same on every instance: the JSON Web Key Set that signs
 * ID tokens is generated once by whichever instance needs it first and kept in PostgreSQL (as
 * SIGNING_SECRET's fallback is); the cookie keys are derived from the signing secret, so they
 * change when it does.
 */
export interface SigningJwks {
  keys: JsonWebKey[];
}

export async function loadJwks(db: Queryable, name = 'jwks'): Promise<SigningJwks> {
  const existing = await db.query<{ value: SigningJwks }>('SELECT value FROM oauth_keys WHERE name = $1', [name]);
  if (existing.rows[0]) return existing.rows[0].value;
  const generated = { keys: [generateSigningJwk()] };
  await db.query('INSERT INTO oauth_keys (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name,
    JSON.stringify(generated),
  ]);
  // Another instance may have won the race: everyone uses the stored set.
  const stored = await db.query<{ value: SigningJwks }>('SELECT value FROM oauth_keys WHERE name = $1', [name]);
  const value = stored.rows[0]?.value;
  if (!value) throw new Error(`oauth_keys has no ${name} after insert`);
  return value;
}

export function generateSigningJwk(): JsonWebKey {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' };
}

export function cookieKeys(signingKey: Buffer): string[] {
  return [createHmac('sha256', signingKey).update('oauth cookie key').digest('base64url')];
}

/** A key for one purpose, so that no signature made for one use passes for another. */
export function purposeKey(signingKey: Buffer, purpose: string): Buffer {
  return createHmac('sha256', signingKey).update(purpose).digest();
}
