import path from 'node:path';
import { z } from 'zod';
import type { RateLimitClass } from '../operations/define.js';

/**
 * Every setting of the service, read from the environment in this one place.
 * A bad value stops the start with a message naming the variable.
 */
const positiveInt = z.coerce.number().int().positive();
const nonNegativeInt = z.coerce.number().int().nonnegative();
const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const commaList = z.string().transform((s) =>
  s
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean),
);
const loopbackHostnames = new Set(['localhost', '127.0.0.1', '[::1]']);
/** An https URL, or http on a loopback host (development and tests). */
const secureUrl = z.url().refine((value) => {
  const url = new URL(value);
  return url.protocol === 'https:' || (url.protocol === 'http:' && loopbackHostnames.has(url.hostname));
}, 'must be an https:// URL (http:// only on localhost, 127.0.0.1 or [::1])');
/** Browser origins: scheme, host and port, no path. */
const originList = commaList.pipe(
  z.array(
    z.string().refine((value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value.replace(/\/$/, '');
      } catch {
        return false;
      }
    }, 'must be origins such as https://app.example.com (scheme, host and port; no path)'),
  ),
);

/** `name=value,...` for the embedded server; not the settings it needs to stay reachable only by the service. */
const fixedEmbeddedSettings = [
  'listen_addresses',
  'port',
  'unix_socket_directories',
  'password_encryption',
  'hba_file',
  'ident_file',
  'config_file',
  'data_directory',
];
const embeddedSettingsList = z.string().transform((text, ctx) => {
  const settings: Record<string, string> = {};
  for (const item of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const match = /^([a-z_][a-z0-9_.]*)\s*=\s*(\S(?:.*\S)?)$/i.exec(item);
    if (!match) {
      ctx.addIssue({
        code: 'custom',
        message: `"${item}" is not name=value (for example shared_buffers=2GB,work_mem=32MB)`,
      });
      return z.NEVER;
    }
    const name = (match[1] as string).toLowerCase();
    if (fixedEmbeddedSettings.includes(name)) {
      ctx.addIssue({ code: 'custom', message: `${name} is set by the service itself and cannot be changed here` });
      return z.NEVER;
    }
    settings[name] = match[2] as string;
  }
  return settings;
});

