import { randomBytes } from 'node:crypto';
import type { UsedConfirmations } from '../../../src/mcp/guards/confirmation.js';
import type { CachedPoll, PollAnswers } from '../../../src/mcp/guards/polling.js';
import type { ResultStore, StoredResult } from '../../../src/mcp/guards/stored-results.js';

/**
 * The gateway's stores as plain maps, for the unit tier: the same interfaces as the PostgreSQL
 * ones (whose SQL the HTTP tier runs), with a clock the test moves.
 */

export class Clock {
  constructor(public ms = Date.parse('2026-11-23T12:00:00.000Z')) {}
  now = (): number => this.ms;
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

export class MemoryUsedConfirmations implements UsedConfirmations {
  readonly used = new Map<string, string>();

  async claim(use: { accountId: number; tokenId: string; operationId: string }): Promise<boolean> {
    const key = `${use.accountId}:${use.tokenId}`;
    if (this.used.has(key)) return false;
    this.used.set(key, use.operationId);
    return true;
  }

  async release(accountId: number, tokenId: string): Promise<void> {
    this.used.delete(`${accountId}:${tokenId}`);
  }
}

export class MemoryPolls implements PollAnswers {
  private readonly answers = new Map<string, { answer: unknown; at: number }>();
  constructor(private readonly clock: Clock) {}

  async fresh(
    accountId: number,
    operationId: string,
    resourceKey: string,
    intervalSeconds: number,
  ): Promise<CachedPoll | null> {
    const found = this.answers.get(`${accountId}|${operationId}|${resourceKey}`);
    if (!found) return null;
    const ageSeconds = (this.clock.now() - found.at) / 1000;
    return ageSeconds < intervalSeconds ? { answer: structuredClone(found.answer), ageSeconds } : null;
  }

  async remember(accountId: number, operationId: string, resourceKey: string, answer: unknown): Promise<void> {
    this.answers.set(`${accountId}|${operationId}|${resourceKey}`, {
      answer: structuredClone(answer),
      at: this.clock.now(),
    });
  }

  async forgetAccount(accountId: number): Promise<void> {
    for (const key of this.answers.keys()) if (key.startsWith(`${accountId}|`)) this.answers.delete(key);
  }
}

export class MemoryResults implements ResultStore {
  readonly results = new Map<string, StoredResult & { accountId: number }>();
  constructor(private readonly clock: Clock) {}

  async store(
    accountId: number,
    operationId: string,
    answer: unknown,
  ): Promise<{ resultId: string; expiresAt: string }> {
    const resultId = `r_${randomBytes(12).toString('base64url')}`;
    const expiresAt = new Date(this.clock.now() + 24 * 3600 * 1000).toISOString();
    this.results.set(resultId, { accountId, resultId, operationId, answer: structuredClone(answer), expiresAt });
    return { resultId, expiresAt };
  }

  async load(accountId: number, resultId: string): Promise<StoredResult | null> {
    const found = this.results.get(resultId);
    if (!found || found.accountId !== accountId || Date.parse(found.expiresAt) <= this.clock.now()) return null;
    const { accountId: _owner, ...result } = found;
    return result;
  }
}
