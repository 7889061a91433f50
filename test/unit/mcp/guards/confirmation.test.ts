import { describe, expect, it } from 'vitest';
import {
  ConfirmationTokens,
  confirmationTtlSeconds,
  type UsedConfirmations,
} from '../../../../src/mcp/guards/confirmation.js';

/** The record of redeemed tokens in memory: the same contract as the PostgreSQL table (the first claim wins). */
class UsedInMemory implements UsedConfirmations {
  readonly used = new Set<string>();
  async claim(use: { accountId: number; tokenId: string }): Promise<boolean> {
    const key = `${use.accountId}/${use.tokenId}`;
    if (this.used.has(key)) return false;
    this.used.add(key);
    return true;
  }
  async release(accountId: number, tokenId: string): Promise<void> {
    this.used.delete(`${accountId}/${tokenId}`);
  }
}

const claims = { accountId: 7, operationId: 'triggerEnrichment', payloadHash: 'hash-1', credits: 120 };
const call = { accountId: 7, operationId: 'triggerEnrichment', payloadHash: 'hash-1' };

function tokens(now = () => Date.UTC(2026, 0, 1), key = Buffer.alloc(32, 1)) {
  const used = new UsedInMemory();
  return { used, tokens: new ConfirmationTokens(used, async () => key, now) };
}

describe('confirmation tokens', () => {
  it('confirm the exact call they were minted for, once, with the credits shown', async () => {
    const { tokens: confirmations } = tokens();
    const { token } = await confirmations.mint(claims);
    const first = await confirmations.redeem(token, call);
    expect(first).toEqual({ ok: true, tokenId: expect.any(String), credits: 120 });
    expect(await confirmations.redeem(token, call)).toEqual({ ok: false, reason: 'used' });
  });

  it('expire after their time to live, and say when', async () => {
    let now = Date.UTC(2026, 0, 1);
    const { tokens: confirmations } = tokens(() => now);
    const { token, expiresAt } = await confirmations.mint(claims);
    expect(Date.parse(expiresAt) - now).toBe(confirmationTtlSeconds * 1000);
    now += confirmationTtlSeconds * 1000;
    expect(await confirmations.redeem(token, call)).toEqual({ ok: false, reason: 'expired' });
  });

  it.each([
    ['another account', { ...call, accountId: 8 }],
    ['another operation', { ...call, operationId: 'createAudience' }],
    ['another payload', { ...call, payloadHash: 'hash-2' }],
  ])('refuse %s as a mismatch, without using the token up', async (_what, other) => {
    const { tokens: confirmations } = tokens();
    const { token } = await confirmations.mint(claims);
    expect(await confirmations.redeem(token, other)).toEqual({ ok: false, reason: 'mismatch' });
    expect((await confirmations.redeem(token, call)).ok).toBe(true);
  });

  it.each(['', 'ct1', 'ct1.a', 'ct2.a.b', 'ct1.a.b.c', 'not a token at all'])(
    'refuse %j as malformed',
    async (token) => {
      expect(await tokens().tokens.redeem(token, call)).toEqual({ ok: false, reason: 'malformed' });
    },
  );

  it('refuse a token signed with another key, or with its claims edited', async () => {
    const minted = (await tokens(undefined, Buffer.alloc(32, 2)).tokens.mint(claims)).token;
    expect(await tokens().tokens.redeem(minted, call)).toEqual({ ok: false, reason: 'malformed' });
    const { tokens: confirmations } = tokens();
    const [prefix, body, mac] = (await confirmations.mint(claims)).token.split('.') as [string, string, string];
    const edited = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), credits: 1 }),
    ).toString('base64url');
    expect(await confirmations.redeem(`${prefix}.${edited}.${mac}`, call)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('confirm again once released, after the call they confirmed was refused', async () => {
    const { tokens: confirmations } = tokens();
    const { token } = await confirmations.mint(claims);
    const first = await confirmations.redeem(token, call);
    if (!first.ok) throw new Error('not redeemed');
    await confirmations.release(7, first.tokenId);
    expect((await confirmations.redeem(token, call)).ok).toBe(true);
  });

  it('are each a token of their own, even for the same call', async () => {
    const { tokens: confirmations } = tokens();
    const a = await confirmations.mint(claims);
    const b = await confirmations.mint(claims);
    expect(a.token).not.toBe(b.token);
    expect((await confirmations.redeem(a.token, call)).ok).toBe(true);
    expect((await confirmations.redeem(b.token, call)).ok).toBe(true);
  });

  it('let an answer given through elicitation confirm one call only', async () => {
    const { tokens: confirmations } = tokens();
    const target = { accountId: 7, operationId: 'triggerEnrichment' };
    expect(await confirmations.claimAnswer('nonce-1', target)).toEqual({ ok: true, tokenId: 'answer:nonce-1' });
    expect(await confirmations.claimAnswer('nonce-1', target)).toEqual({ ok: false });
    expect((await confirmations.claimAnswer('nonce-2', target)).ok).toBe(true);
  });
});
