import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Queryable } from '../../store/db.js';

/**
 * The HMAC key that signs confirmation tokens and elicitation state. Every instance must hold
 * the same key, or a token minted by one would be refused by another: SIGNING_SECRET when set,
 * otherwise a random key that the first instance stores in PostgreSQL and all others read.
 */
export async function loadSigningKey(db: Queryable, config: Pick<Config, 'SIGNING_SECRET'>): Promise<Buffer> {
  if (config.SIGNING_SECRET) return Buffer.from(config.SIGNING_SECRET, 'utf8');
  await db.query(`INSERT INTO mcp_signing_keys (name, secret) VALUES ('mcp', $1) ON CONFLICT (name) DO NOTHING`, [
    randomBytes(32),
  ]);
  const result = await db.query<{ secret: Buffer }>(`SELECT secret FROM mcp_signing_keys WHERE name = 'mcp'`);
  const secret = result.rows[0]?.secret;
  if (!secret) throw new Error('mcp_signing_keys has no key after insert');
  return secret;
}
