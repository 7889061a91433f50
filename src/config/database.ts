import { z } from 'zod';
import { positiveInt, nonNegativeInt, booleanFlag } from './types.js';

/**
 * The store: your own PostgreSQL server or the embedded one, pools, statement timeouts, replicas.
 * src/config.ts spreads these shapes into its one schema, in its order: the order of the rows of docs/configuration.md
 * and of the messages of a bad start. Each variable says what it does in `.describe()`; the page is generated from it.
 */

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

/** PostgreSQL: where it is, how many connections, how long a statement may run. */
export const databaseShape = {
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
};
