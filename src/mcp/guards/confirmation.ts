import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../../store/db.js';

/**
 * Confirmation tokens for clients that cannot be asked through elicitation. A token is
 * HMAC-signed (so any instance can check it without a lookup) and bound to the account, the
 * operation and the exact payload; it is single-use, which the record of redeemed tokens
 * (UsedConfirmations) enforces.
 */

export const confirmationTtlSeconds = 15 * 60;

export interface ConfirmationClaims {
  accountId: number;
  operationId: string;
  payloadHash: string;
  /** The credits the user was shown. */
  credits: number;
}

interface SignedClaims extends ConfirmationClaims {
  tokenId: string;
  expiresAt: number;
}

export type RedeemResult =
  { ok: true; tokenId: string; credits: number } | { ok: false; reason: 'malformed' | 'mismatch' | 'expired' | 'used' };

/** The record of redeemed tokens: what makes a token single-use. */
export interface UsedConfirmations {
  /** Records the token as used; false when it already was. */
  claim(use: { accountId: number; tokenId: string; operationId: string; expiresAt: number }): Promise<boolean>;
  /** Forgets a use, so the token confirms its call again. */
  release(accountId: number, tokenId: string): Promise<void>;
}

/** Redeemed tokens in PostgreSQL, so that single use holds across instances: the first INSERT wins. */
export class PostgresUsedConfirmations implements UsedConfirmations {
  constructor(private readonly db: Queryable) {}

  async claim(use: { accountId: number; tokenId: string; operationId: string; expiresAt: number }): Promise<boolean> {
    const inserted = await this.db.query(
      `INSERT INTO mcp_used_confirmations (account_id, token_id, operation_id, expires_at)
       VALUES ($1, $2, $3, to_timestamp($4)) ON CONFLICT DO NOTHING`,
      [use.accountId, use.tokenId, use.operationId, use.expiresAt],
    );
    if (Math.random() < 0.02) void this.purgeExpired().catch(() => undefined);
    return inserted.rowCount === 1;
  }

  async release(accountId: number, tokenId: string): Promise<void> {
    await this.db.query('DELETE FROM mcp_used_confirmations WHERE account_id = $1 AND token_id = $2', [
      accountId,
      tokenId,
    ]);
  }

  async purgeExpired(): Promise<void> {
    await this.db.query('DELETE FROM mcp_used_confirmations WHERE expires_at < now()');
  }
}

export class ConfirmationTokens {
  constructor(
    private readonly used: UsedConfirmations,
    private readonly key: () => Promise<Buffer>,
    private readonly now: () => number = Date.now,
  ) {}

  async mint(claims: ConfirmationClaims): Promise<{ token: string; expiresAt: string }> {
    const expiresAt = Math.floor(this.now() / 1000) + confirmationTtlSeconds;
    const signed: SignedClaims = { ...claims, tokenId: randomBytes(12).toString('base64url'), expiresAt };
    const body = Buffer.from(JSON.stringify(signed)).toString('base64url');
    const mac = createHmac('sha256', await this.key())
      .update(`confirm.${body}`)
      .digest('base64url');
    return { token: `ct1.${body}.${mac}`, expiresAt: new Date(expiresAt * 1000).toISOString() };
  }

  /** Checks the token against this exact call and marks it used; a second redemption fails. */
  async redeem(token: string, call: Omit<ConfirmationClaims, 'credits'>): Promise<RedeemResult> {
    const claims = await this.verify(token);
    if (!claims) return { ok: false, reason: 'malformed' };
    if (
      claims.accountId !== call.accountId ||
      claims.operationId !== call.operationId ||
      claims.payloadHash !== call.payloadHash
    ) {
      return { ok: false, reason: 'mismatch' };
    }
    if (claims.expiresAt * 1000 <= this.now()) return { ok: false, reason: 'expired' };
    const first = await this.used.claim({
      accountId: claims.accountId,
      tokenId: claims.tokenId,
      operationId: claims.operationId,
      expiresAt: claims.expiresAt,
    });
    if (!first) return { ok: false, reason: 'used' };
    return { ok: true, tokenId: claims.tokenId, credits: claims.credits };
  }

  /**
   * Marks an answer given through elicitation as used (its signed state carries `nonce`), so that
   * the state, valid 15 minutes, confirms one call as a token does; a second use fails.
   */
  async claimAnswer(
    nonce: string,
    call: { accountId: number; operationId: string },
  ): Promise<{ ok: true; tokenId: string } | { ok: false }> {
    const tokenId = `answer:${nonce}`;
    const first = await this.used.claim({
      accountId: call.accountId,
      tokenId,
      operationId: call.operationId,
      expiresAt: Math.floor(this.now() / 1000) + confirmationTtlSeconds,
    });
    return first ? { ok: true, tokenId } : { ok: false };
  }

  /**
   * Gives a redeemed token back when the call it confirmed was refused by the REST API
   * (which then charged nothing), so the user's confirmation is not lost to, say, a 429.
   */
  async release(accountId: number, tokenId: string): Promise<void> {
    await this.used.release(accountId, tokenId);
  }

  private async verify(token: string): Promise<SignedClaims | null> {
    const parts = token.split('.');
    if (parts.length !== 3 || parts[0] !== 'ct1') return null;
    const [, body, mac] = parts as [string, string, string];
    const expected = createHmac('sha256', await this.key())
      .update(`confirm.${body}`)
      .digest();
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as SignedClaims;
      if (
        typeof claims.accountId !== 'number' ||
        typeof claims.tokenId !== 'string' ||
        typeof claims.expiresAt !== 'number'
      )
        return null;
      return claims;
    } catch {
      return null;
    }
  }
}
