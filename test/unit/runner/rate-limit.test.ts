import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { retryAfterOf } from '../../../src/runner/failures.js';
import { decisionOf, rateLimitDetails, rateLimitHeaders } from '../../../src/runner/rate-limit.js';

/** The numbers the rate-limit headers carry, and the Retry-After of every 429. */
describe('rate-limit headers and Retry-After', () => {
  it('writes the policy and the current limit as the draft structures them', () => {
    const decision = decisionOf(true, 42, 60);
    expect(rateLimitHeaders('search', 60, decision)).toEqual({
      'RateLimit-Policy': '"search";q=60;w=60',
      RateLimit: '"search";r=42;t=18',
    });
    expect(rateLimitHeaders('heavy', 30, null)).toEqual({ 'RateLimit-Policy': '"heavy";q=30;w=60' });
    expect(rateLimitDetails('search', decision)).toEqual({
      policy: 'search',
      quota: 60,
      windowSeconds: 60,
      remaining: 42,
      resetSeconds: 18,
    });
  });

  it('says when the bucket is full again, and, with nothing left, when the next token comes', () => {
    // 30 a minute: a token every 2 s.
    expect(decisionOf(true, 29, 30)).toMatchObject({ remaining: 29, resetSeconds: 2, retryAfterSeconds: 0 });
    expect(decisionOf(true, 30, 30)).toMatchObject({ remaining: 30, resetSeconds: 0 });
    expect(decisionOf(true, 0.25, 30)).toMatchObject({ remaining: 0, resetSeconds: 2 });
    const refused = decisionOf(false, 0.75, 30);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 1, retryAfterSeconds: 1 });
    // 300 a minute: a token every 0.2 s, never announced as less than a second.
    expect(decisionOf(false, 0.9, 300)).toMatchObject({ resetSeconds: 1, retryAfterSeconds: 1 });
  });

  it('gives every 429 a Retry-After: its own, the time until it resets, or a minute', () => {
    const now = Date.parse('2026-12-01T23:00:00.000Z');
    const limited = new AppError('rate_limited', 'slow down', { details: { retryAfterSeconds: 7 } });
    expect(retryAfterOf(limited, now)).toBe(7);
    const quota = new AppError('quota_exceeded', 'no more rows this month', {
      details: { resetsAt: '2027-01-01T00:00:00.000Z' },
    });
    expect(retryAfterOf(quota, now)).toBe(30 * 24 * 3600 + 3600);
    expect(retryAfterOf(new AppError('rate_limited', 'too many test deliveries'), now)).toBe(60);
    expect(retryAfterOf(new AppError('key_spend_cap', 'cap reached'), now)).toBe(60);
    expect(retryAfterOf(new AppError('not_found', 'no such thing', { details: { resetsAt: '2027-01-01' } }), now)).toBe(
      null,
    );
  });
});
