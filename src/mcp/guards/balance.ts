/**
 * Credit balances as the gateway last read them, per account, for BALANCE_CACHE_SECONDS.
 * This cache only spares the REST API a balance read per call: it is per instance on purpose,
 * because the REST API's own charge is the authority (it refuses with 402 whatever this cache
 * says), so a stale value can at worst let a doomed call through to that refusal.
 */
export class BalanceCache {
  private readonly entries = new Map<number, { balance: number; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  async get(accountId: number, read: () => Promise<number | null>): Promise<number | null> {
    const cached = this.entries.get(accountId);
    if (cached && cached.expiresAt > this.now()) return cached.balance;
    const balance = await read();
    if (balance !== null) this.remember(accountId, balance);
    return balance;
  }

  peek(accountId: number): number | null {
    const cached = this.entries.get(accountId);
    return cached && cached.expiresAt > this.now() ? cached.balance : null;
  }

  /** After a charge: the next call sees the lower balance without another read. */
  charged(accountId: number, credits: number): number | null {
    const cached = this.entries.get(accountId);
    if (!cached || cached.expiresAt <= this.now()) return null;
    cached.balance = Math.max(0, cached.balance - credits);
    return cached.balance;
  }

  forget(accountId: number): void {
    this.entries.delete(accountId);
  }

  private remember(accountId: number, balance: number): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(accountId, { balance, expiresAt: this.now() + this.ttlMs });
  }
}
