import { z } from 'zod';
import { positiveInt, nonNegativeInt, booleanFlag } from './types.js';

/**
 * Accounts: what one may take (concurrency caps, rate limits) and what one is given (demo data, credits).
 * src/config.ts spreads these shapes into its one schema, in its order: the order of the rows of docs/configuration.md
 * and of the messages of a bad start. Each variable says what it does in `.describe()`; the page is generated from it.
 */

/** Requests of one account served at once. */
export const accountConcurrencyShape = {
  ACCOUNT_CONCURRENT_REQUESTS: positiveInt
    .default(8)
    .describe(
      'Requests of one account (all its keys together) served at once, by one process or by all instances together (`ACCOUNT_CONCURRENCY_STORE`); more are answered 429 with `Retry-After: 1`.',
    ),
  ACCOUNT_CONCURRENT_SEARCHES: positiveInt
    .default(2)
    .describe('Of those requests, searches (the search rate-limit class) served at once.'),
  ACCOUNT_CONCURRENCY_STORE: z
    .enum(['memory', 'database'])
    .optional()
    .describe(
      'Where the two caps above are counted. `memory`: each process counts the requests it serves (N instances admit N times the caps); `database`: they hold across every instance on the database (session advisory locks, two statements a request). Unset: as `RATE_LIMIT_STORE`.',
    ),
};

/** The demo dataset and account, and the monthly grant of free plans. */
export const demoShape = {
  SEED_ON_EMPTY: booleanFlag.default(true).describe('Seed the demo dataset when the catalog is empty.'),
  SEED_COMPANIES: nonNegativeInt.default(20_000).describe('Companies in the demo dataset.'),
  SEED_PEOPLE: nonNegativeInt.default(200_000).describe('People in the demo dataset.'),
  SEED: z.coerce
    .number()
    .int()
    .default(42)
    .describe('Seed of the demo dataset: the same seed gives the same data everywhere.'),
  DEMO_API_KEY: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe("The demo account's key. Unset: a random key, printed at start and kept in `DATA_DIR/demo-api-key`."),
  DEMO_CREDITS: nonNegativeInt.default(100_000).describe("The demo account's credits when it is created."),
  FREE_PLAN_MONTHLY_CREDITS: nonNegativeInt
    .default(500)
    .describe(
      'Credits granted to free-plan accounts on their first request of each calendar month (UTC); unused ones carry over.',
    ),
};

/** Requests per minute of each rate-limit class. */
export const rateLimitShape = {
  RATE_LIMIT_SEARCH_PER_MINUTE: positiveInt
    .default(120)
    .describe(
      'Requests per minute per account (all its keys together) of the search class: company and people search.',
    ),
  RATE_LIMIT_STANDARD_PER_MINUTE: positiveInt
    .default(300)
    .describe('Requests per minute per account of the standard class: creation, filters, enums, lists.'),
  RATE_LIMIT_STATUS_PER_MINUTE: positiveInt
    .default(120)
    .describe('Requests per minute per account of the status class: status polls, balance.'),
  RATE_LIMIT_HEAVY_PER_MINUTE: positiveInt
    .default(30)
    .describe(
      'Requests per minute per account of the heavy class: builds, enrichment, exports, live fetches, reveals, batches.',
    ),
  RATE_LIMIT_STORE: z
    .enum(['memory', 'database'])
    .default('memory')
    .describe(
      '`memory`: each process counts for itself; `database`: every instance draws on the same token buckets in PostgreSQL, at one statement per request (each instance counts for itself while the database is unreachable). Set `database` when several instances serve one database behind a load balancer: an instance does not detect one. The concurrency caps follow this setting unless `ACCOUNT_CONCURRENCY_STORE` is set.',
    ),
};
