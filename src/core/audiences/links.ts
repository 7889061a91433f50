import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../../store/db.js';

/**
 * Signed, expiring download links. The signature is an HMAC-SHA256 over the account, the
 * export and the expiry, so changing any of them (or the signature) is detected; the key is
 * SIGNING_SECRET when set, otherwise a random key created once and kept in the database, so
 * links survive restarts and work on every instance.
 */
export class LinkSigner {
  constructor(private readonly key: Buffer) {}

  signature(accountId: number, exportId: number, expiresUnix: number): string {
    return createHmac('sha256', this.key)
      .update(`export-download:${accountId}:${exportId}:${expiresUnix}`)
      .digest('base64url');
  }

  downloadUrl(publicUrl: string, accountId: number, exportId: number, expiresAt: Date): string {
    const expires = Math.floor(expiresAt.getTime() / 1000);
    const query = new URLSearchParams({
      account: String(accountId),
      expires: String(expires),
      signature: this.signature(accountId, exportId, expires),
    });
    return `${publicUrl}/downloads/exports/${exportId}?${query.toString()}`;
  }

  /** 'valid', 'expired' or 'invalid' (tampered or malformed); expiry is only reported for a genuine link. */
  verify(
    accountId: number,
    exportId: number,
    expiresUnix: number,
    signature: string,
    now = Date.now(),
  ): 'valid' | 'expired' | 'invalid' {
    const expected = Buffer.from(this.signature(accountId, exportId, expiresUnix));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
    return expiresUnix * 1000 < now ? 'expired' : 'valid';
  }
}

const secretName = 'export-links';

export async function loadLinkSigner(db: Queryable, configuredSecret: string | undefined): Promise<LinkSigner> {
  if (configuredSecret) {
    // Derived per purpose, so the same SIGNING_SECRET can serve other signers without sharing a key.
    return new LinkSigner(createHash('sha256').update(`${secretName}\0${configuredSecret}`).digest());
  }
  await db.query('INSERT INTO service_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    secretName,
    randomBytes(32),
  ]);
  const stored = await db.query<{ value: Buffer }>('SELECT value FROM service_secrets WHERE name = $1', [secretName]);
  return new LinkSigner((stored.rows[0] as { value: Buffer }).value);
}
