import { describe, expect, it } from 'vitest';
import { findOperation, operations } from '../../../operations/index.js';
import { estimatorOf } from '../../../src/mcp/gateway.js';
import { BalanceCache } from '../../../src/mcp/guards/balance.js';
import { ConfirmationTokens } from '../../../src/mcp/guards/confirmation.js';
import { payloadHash } from '../../../src/mcp/guards/payload-hash.js';
import { estimateTokens, largestArrayField, sliceToBudget } from '../../../src/mcp/guards/response-size.js';
import { operationError } from '../../../src/mcp/messages.js';
import { outcomeOfAnswer, type OperationOutcome } from '../../../src/runner/run-operation.js';
import { canAskByForm } from '../../../src/mcp/server.js';
import { Clock, MemoryUsedConfirmations } from './stores.js';

/** The guards one at a time, with their dependencies passed in. */

describe('confirmation tokens', () => {
  const claims = { accountId: 3, operationId: 'companySearch', payloadHash: 'h1', credits: 600 };
  const make = () => {
    const clock = new Clock();
    const used = new MemoryUsedConfirmations();
    return { clock, used, tokens: new ConfirmationTokens(used, async () => Buffer.alloc(32, 1), clock.now) };
  };

  it('redeems a token once, for exactly the call it was minted for', async () => {
    const { tokens } = make();
    const { token, expiresAt } = await tokens.mint(claims);
    expect(Date.parse(expiresAt) - new Clock().now()).toBe(15 * 60 * 1000);
    expect(await tokens.redeem(token, { ...claims, payloadHash: 'h2' })).toEqual({ ok: false, reason: 'mismatch' });
    expect(await tokens.redeem(token, { ...claims, operationId: 'peopleSearch' })).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    expect(await tokens.redeem(token, { ...claims, accountId: 4 })).toEqual({ ok: false, reason: 'mismatch' });
    const redeemed = await tokens.redeem(token, claims);
    expect(redeemed).toMatchObject({ ok: true, credits: 600 });
    expect(await tokens.redeem(token, claims)).toEqual({ ok: false, reason: 'used' });
  });

  it('takes a released token again, and refuses one past its 15 minutes', async () => {
    const { clock, tokens } = make();
    const { token } = await tokens.mint(claims);
    const redeemed = await tokens.redeem(token, claims);
    if (!redeemed.ok) throw new Error('not redeemed');
    await tokens.release(claims.accountId, redeemed.tokenId);
    expect((await tokens.redeem(token, claims)).ok).toBe(true);
    const late = await tokens.mint(claims);
    clock.advance(15 * 60);
    expect(await tokens.redeem(late.token, claims)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses a token whose claims were edited, or that another key signed', async () => {
    const { tokens } = make();
    const { token } = await tokens.mint(claims);
    const [prefix, body, mac] = token.split('.') as [string, string, string];
    const edited = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), credits: 1 }),
    ).toString('base64url');
    expect(await tokens.redeem(`${prefix}.${edited}.${mac}`, claims)).toEqual({ ok: false, reason: 'malformed' });
    const otherKey = new ConfirmationTokens(new MemoryUsedConfirmations(), async () => Buffer.alloc(32, 2));
    expect(await otherKey.redeem(token, claims)).toEqual({ ok: false, reason: 'malformed' });
    expect(await tokens.redeem('ct1.not-a-token', claims)).toEqual({ ok: false, reason: 'malformed' });
  });
});

describe('the balance cache', () => {
  it('reads once per interval, lowers the balance after a charge, and forgets it after the interval', async () => {
    const clock = new Clock();
    const cache = new BalanceCache(5_000, 100, clock.now);
    let reads = 0;
    const read = async () => {
      reads += 1;
      return 100;
    };
    expect(await cache.get(1, read)).toBe(100);
    expect(await cache.get(1, read)).toBe(100);
    expect(reads).toBe(1);
    expect(cache.charged(1, 30)).toBe(70);
    expect(cache.peek(1)).toBe(70);
    expect(cache.charged(1, 500)).toBe(0);
    clock.advance(5);
    expect(cache.peek(1)).toBeNull();
    expect(await cache.get(1, read)).toBe(100);
    expect(reads).toBe(2);
  });

  it('keeps nothing when reading failed, and nothing with a zero interval', async () => {
    const cache = new BalanceCache(0);
    expect(await cache.get(1, async () => 5)).toBe(5);
    expect(cache.peek(1)).toBeNull();
    const failing = new BalanceCache(5_000);
    expect(await failing.get(1, async () => null)).toBeNull();
    expect(failing.peek(1)).toBeNull();
  });
});

