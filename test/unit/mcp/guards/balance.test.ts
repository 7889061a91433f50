import { describe, expect, it } from 'vitest';
import { BalanceCache } from '../../../../src/mcp/guards/balance.js';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('the balance cache', () => {
  it('reads once, then answers from memory until the entry expires', async () => {
    const time = clock();
    const cache = new BalanceCache(5_000, 100, time.now);
    let reads = 0;
    const read = async () => ((reads += 1), 700);
    expect(await cache.get(1, read)).toBe(700);
    expect(await cache.get(1, read)).toBe(700);
    expect(reads).toBe(1);
    time.advance(5_000);
    expect(cache.peek(1)).toBeNull();
    expect(await cache.get(1, read)).toBe(700);
    expect(reads).toBe(2);
  });

  it('keeps accounts apart', async () => {
    const cache = new BalanceCache(5_000);
    await cache.get(1, async () => 10);
    expect(await cache.get(2, async () => 20)).toBe(20);
    expect(cache.peek(1)).toBe(10);
  });

  it('remembers nothing when the read finds no account', async () => {
    const cache = new BalanceCache(5_000);
    expect(await cache.get(3, async () => null)).toBeNull();
    expect(cache.peek(3)).toBeNull();
  });

  it('lowers a cached balance after a charge, never below zero, and knows nothing of an uncached one', async () => {
    const cache = new BalanceCache(5_000);
    await cache.get(1, async () => 50);
    expect(cache.charged(1, 20)).toBe(30);
    expect(cache.peek(1)).toBe(30);
    expect(cache.charged(1, 100)).toBe(0);
    expect(cache.charged(2, 5)).toBeNull();
  });

  it('knows nothing of a charge after the entry expired', async () => {
    const time = clock();
    const cache = new BalanceCache(1_000, 100, time.now);
    await cache.get(1, async () => 50);
    time.advance(1_000);
    expect(cache.charged(1, 10)).toBeNull();
  });

  it('forgets an account on demand', async () => {
    const cache = new BalanceCache(5_000);
    await cache.get(1, async () => 50);
    cache.forget(1);
    expect(cache.peek(1)).toBeNull();
  });

  it('caches nothing with a time to live of zero', async () => {
    const cache = new BalanceCache(0);
    let reads = 0;
    await cache.get(1, async () => ((reads += 1), 5));
    await cache.get(1, async () => ((reads += 1), 5));
    expect(reads).toBe(2);
  });

  it('starts again empty rather than grow past its size', async () => {
    const cache = new BalanceCache(5_000, 2);
    await cache.get(1, async () => 1);
    await cache.get(2, async () => 2);
    await cache.get(3, async () => 3);
    expect(cache.peek(3)).toBe(3);
    expect(cache.peek(1)).toBeNull();
    expect(cache.peek(2)).toBeNull();
  });
});
