import { setTimeout as delay } from 'node:timers/promises';
import type { RateLimitClass } from '../../operations/define.js';
import type { Config } from '../config.js';
import { AppError, databaseFailure } from '../errors.js';
import type { Logger } from '../log.js';
import type { Database } from '../store/db.js';
import type { KeptSession } from '../store/session.js';

/**
 * How many requests of one account are served at once. Rate limits count requests per minute;
 * this counts requests in flight, which is what holds database connections: without it, one
 * account's dozen slow searches could take every connection while another account waits.
 */
export interface AccountConcurrencyGate {
  /** Admits one request, or throws rate_limited; the returned function ends it (call it once). */
  enter(accountId: number, rateLimitClass: RateLimitClass): Promise<() => void>;
}

/**
 * The gate the configuration asks for: per process (`memory`), or shared by every instance on
 * the database (`database`, see SharedAccountConcurrency), as ACCOUNT_CONCURRENCY_STORE (by
 * default RATE_LIMIT_STORE) says. An instance cannot see the load balancer in front of it: it is
 * told, by the same setting that shares its rate limits.
 */
export function createAccountConcurrency(config: Config, db: Database, log: Logger): AccountConcurrencyGate {
  const local = new AccountConcurrency(config.ACCOUNT_CONCURRENT_REQUESTS, config.ACCOUNT_CONCURRENT_SEARCHES);
  if (config.accountConcurrencyStore === 'database')
    return new SharedAccountConcurrency(db, local, {
      maxRequests: config.ACCOUNT_CONCURRENT_REQUESTS,
      maxSearches: config.ACCOUNT_CONCURRENT_SEARCHES,
      log,
    });
  return { enter: async (accountId, rateLimitClass) => local.enter(accountId, rateLimitClass) };
}

function refusal(limit: number, what: 'requests' | 'searches', rateLimitClass: RateLimitClass): AppError {
  return new AppError(
    'rate_limited',
    `This account already has ${limit} ${what} running; wait for one to finish, then retry.`,
    { details: { retryAfterSeconds: 1, concurrentLimit: limit, rateLimitClass } },
  );
}

/** One process's count: N instances admit N times as many. */
export class AccountConcurrency {
  private readonly inFlight = new Map<number, { all: number; searches: number }>();

  constructor(
    private readonly maxRequests: number,
    private readonly maxSearches: number,
  ) {}