describe('the response budget', () => {
  const answer = (records: number, size: number) => ({
    output: {
      data: Array.from({ length: records }, (_, i) => ({ id: i, text: 'y'.repeat(size) })),
      small: [1],
      nextCursor: 'c',
    },
    chargeInfo: { method: 'charged-now', creditsCharged: records },
  });

  it('finds the list that holds most of the answer', () => {
    expect(largestArrayField(answer(3, 50).output)).toBe('data');
    expect(largestArrayField({ a: [], b: 'text' })).toBeNull();
    expect(largestArrayField([1, 2])).toBeNull();
  });

  it('cuts on whole records, inside the budget, and always advances by at least one', () => {
    const whole = answer(50, 200);
    const slice = sliceToBudget(whole, 'data', 0, 1_000);
    expect(slice.shown).toBeGreaterThan(0);
    expect(JSON.stringify(slice.answer).length + 1_500).toBeLessThanOrEqual(1_000 * 4);
    expect(slice.nextOffset).toBe(slice.shown);
    expect((slice.answer.output as { data: unknown[] }).data).toEqual(whole.output.data.slice(0, slice.shown));
    // One record larger than the whole budget is still shown, alone.
    const huge = sliceToBudget(answer(3, 10_000), 'data', 1, 100);
    expect(huge).toMatchObject({ offset: 1, shown: 1, nextOffset: 2, total: 3 });
    const end = sliceToBudget(whole, 'data', 49, 1_000);
    expect(end).toMatchObject({ shown: 1, nextOffset: null });
    expect(estimateTokens('12345678')).toBe(2);
  });
});

describe('what the gateway decides from the registry', () => {
  it('hashes a payload the same whatever its key order, and differently for another operation', () => {
    expect(payloadHash('companySearch', { a: 1, b: { c: [1, 2], d: null } })).toBe(
      payloadHash('companySearch', { b: { d: null, c: [1, 2] }, a: 1 }),
    );
    expect(payloadHash('companySearch', { a: 1 })).not.toBe(payloadHash('peopleSearch', { a: 1 }));
    expect(payloadHash('companySearch', { a: [1, 2] })).not.toBe(payloadHash('companySearch', { a: [2, 1] }));
  });

  it('prices triggerEnrichment with estimateEnrichmentCost, and nothing else with an estimator', () => {
    expect(estimatorOf(findOperation('triggerEnrichment')!)?.operationId).toBe('estimateEnrichmentCost');
    const priced = operations
      .filter((operation) => estimatorOf(operation) !== null)
      .map((operation) => operation.operationId);
    expect(priced).toEqual(['triggerEnrichment']);
  });

  it('says when to retry a rate-limited call, and what to do after each REST refusal', () => {
    const search = findOperation('companySearch')!;
    const errorOf = (outcome: OperationOutcome) => {
      if (outcome.ok) throw new Error('expected a refusal');
      return outcome.error;
    };
    // As a REST API at BACKEND_URL answers: over HTTP, mapped to the value an in-process run gives.
    const limited = errorOf(outcomeOfAnswer(429, { error: { code: 'rate_limited', message: 'Slow down.' } }, null, 12));
    const refused = operationError(search, limited).structuredContent as { error: Record<string, unknown> };
    expect(refused.error).toMatchObject({ status: 429, code: 'rate_limited', retryAfterSeconds: 12 });
    expect(refused.error.nextStep).toContain('retry after 12 s');
    const proxyPage = errorOf(outcomeOfAnswer(503, '<html>busy</html>', null, null));
    const unavailable = operationError(search, proxyPage).structuredContent as { error: Record<string, unknown> };
    expect(unavailable.error).toMatchObject({ code: 'upstream_unavailable' });
    expect(unavailable.error.message).toContain('<html>busy</html>');
  });

  it('asks by form only a client that declared form elicitation (or elicitation without a mode)', () => {
    expect(canAskByForm({ elicitation: {} })).toBe(true);
    expect(canAskByForm({ elicitation: { form: {} } })).toBe(true);
    expect(canAskByForm({ elicitation: { url: {} } })).toBe(false);
    expect(canAskByForm({})).toBe(false);
    expect(canAskByForm(undefined)).toBe(false);
  });
});
