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
/** Lengths of time written with their unit, comma-separated (`250ms`, `5s`, `30m`, `2h`, `5d`): in milliseconds, or null. */
export function parseDurations(text: string): number[] | null {
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  const items = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const durations = items.map((item) => {
    const match = /^(\d+)(ms|s|m|h|d)$/.exec(item);
    return match ? Number(match[1]) * (units[match[2] as string] as number) : 0;
  });
  return items.length > 0 && durations.every((ms) => ms > 0) ? durations : null;
}
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

/**
 * Every variable carries its documentation in `.describe()`: `docs/configuration.md` is generated from it
 * (`npm run generate`), and `npm run check` fails when the two differ. The text says what the variable does and,
 * when it is unset without a default, what happens then.
 */
export const environmentSchema = z
  .object({
    NODE_ENV: z
      .enum(['development', 'production', 'test'])
      .default('development')
      .describe(
        '`production` refuses the settings meant only for development and tests (the built-in identity provider, loopback OAuth clients) and turns off the loopback CORS origins.',
      ),
    HOST: z
      .string()
      .default('127.0.0.1')
      .describe('The address the service listens on (the container image sets `0.0.0.0`).'),
    PORT: nonNegativeInt.max(65535).default(3000).describe('The port the service listens on (`0`: a free one).'),
    PUBLIC_URL: z
      .url()
      .optional()
      .describe(
        'Absolute base of the links in responses and mails (download links, OAuth metadata); also an allowed MCP `Host`. Unset: the listening address.',
      ),
    DATA_DIR: z
      .string()
      .default('./data')
      .describe(
        'Made private (0700) at every start: the embedded PostgreSQL and its credentials (as root, the cluster lives under `/var/lib`: see [getting started](getting-started.md)), the demo key file, exports, the mail outbox.',
      ),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional()
      .describe(
        '`postgres://...` of your own PostgreSQL server (14 or newer, with `pg_trgm`). Unset: the embedded server under `DATA_DIR`.',
      ),
    DATABASE_POOL_SIZE: positiveInt
      .default(10)
      .describe('Connections per process for everything but request searches: charges, audiences, jobs, `/healthz`.'),
    MIGRATE_ON_START: booleanFlag
      .default(true)
      .describe(
        'Apply pending migrations when the service starts. On a server (`DATABASE_URL`), apply them as a deploy step with `npm run migrate` and set `false`: a start then refuses, naming them, a database that lacks a migration (see [migrations](migrations.md)). Either way a start refuses a database whose applied migrations were edited since.',
      ),
    EMBEDDED_PG_MEMORY_MB: positiveInt
      .min(256)
      .optional()
      .describe(
        "The memory the embedded server's settings are sized for: `shared_buffers` a quarter (at most 8 GB), `effective_cache_size` three quarters, `work_mem` up to 64 MB, `maintenance_work_mem` a sixteenth (at most 1 GB). Set it lower when the machine is shared. Unset: the machine's memory (its cgroup's limit when lower).",
      ),
    EMBEDDED_PG_SETTINGS: embeddedSettingsList
      .optional()
      .describe(
        "PostgreSQL settings of the embedded server that replace the computed ones or add to them: `name=value,name=value` (for example `shared_buffers=2GB,random_page_cost=4`). The connection settings (`listen_addresses`, `port`, ...) are the service's own and refused; a value PostgreSQL rejects stops the start with its message.",
      ),
    DATABASE_CATALOG_POOL_SIZE: positiveInt
      .default(6)
      .describe(
        'Connections per process kept apart for request searches, so a flood of searches can never take the ones charges, jobs and `/healthz` use.',
      ),
    SEARCH_STATEMENT_TIMEOUT_MS: positiveInt
      .default(5_000)
      .describe(
        "Longest a request's search or count statement may run; one that runs longer is cancelled and answered 503 `query_timeout`, charging nothing.",
      ),
    COSTLY_SEARCH_SUBSTRINGS: nonNegativeInt
      .default(10)
      .describe(
        'A search with more substring terms than this (titles, schools, locations, name) is costly: it reads every candidate row once per term.',
      ),
    COSTLY_SEARCHES_AT_ONCE: positiveInt
      .default(1)
      .describe(
        'Costly searches run at once by one process, from all accounts together; the others wait for a slot (up to `DATABASE_CONNECTION_TIMEOUT_MS`, then 503).',
      ),
    DATABASE_STATEMENT_TIMEOUT_MS: positiveInt
      .default(60_000)
      .describe(
        'Longest any other statement of the running service may run (jobs included); migrations, the seed and imports have no limit.',
      ),
    DATABASE_CONNECTION_TIMEOUT_MS: positiveInt
      .default(10_000)
      .describe('Longest a request waits for a free database connection before it is answered 503 with `Retry-After`.'),
    DATABASE_REPLICA_URLS: z
      .string()
      .transform((s) =>
        s
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().regex(/^postgres(ql)?:\/\//, 'each must be a postgres:// or postgresql:// URL')))
      .optional()
      .describe(
        'Comma list of PostgreSQL streaming replicas (`postgres://` URLs) that serve searches (see [scaling](scaling.md)); writes, charges and searches naming exclusion lists stay on the primary.',
      ),
    DATABASE_REPLICA_MAX_LAG_MS: positiveInt
      .default(2_000)
      .describe(
        'A replica further behind the primary than this is left out (reads go to the primary) until it catches up.',
      ),
    DATABASE_REPLICA_CHECK_MS: positiveInt
      .default(1_000)
      .describe("How often each replica's health and lag are checked."),
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
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info')
      .describe('The least severe log line written; logs are JSON lines on stdout.'),
    HTTP_HEADERS_TIMEOUT_MS: positiveInt
      .default(20_000)
      .describe(
        "Longest a client may take to send a request's headers, counted from its first byte (or from the connection, for a new one); a connection that sends nothing is closed after this too. Then 408.",
      ),
    HTTP_REQUEST_TIMEOUT_MS: positiveInt
      .default(60_000)
      .describe(
        'Longest a client may take to send a whole request, body included; then 408 and the connection is closed.',
      ),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: positiveInt
      .default(65_000)
      .describe(
        'How long an idle keep-alive connection is kept between requests (a little longer than the 60 s of common proxies and client pools).',
      ),

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
    METRICS_TOKEN: z
      .string()
      .min(16, 'must be at least 16 characters')
      .optional()
      .describe(
        'Set: Prometheus metrics at `/metrics`, for a scraper that sends this as a bearer token. Unset: no metrics.',
      ),

    BACKEND_URL: z
      .url()
      .optional()
      .describe(
        "The REST API of another deployment that the MCP gateway runs operations through, with the caller's API key in `x-api-key`. Unset (the default): in this process. Refused together with single sign-on, whose callers have no key to send.",
      ),
    CONFIRM_ABOVE_CREDITS: nonNegativeInt
      .default(500)
      .describe("MCP calls whose worst-case cost exceeds this need the user's confirmation."),
    LOW_BALANCE_WARNING_CREDITS: nonNegativeInt
      .default(1000)
      .describe('MCP results warn when the balance falls under this.'),
    MCP_RESPONSE_TOKEN_BUDGET: positiveInt
      .default(20_000)
      .describe('MCP results larger than this (about 4 characters a token) are cut, and the rest kept reachable.'),
    BALANCE_CACHE_SECONDS: nonNegativeInt.default(5).describe('How long the MCP gateway trusts a balance it read.'),
    MCP_TASK_TTL_SECONDS: positiveInt
      .default(86_400)
      .describe(
        'How long an MCP task (the tasks extension, for the operations that start a job) is kept after it was created; a task waiting for the confirmation of its cost waits 15 minutes.',
      ),
    MCP_TASK_POLL_INTERVAL_MS: positiveInt
      .optional()
      .describe(
        'The `pollIntervalMs` MCP tasks suggest. Unset (the default): the documented interval of the status operation that follows the job (10 or 30 s). For tests and development.',
      ),
    MCP_DIRECT_PATH: booleanFlag
      .default(true)
      .describe(
        "Answer the common MCP tool calls without building the SDK's per-request server (`src/mcp/fast-path.ts`); `false` sends every MCP request through the SDK.",
      ),
    ALLOWED_HOSTS: commaList
      .optional()
      .describe(
        "Comma list of `Host` names accepted on the MCP routes besides the loopback names, the listening host and `PUBLIC_URL`'s host (DNS-rebinding check; another is 403); `*` turns the check off, for a proxy that checks `Host` itself.",
      ),
    ALLOWED_ORIGINS: commaList
      .optional()
      .describe(
        "Comma list of `Origin`s accepted on the MCP routes besides loopback and `PUBLIC_URL`'s host (DNS-rebinding check; another is 403).",
      ),
    SIGNING_SECRET: z
      .string()
      .min(32, 'must be at least 32 characters')
      .optional()
      .describe(
        'HMAC key of download links and confirmation tokens. Unset: one generated once and kept in the database.',
      ),
    CORS_ORIGINS: originList
      .optional()
      .describe(
        'Comma list of browser origins (`https://app.example`) allowed to call the MCP routes cross-origin; outside production, loopback origins are allowed too.',
      ),
    TRUST_PROXY: booleanFlag
      .default(false)
      .describe(
        "Behind one reverse proxy: the client's address is the one the proxy put last in `X-Forwarded-For` (rate limits of sign-in and registration count it), and `X-Forwarded-Proto` is believed (never `X-Forwarded-Host`). Unset: forwarded headers are ignored from any peer, loopback included, and the address is the connection's.",
      ),

    OIDC_ISSUER: secureUrl
      .optional()
      .describe(
        'The external OpenID provider where people sign in for `/mcp/v3` (discovery from its issuer URL; https, http only on loopback). Unset: sign-in says single sign-on is not configured.',
      ),
    OIDC_CLIENT_ID: z
      .string()
      .min(1)
      .optional()
      .describe("This service's client id at that provider (required with `OIDC_ISSUER`)."),
    OIDC_CLIENT_SECRET: z
      .string()
      .min(1)
      .optional()
      .describe("This service's client secret at that provider. Unset: a public client (PKCE only)."),
    OIDC_SCOPES: z
      .string()
      .regex(/(^|\s)openid(\s|$)/, 'must include openid')
      .default('openid email profile')
      .describe('Scopes asked of that provider (must include `openid`).'),
    OIDC_DEV_PROVIDER: booleanFlag
      .default(false)
      .describe(
        'Development only: a built-in OpenID provider at `/dev-idp` whose one demo person is the demo account, and where any typed address signs in as a new person (refused with `NODE_ENV=production`). `npm start` turns it on when it serves only loopback and `OIDC_ISSUER` is unset.',
      ),
    OAUTH_TOKEN_CACHE_SECONDS: nonNegativeInt
      .max(60)
      .default(5)
      .describe(
        'How long an instance trusts a verified `/mcp/v3` access token without asking the database again; a revocation reaches other instances within this (at once on the instance that revoked).',
      ),
    OAUTH_REGISTRATIONS_PER_HOUR: positiveInt
      .default(20)
      .describe('Dynamic client registrations accepted per client address and hour (shared by all instances).'),
    OAUTH_SIGN_INS_PER_MINUTE: positiveInt
      .default(30)
      .describe(
        'Sign-ins started per client address and minute (`/oauth/authorize` and the sign-in page, which write rows for anyone; shared by all instances); more are answered 429 with `Retry-After`.',
      ),
    OAUTH_CIMD_ALLOW_LOOPBACK: booleanFlag
      .default(false)
      .describe(
        'Development and tests only: client ID metadata documents may be fetched from loopback addresses (still https); refused in production.',
      ),
    OAUTH_CIMD_CA_FILE: z
      .string()
      .min(1)
      .optional()
      .describe(
        'A PEM file of extra certificate authorities trusted when fetching client ID metadata documents (a development certificate).',
      ),

    DASHBOARD_SESSION_IDLE_MINUTES: positiveInt
      .max(24 * 60)
      .default(60)
      .describe('A dashboard session unused this long ends; the person signs in again.'),
    DASHBOARD_SESSION_MAX_HOURS: positiveInt
      .max(30 * 24)
      .default(12)
      .describe('A dashboard session ends this long after sign-in, however busy.'),
    DASHBOARD_SIGN_INS_PER_HOUR: positiveInt
      .default(30)
      .describe('Dashboard sign-ins started per client address and hour (across instances).'),
    DASHBOARD_INVITATIONS_PER_HOUR: positiveInt
      .default(20)
      .describe('Invitations an account may send per hour from the dashboard.'),

    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional()
      .describe('`smtp://user:pass@host:587` to send mail. Unset: `.eml` files in `DATA_DIR/outbox`.'),
    MAIL_FROM: z
      .string()
      .default('Prospecting Data Service <no-reply@prospecting.local>')
      .describe('Sender of notifications.'),
    MAIL_ANY_RECIPIENT: booleanFlag
      .default(false)
      .describe(
        "`false`: `userEmail` must be one of the account's own addresses (its email, or one registered with `npm run accounts -- add-recipient`); `true`: any address.",
      ),
    EXPORT_DIR: z.string().optional().describe('Where CSV exports are written. Unset: `DATA_DIR/exports`.'),
    EXPORT_QUOTA_ROWS_PER_MONTH: positiveInt
      .default(100_000)
      .describe('Rows each account may export per calendar month; past it, 429 `quota_exceeded`.'),
    EXPORT_LINK_TTL_SECONDS: positiveInt.default(7 * 24 * 3600).describe('Lifetime of a signed download link.'),
    JOB_POLL_INTERVAL_MS: positiveInt.default(250).describe('How often an idle worker looks for jobs.'),
    JOB_WORKER: booleanFlag.default(true).describe('Run the background job worker in this process.'),
    JOB_CONCURRENCY: positiveInt.max(32).default(2).describe("Jobs in flight at once in one process's worker."),
    JOB_MAX_RUNNING_PER_ACCOUNT: positiveInt
      .optional()
      .describe(
        "Jobs of one account running at once across all instances, so one account's builds never hold every worker while another waits; accounts with fewer jobs running are served first. Unset: `JOB_CONCURRENCY - 1` (at least 1).",
      ),
    JOB_LEASE_SECONDS: positiveInt
      .default(30)
      .describe(
        'Lease of a claimed job; one whose worker stops renewing it (a killed process) is claimed again after it runs out.',
      ),
    JOB_RETRY_BASE_MS: positiveInt
      .default(5_000)
      .describe('First retry delay of a failed job attempt; it doubles per attempt, up to 10 minutes.'),
    EXPORT_RETENTION_DAYS: positiveInt
      .default(30)
      .describe('Export files are deleted this many days after they were written (the export then says `EXPIRED`).'),
    JOB_RETENTION_DAYS: positiveInt
      .default(30)
      .describe('Finished job rows (succeeded or failed) are deleted this many days after they finished.'),
    RETENTION_SWEEP_MINUTES: positiveInt
      .default(60)
      .describe('How often one worker instance sweeps for expired exports, finished jobs and expired MCP results.'),
    JOB_STEP_DELAY_MS: nonNegativeInt
      .default(0)
      .describe(
        'Tests and demos only: a pause after each step of a build, enrichment or saved-search run, and between the 1,000-row pages of an export, so a job can be watched or killed mid-way.',
      ),

    NETWORK_SOURCE_URL: z
      .url()
      .optional()
      .describe('The professional-network live source over HTTP. Unset: a simulated source over the stored catalog.'),
    NETWORK_SOURCE_API_KEY: z.string().optional().describe('The API key sent to `NETWORK_SOURCE_URL`.'),
    NETWORK_SOURCE_TIMEOUT_MS: positiveInt
      .default(8_000)
      .describe('Longest a live fetch from `NETWORK_SOURCE_URL` may take.'),
    NETWORK_SOURCE_FAILURE_RATE: z.coerce
      .number()
      .min(0)
      .max(1)
      .default(0)
      .describe('Simulated source only: the share of live fetches that fail.'),
    NETWORK_SOURCE_LATENCY_MS: nonNegativeInt
      .default(0)
      .describe('Simulated source only: the delay of each live fetch.'),
    CONTACT_PROVIDER_URL: z
      .url()
      .optional()
      .describe(
        'A third-party contact provider over HTTP, asked after the dataset and before the email-pattern guesser. Unset: not asked.',
      ),
    CONTACT_PROVIDER_API_KEY: z.string().optional().describe('The API key sent to `CONTACT_PROVIDER_URL`.'),
    CONTACT_PROVIDER_TIMEOUT_MS: positiveInt
      .default(8_000)
      .describe('Longest a call to `CONTACT_PROVIDER_URL` may take.'),
    CONTACT_EMAIL_VALIDATION: z
      .enum(['embedded', 'dns'])
      .default('embedded')
      .describe('`embedded`: deterministic syntax and reserved-name rules; `dns`: real MX lookups of mail domains.'),
    CONTACT_BATCH_CLAIM_SIZE: positiveInt
      .max(1000)
      .default(25)
      .describe("Batch contact enrichment: profiles a task's job claims per round."),
    CONTACT_BATCH_LEASE_SECONDS: positiveInt
      .default(120)
      .describe('Batch contact enrichment: how long a round holds its profiles before another run may take them.'),

    WEBHOOK_RETRY_SCHEDULE: z
      .string()
      .refine((text) => parseDurations(text) !== null, {
        message: 'must be a comma list of durations such as 5s,5m,30m,2h (each a number and one of ms, s, m, h, d)',
      })
      .default('5s,5m,30m,2h,5h,10h,14h,20h,20h')
      .describe(
        'Webhooks: the waits between the attempts of one delivery, after the first (durations in `ms`, `s`, `m`, `h` or `d`). The default makes ten attempts over about three days; after the last, the delivery is failed.',
      ),
    WEBHOOK_TIMEOUT_MS: positiveInt
      .max(60_000)
      .default(10_000)
      .describe(
        'Webhooks: longest one delivery attempt may take, connection and answer included; longer is a failed attempt.',
      ),
    WEBHOOK_DISABLE_AFTER: z
      .string()
      .refine((text) => parseDurations(text)?.length === 1, {
        message: 'must be a duration such as 5d, 12h or 30m',
      })
      .default('5d')
      .describe(
        "Webhooks: an endpoint whose every attempt has failed for this long is disabled, and the account's owners are mailed.",
      ),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: booleanFlag
      .default(false)
      .describe(
        'Webhooks, development and tests only: endpoints may be on loopback, private and link-local addresses. Refused with `NODE_ENV=production`.',
      ),
    WEBHOOK_DELIVERY_CONCURRENCY: positiveInt
      .max(64)
      .default(4)
      .describe(
        "Webhooks: delivery attempts one process makes at once, in a worker of their own, so a slow endpoint never holds the other jobs' slots.",
      ),
    WEBHOOK_RETENTION_DAYS: positiveInt
      .default(30)
      .describe(
        'Webhooks: events, deliveries and the delivery log are deleted this many days after they were written.',
      ),
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
    if (env.BACKEND_URL && (env.OIDC_ISSUER || env.OIDC_DEV_PROVIDER))
      issue(
        'BACKEND_URL',
        "cannot be combined with single sign-on (OIDC_ISSUER or OIDC_DEV_PROVIDER): the gateway calls BACKEND_URL with the caller's API key, and a /mcp/v3 sign-in has none (its token never goes upstream). Serve /mcp/v3 from instances without BACKEND_URL, which run operations in process",
      );
    if (env.NODE_ENV === 'production') {
      if (env.OIDC_DEV_PROVIDER)
        issue('OIDC_DEV_PROVIDER', 'is for development only and refused with NODE_ENV=production');
      if (env.OAUTH_CIMD_ALLOW_LOOPBACK)
        issue('OAUTH_CIMD_ALLOW_LOOPBACK', 'is for development only and refused with NODE_ENV=production');
      if (env.WEBHOOK_ALLOW_PRIVATE_TARGETS)
        issue(
          'WEBHOOK_ALLOW_PRIVATE_TARGETS',
          'is for development and tests only and refused with NODE_ENV=production',
        );
    }
  });

export type Environment = z.infer<typeof environmentSchema>;

export interface Config extends Environment {
  /** Absolute DATA_DIR. */
  dataDir: string;
  exportDir: string;
  jobMaxRunningPerAccount: number;
  /** Where the per-account concurrency caps are counted: ACCOUNT_CONCURRENCY_STORE, else RATE_LIMIT_STORE. */
  accountConcurrencyStore: 'memory' | 'database';
  /** WEBHOOK_RETRY_SCHEDULE and WEBHOOK_DISABLE_AFTER in milliseconds. */
  webhookRetryScheduleMs: number[];
  webhookDisableAfterMs: number;
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
    accountConcurrencyStore: parsed.data.ACCOUNT_CONCURRENCY_STORE ?? parsed.data.RATE_LIMIT_STORE,
    webhookRetryScheduleMs: parseDurations(parsed.data.WEBHOOK_RETRY_SCHEDULE) as number[],
    webhookDisableAfterMs: (parseDurations(parsed.data.WEBHOOK_DISABLE_AFTER) as number[])[0] as number,
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
