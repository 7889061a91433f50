import { randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import type { Queryable } from './db.js';

/**
 * The process-wide signing secret, from which each use derives a key of its own (search cursors,
 * the MCP gateway's confirmation tokens and request state, the authorization server's cookies
 * and consent forms). Every instance must hold the same secret, or what one signs another would
 * refuse: SIGNING_SECRET when set, otherwise a random secret that the first instance stores in
 * PostgreSQL and all others read. The composition root loads it once (Services.signingKey) and
 * passes it to every use, so a replacement given there (a test's) reaches them all.
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