const environmentSchema = z
  .object({
    /** production: settings meant only for development and tests (a built-in identity provider, loopback OAuth clients) are refused. */
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().default('127.0.0.1'),
    PORT: nonNegativeInt.max(65535).default(3000),
    PUBLIC_URL: z.url().optional(),
    DATA_DIR: z.string().default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
    DATABASE_POOL_SIZE: positiveInt.default(10),
    /** The memory the embedded server's settings are sized for (shared_buffers a quarter, ...); unset: the machine's. */
    EMBEDDED_PG_MEMORY_MB: positiveInt.min(256).optional(),
    /** Settings of the embedded server that replace the computed ones or add to them: name=value,name=value. */
    EMBEDDED_PG_SETTINGS: embeddedSettingsList.optional(),
    /** Connections kept apart for request searches, so a flood of searches cannot take the ones charges, jobs and /healthz use. */
    DATABASE_CATALOG_POOL_SIZE: positiveInt.default(6),
    /** Longest a request's search statement may run; one that runs longer is cancelled and answered 503, charging nothing. */
    SEARCH_STATEMENT_TIMEOUT_MS: positiveInt.default(5_000),
    /** Longest a count (companyCount, peopleCount) may count exactly before it answers the planner's estimate instead. */
    COUNT_EXACT_BUDGET_MS: positiveInt.default(30),
    /** A search with more substring terms than this (titles, schools, locations, name) is costly: it reads every candidate row once per term. */
    COSTLY_SEARCH_SUBSTRINGS: nonNegativeInt.default(10),
    /** Costly searches run at once by one process, from all accounts together; more wait for a slot (up to DATABASE_CONNECTION_TIMEOUT_MS). */
    COSTLY_SEARCHES_AT_ONCE: positiveInt.default(1),
    /** Longest any other statement of the service may run (jobs included); migrations, seeds and imports have no limit. */
    DATABASE_STATEMENT_TIMEOUT_MS: positiveInt.default(60_000),
    /** Longest a request waits for a free database connection before it is answered 503 with Retry-After. */
    DATABASE_CONNECTION_TIMEOUT_MS: positiveInt.default(10_000),
    /** PostgreSQL streaming replicas (comma list of postgres:// URLs) that serve catalog reads: searches without exclusion lists. */
    DATABASE_REPLICA_URLS: z
      .string()
      .transform((s) =>
        s
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().regex(/^postgres(ql)?:\/\//, 'each must be a postgres:// or postgresql:// URL')))
      .optional(),
    /** A replica further behind the primary than this is left out until it catches up. */
    DATABASE_REPLICA_MAX_LAG_MS: positiveInt.default(2_000),
    /** How often each replica's health and lag are checked. */
    DATABASE_REPLICA_CHECK_MS: positiveInt.default(1_000),
    /** Requests of one account served at once by one process (all its keys together); more are answered 429. */
    ACCOUNT_CONCURRENT_REQUESTS: positiveInt.default(8),
    /** Of those, searches (the search rate-limit class) at once. */
    ACCOUNT_CONCURRENT_SEARCHES: positiveInt.default(2),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Longest a client may take to send a request's headers, counted from its first byte (or from the connection, for a new one): slow-header clients are cut off. */
    HTTP_HEADERS_TIMEOUT_MS: positiveInt.default(20_000),
    /** Longest a client may take to send a whole request, body included: slow-body clients are cut off. */
    HTTP_REQUEST_TIMEOUT_MS: positiveInt.default(60_000),
    /** How long an idle keep-alive connection is kept between requests (a little longer than common proxies and client pools). */
    HTTP_KEEP_ALIVE_TIMEOUT_MS: positiveInt.default(65_000),

    SEED_ON_EMPTY: booleanFlag.default(true),
    SEED_COMPANIES: nonNegativeInt.default(20_000),
    SEED_PEOPLE: nonNegativeInt.default(200_000),
    SEED: z.coerce.number().int().default(42),
    DEMO_API_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
    DEMO_CREDITS: nonNegativeInt.default(100_000),
    FREE_PLAN_MONTHLY_CREDITS: nonNegativeInt.default(500),

    RATE_LIMIT_SEARCH_PER_MINUTE: positiveInt.default(120),
    RATE_LIMIT_STANDARD_PER_MINUTE: positiveInt.default(300),
    RATE_LIMIT_STATUS_PER_MINUTE: positiveInt.default(120),
    RATE_LIMIT_HEAVY_PER_MINUTE: positiveInt.default(30),
    /** memory: each process keeps its own buckets; database: all instances share them in PostgreSQL (one statement per request). */
    RATE_LIMIT_STORE: z.enum(['memory', 'database']).default('memory'),
    /** Set: Prometheus metrics at /metrics, for a scraper that sends this as a bearer token. Unset: no metrics. */
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),

    BACKEND_URL: z.url().optional(),
    CONFIRM_ABOVE_CREDITS: nonNegativeInt.default(500),
    LOW_BALANCE_WARNING_CREDITS: nonNegativeInt.default(1000),
    MCP_RESPONSE_TOKEN_BUDGET: positiveInt.default(20_000),
    BALANCE_CACHE_SECONDS: nonNegativeInt.default(5),
    /** Answer the common MCP tool calls without the SDK's per-request server (src/mcp/fast-path.ts); false sends every MCP request through the SDK. */
    MCP_DIRECT_PATH: booleanFlag.default(true),
    ALLOWED_HOSTS: commaList.optional(),
    ALLOWED_ORIGINS: commaList.optional(),
    SIGNING_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    /** Browser origins allowed to call the MCP surfaces cross-origin (CORS); loopback origins are allowed too outside production. */
    CORS_ORIGINS: originList.optional(),
    /** Behind a TLS-terminating proxy: trust X-Forwarded-Proto and X-Forwarded-For at the authorization server (never X-Forwarded-Host). */
    TRUST_PROXY: booleanFlag.default(false),

    /** The external OpenID provider where people sign in for /mcp/v3 (discovery from its issuer URL). */
    OIDC_ISSUER: secureUrl.optional(),
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    /** Unset: this service is a public client of the provider (PKCE only). */
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    OIDC_SCOPES: z
      .string()
      .regex(/(^|\s)openid(\s|$)/, 'must include openid')
      .default('openid email profile'),
    /** Development only: a built-in OpenID provider at /dev-idp with one demo person mapped to the demo account. */
    OIDC_DEV_PROVIDER: booleanFlag.default(false),
    /** How long a verified /mcp/v3 access token is trusted without asking the database again (revocation takes effect within this). */
    OAUTH_TOKEN_CACHE_SECONDS: nonNegativeInt.max(60).default(5),
    /** Dynamic client registrations accepted per client IP address and hour. */
    OAUTH_REGISTRATIONS_PER_HOUR: positiveInt.default(20),
    /** Development and tests only: client ID metadata documents may be fetched from loopback addresses (still https). */
    OAUTH_CIMD_ALLOW_LOOPBACK: booleanFlag.default(false),
    /** A PEM file of extra certificate authorities trusted when fetching client ID metadata documents (a development certificate). */
    OAUTH_CIMD_CA_FILE: z.string().min(1).optional(),

    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
    MAIL_FROM: z.string().default('Prospecting Data Service <no-reply@prospecting.local>'),
    /** true: notifications may go to any address a caller gives; false: only to the account's own addresses. */
    MAIL_ANY_RECIPIENT: booleanFlag.default(false),
    EXPORT_DIR: z.string().optional(),
    EXPORT_QUOTA_ROWS_PER_MONTH: positiveInt.default(100_000),
    EXPORT_LINK_TTL_SECONDS: positiveInt.default(7 * 24 * 3600),
    JOB_POLL_INTERVAL_MS: positiveInt.default(250),
    JOB_WORKER: booleanFlag.default(true),
    /** Jobs run at once by one process's worker. */
    JOB_CONCURRENCY: positiveInt.max(32).default(2),
    /** Jobs of one account running at once across all instances; unset: JOB_CONCURRENCY - 1 (at least 1), so one account never holds every worker. */
    JOB_MAX_RUNNING_PER_ACCOUNT: positiveInt.optional(),
    /** A claimed job whose worker stops renewing this lease (process killed) is claimed again after it runs out. */
    JOB_LEASE_SECONDS: positiveInt.default(30),
    /** First retry delay of a failed job attempt; doubles per attempt, capped at 10 minutes. */
    JOB_RETRY_BASE_MS: positiveInt.default(5_000),
    /** Export files are deleted this many days after they were written (their export then says EXPIRED). */
    EXPORT_RETENTION_DAYS: positiveInt.default(30),
    /** Finished job rows (succeeded or failed) are deleted this many days after they finished. */
    JOB_RETENTION_DAYS: positiveInt.default(30),
    /** How often one instance sweeps for expired exports, finished jobs and expired MCP results. */
    RETENTION_SWEEP_MINUTES: positiveInt.default(60),
    /** For tests and demos only: a pause at each step (and between batches) of a build or enrichment, and between the pages of an export, so a job can be watched or killed mid-way. */
    JOB_STEP_DELAY_MS: nonNegativeInt.default(0),

    /** Live professional-network source over HTTP; unset: the simulated source over the stored catalog. */
    NETWORK_SOURCE_URL: z.url().optional(),
    NETWORK_SOURCE_API_KEY: z.string().optional(),
    NETWORK_SOURCE_TIMEOUT_MS: positiveInt.default(8_000),
    /** Simulated source only: share of live fetches that fail (0 to 1), and the delay of each fetch. */
    NETWORK_SOURCE_FAILURE_RATE: z.coerce.number().min(0).max(1).default(0),
    NETWORK_SOURCE_LATENCY_MS: nonNegativeInt.default(0),
    /** A contact-data vendor over HTTP, asked after the dataset and before the email-pattern guesser. */
    CONTACT_PROVIDER_URL: z.url().optional(),
    CONTACT_PROVIDER_API_KEY: z.string().optional(),
    CONTACT_PROVIDER_TIMEOUT_MS: positiveInt.default(8_000),
    /** `embedded`: deterministic syntax and reserved-name rules; `dns`: real MX lookups. */
    CONTACT_EMAIL_VALIDATION: z.enum(['embedded', 'dns']).default('embedded'),
    /** Batch contact enrichment: profiles a task's job claims per round, and how long it holds them before another run may. */
    CONTACT_BATCH_CLAIM_SIZE: positiveInt.max(1000).default(25),
    CONTACT_BATCH_LEASE_SECONDS: positiveInt.default(120),
  })
  .superRefine((env, ctx) => {
    const issue = (variable: string, message: string) => ctx.addIssue({ code: 'custom', path: [variable], message });
    if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS)
      issue('HTTP_HEADERS_TIMEOUT_MS', 'must not exceed HTTP_REQUEST_TIMEOUT_MS (the headers are part of the request)');
    if (env.OIDC_ISSUER && !env.OIDC_CLIENT_ID) issue('OIDC_CLIENT_ID', 'is required with OIDC_ISSUER');
    if (!env.OIDC_ISSUER && (env.OIDC_CLIENT_ID || env.OIDC_CLIENT_SECRET))
      issue('OIDC_ISSUER', 'is required with OIDC_CLIENT_ID and OIDC_CLIENT_SECRET');
    if (env.OIDC_DEV_PROVIDER && env.OIDC_ISSUER)
      issue(
        'OIDC_DEV_PROVIDER',
        'cannot be combined with OIDC_ISSUER: the built-in provider replaces the external one',
      );
    if (env.NODE_ENV === 'production') {
      if (env.OIDC_DEV_PROVIDER)
        issue('OIDC_DEV_PROVIDER', 'is for development only and refused with NODE_ENV=production');
      if (env.OAUTH_CIMD_ALLOW_LOOPBACK)
        issue('OAUTH_CIMD_ALLOW_LOOPBACK', 'is for development only and refused with NODE_ENV=production');
    }
  });