  /** Admits one request, or throws rate_limited; the returned function ends it (call it once). */
  enter(accountId: number, rateLimitClass: RateLimitClass): () => void {
    const counts = this.inFlight.get(accountId) ?? { all: 0, searches: 0 };
    const isSearch = rateLimitClass === 'search';
    if (isSearch && counts.searches >= this.maxSearches) throw refusal(this.maxSearches, 'searches', rateLimitClass);
    if (counts.all >= this.maxRequests) throw refusal(this.maxRequests, 'requests', rateLimitClass);
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

/** Pauses before a refused take is tried again (a slot given back on another instance may be a statement away). */
const refusalRetriesMs = [20, 60];

/** How long a request waits for the first connection of its slot session before being counted locally. */
const firstConnectionWaitMs = 2_000;

/** The second key of a slot's advisory lock: requests and searches apart. */
const searchSlotBase = 1 << 30;

/** Slots this instance holds, by account: slot number to the session generation it was taken on. */
interface HeldSlots {
  requests: Map<number, number>;
  searches: Map<number, number>;
}

/**
 * The caps held across instances. An account has `maxRequests` request slots and `maxSearches`
 * search slots, each a PostgreSQL session advisory lock (key: the account, the slot); a request
 * takes a free one of each it needs in one statement and gives them back when it ends. The locks
 * live in a few sessions of this instance's own, each account always on the same one (so its
 * give-back and next take run in order): an instance that dies takes its locks with it, so no
 * slot is ever left taken by a request that no longer runs. A session re-entering a lock it holds
 * would succeed, so the statement skips the slots this instance already holds for the account.
 *
 * While the database is away (a failover), or a session is reconnecting, requests are admitted by
 * this instance's own count, so that what can still be served (from replicas, from memory) is;
 * when a session comes back, it starts from what is taken then.
 */
export class SharedAccountConcurrency implements AccountConcurrencyGate {
  private readonly sessions: KeptSession[];
  private readonly held = new Map<number, HeldSlots>();
  private readonly turns: Array<Promise<unknown>> = [];
  /** Each session's first connection attempt, until it has settled: an instance just started is not yet 'away'. */
  private readonly firstAttempts: Array<Promise<void> | null>;

  constructor(
    db: Database,
    private readonly local: AccountConcurrency,
    private readonly options: { maxRequests: number; maxSearches: number; log: Logger; sessions?: number },
  ) {
    const count = options.sessions ?? 2;
    this.sessions = Array.from({ length: count }, (_, index) =>
      db.keepSession({
        name: `concurrency slots ${index + 1}`,
        log: options.log,
        // The locks went with the connection: forget the slots taken on it.
        onLost: () => {
          for (const accountId of [...this.held.keys()])
            if (this.sessionIndexOf(accountId) === index) this.held.delete(accountId);
        },
      }),
    );
    this.firstAttempts = this.sessions.map((session, index) =>
      session.start().finally(() => {
        this.firstAttempts[index] = null;
      }),
    );
  }

  async enter(accountId: number, rateLimitClass: RateLimitClass): Promise<() => void> {
    const index = this.sessionIndexOf(accountId);
    for (let attempt = 0; ; attempt += 1) {
      // One take at a time per session: each must see the slots the one before it recorded.
      const turn = (this.turns[index] ?? Promise.resolve()).then(() => this.take(index, accountId, rateLimitClass));
      this.turns[index] = turn.catch(() => undefined);
      try {
        return await turn;
      } catch (error) {
        // A request that has just been answered gives its slot back a statement later, on its own instance's session,
        // while its client may already be sending the next: a refusal is asked again twice, briefly, out of turn.
        if (!(error instanceof AppError) || error.code !== 'rate_limited' || attempt >= refusalRetriesMs.length)
          throw error;
        await delay(refusalRetriesMs[attempt]);
      }
    }
  }

  private async take(index: number, accountId: number, rateLimitClass: RateLimitClass): Promise<() => void> {
    const session = this.sessions[index] as KeptSession;
    // A request that arrives while the first connection is still being made would otherwise be counted by this
    // instance alone, unseen by the others; the wait is bounded so that a database that is away is not waited for.
    const firstAttempt = this.firstAttempts[index];
    if (firstAttempt && !session.connected) await Promise.race([firstAttempt, delay(firstConnectionWaitMs)]);
    if (!session.connected) return this.local.enter(accountId, rateLimitClass);
    const isSearch = rateLimitClass === 'search';
    const mine = this.held.get(accountId) ?? {
      requests: new Map<number, number>(),
      searches: new Map<number, number>(),
    };
    const key = lockKeyOf(accountId);
    let taken: { rows: Array<{ request_slot: number | null; search_slot: number | null }>; generation: number };
    try {
      // CASE fixes the order: a slot this instance holds is never tried (a re-entered lock would succeed).
      taken = await session.query(
        `WITH r AS MATERIALIZED (
           SELECT s FROM generate_series(0, $2::int - 1) AS s
            WHERE CASE WHEN s = ANY($3::int[]) THEN false ELSE pg_try_advisory_lock($1::int, s) END
            LIMIT 1),
         q AS MATERIALIZED (
           SELECT s FROM generate_series(0, $4::int - 1) AS s
            WHERE CASE WHEN NOT EXISTS (SELECT 1 FROM r) OR s = ANY($5::int[]) THEN false
                       ELSE pg_try_advisory_lock($1::int, ${searchSlotBase} + s) END
            LIMIT 1)
         SELECT (SELECT s FROM r) AS request_slot, (SELECT s FROM q) AS search_slot`,
        [
          key,
          this.options.maxRequests,
          [...mine.requests.keys()],
          isSearch ? this.options.maxSearches : 0,
          [...mine.searches.keys()],
        ],
      );
    } catch (error) {
      if (databaseFailure(error)?.code !== 'unavailable') throw error;
      return this.local.enter(accountId, rateLimitClass);
    }
    const { generation } = taken;
    const requestSlot = taken.rows[0]?.request_slot ?? null;
    const searchSlot = taken.rows[0]?.search_slot ?? null;
    if (requestSlot === null) throw refusal(this.options.maxRequests, 'requests', rateLimitClass);
    if (isSearch && searchSlot === null) {
      this.giveBack(session, generation, key, [requestSlot]);
      throw refusal(this.options.maxSearches, 'searches', rateLimitClass);
    }
    // Recorded before anything else can run: a later enter of this account skips these slots.
    const held = this.held.get(accountId) ?? mine;
    this.held.set(accountId, held);
    held.requests.set(requestSlot, generation);
    if (searchSlot !== null) held.searches.set(searchSlot, generation);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const current = this.held.get(accountId);
      // Taken on a connection since lost: the lock went with it, and the slot may be another request's now.
      if (!current || session.generation !== generation) return;
      current.requests.delete(requestSlot);
      const keys = [requestSlot];
      if (searchSlot !== null) {
        current.searches.delete(searchSlot);
        keys.push(searchSlotBase + searchSlot);
      }
      if (current.requests.size === 0 && current.searches.size === 0) this.held.delete(accountId);
      this.giveBack(session, generation, key, keys);
    };
  }

  private sessionIndexOf(accountId: number): number {
    return accountId % this.sessions.length;
  }

  /** Unlocks on the session that locked; queued on its connection before any later take of the account. */
  private giveBack(session: KeptSession, generation: number, key: number, keys: number[]): void {
    if (session.generation !== generation) return;
    session
      .query('SELECT pg_advisory_unlock($1::int, k) FROM unnest($2::int[]) AS k', [key, keys])
      .catch((error: unknown) =>
        this.options.log.warn({ err: error }, 'concurrency slot not given back; its session will be'),
      );
  }
}

/** The advisory lock's first key: the account (ids past 2^31 fold, sharing slots with another account in a rare case). */
function lockKeyOf(accountId: number): number {
  return accountId % 2_147_483_647;
}
