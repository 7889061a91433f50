import type { RateLimitClass } from '../../operations/define.js';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';

/**
 * How many requests of one account this process serves at once. Rate limits count requests per
 * minute; this counts requests in flight, which is what holds database connections: without it,
 * one account's dozen slow searches could take every connection while another account waits.
 * Per process, like the memory rate-limit store: N instances admit N times as many.
 */
export class AccountConcurrency {
  private readonly inFlight = new Map<number, { all: number; searches: number }>();

  constructor(
    private readonly maxRequests: number,
    private readonly maxSearches: number,
  ) {}

  static fromConfig(config: Config): AccountConcurrency {
    return new AccountConcurrency(config.ACCOUNT_CONCURRENT_REQUESTS, config.ACCOUNT_CONCURRENT_SEARCHES);
  }

  /** Admits one request, or throws rate_limited; the returned function ends it (call it once). */
  enter(accountId: number, rateLimitClass: RateLimitClass): () => void {
    const counts = this.inFlight.get(accountId) ?? { all: 0, searches: 0 };
    const isSearch = rateLimitClass === 'search';
    const limit =
      isSearch && counts.searches >= this.maxSearches
        ? this.maxSearches
        : counts.all >= this.maxRequests
          ? this.maxRequests
          : null;
    if (limit !== null) {
      throw new AppError(
        'rate_limited',
        `This account already has ${limit} ${isSearch && limit === this.maxSearches ? 'searches' : 'requests'} running; wait for one to finish, then retry.`,
        { details: { retryAfterSeconds: 1, concurrentLimit: limit, rateLimitClass } },
      );
    }
    counts.all += 1;
    if (isSearch) counts.searches += 1;
    this.inFlight.set(accountId, counts);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      counts.all -= 1;
      if (isSearch) counts.searches -= 1;
      if (counts.all === 0) this.inFlight.delete(accountId);
    };
  }
}