export type Environment = z.infer<typeof environmentSchema>;

export interface Config extends Environment {
  /** Absolute DATA_DIR. */
  dataDir: string;
  exportDir: string;
  jobMaxRunningPerAccount: number;
}

export type RateLimitSettings = Pick<
  Config,
  | 'RATE_LIMIT_SEARCH_PER_MINUTE'
  | 'RATE_LIMIT_STANDARD_PER_MINUTE'
  | 'RATE_LIMIT_STATUS_PER_MINUTE'
  | 'RATE_LIMIT_HEAVY_PER_MINUTE'
>;

/** Each rate-limit class's requests per minute, as configured: what REST enforces and what OpenAPI and MCP announce. */
export function rateLimitsPerMinute(config: RateLimitSettings): Record<RateLimitClass, number> {
  return {
    search: config.RATE_LIMIT_SEARCH_PER_MINUTE,
    standard: config.RATE_LIMIT_STANDARD_PER_MINUTE,
    status: config.RATE_LIMIT_STATUS_PER_MINUTE,
    heavy: config.RATE_LIMIT_HEAVY_PER_MINUTE,
  };
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environmentSchema.safeParse(pickDefined(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const dataDir = path.resolve(parsed.data.DATA_DIR);
  return {
    ...parsed.data,
    dataDir,
    exportDir: path.resolve(parsed.data.EXPORT_DIR ?? path.join(dataDir, 'exports')),
    jobMaxRunningPerAccount: parsed.data.JOB_MAX_RUNNING_PER_ACCOUNT ?? Math.max(1, parsed.data.JOB_CONCURRENCY - 1),
  };
}

/** Empty variables count as unset, as a shell user would expect from `FOO= npm start`. */
function pickDefined(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && value !== '') out[key] = value;
  }
  return out;
}
