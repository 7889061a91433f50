import { randomInt } from 'node:crypto';
import pg from 'pg';
import { databaseFailure } from '../errors.js';
import type { Logger } from '../log.js';
import { ReplicaSet } from './replicas.js';
import { KeptSession, type KeptSessionOptions } from './session.js';

/**
 * The one code path to PostgreSQL. Everything that touches SQL takes a `Queryable`,
 * so the same function runs on the pool or inside a transaction.
 */
export type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

/**
 * One row of an account's table by its id, or null when the account has none by that id (another
 * account's row is none). `forUpdate` locks it until the caller's transaction ends. `table` and
 * `columns` are the caller's constants, never input.
 */
export async function findAccountRow<Row extends pg.QueryResultRow>(
  db: Queryable,
  table: string,
  columns: string,
  accountId: number,
  id: number,
  forUpdate = false,
): Promise<Row | null> {
  const result = await db.query<Row>(
    `SELECT ${columns} FROM ${table} WHERE account_id = $1 AND id = $2 ${forUpdate ? 'FOR UPDATE' : ''}`,
    [accountId, id],
  );
  return result.rows[0] ?? null;
}

// bigint columns arrive as strings by default; ours never exceed 2^53 (ids, credits, USD).
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
// Dates stay plain 'YYYY-MM-DD' strings instead of local-midnight Date objects.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

export interface Database {
  pool: pg.Pool;
  /**
   * Runs catalog reads of a request (searches) on the catalog pool, which is kept apart so that
   * searches can never take the connections that charges, jobs and health checks need. When
   * `signal` aborts (the caller went away) the running statement is cancelled on the server.
   */
  catalogRead<T>(
    signal: AbortSignal | undefined,
    work: (db: Queryable) => Promise<T>,
    how?: CatalogReadOptions,
  ): Promise<T>;
  /** The streaming replicas that serve catalog reads (DATABASE_REPLICA_URLS), or null. */
  replicas: ReplicaSet | null;
  transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  /**
   * A connection of its own to the primary, outside the pools, kept open and reconnected (LISTEN,
   * session advisory locks); started by the caller, stopped by `close()` if not before.
   */
  keepSession(options: Omit<KeptSessionOptions, 'client'>): KeptSession;
  /**
   * This instance's key in `instanceLockSpace` (`DatabaseOptions.liveness`), or null without a
   * liveness session. Its session holds the lock on it while the instance lives; after a failover
   * it takes it again within a few seconds. Whoever finds the lock free some seconds after the
   * instance named itself knows it gone.
   */
  liveInstanceKey(): number | null;
  close(): Promise<void>;
}

/**
 * The first key of the session advisory locks by which instances say they are alive (a negative
 * number: the per-account locks of src/runner/concurrency.ts use account ids there). The lock ends
 * with the instance's connection, when its process dies or its server goes away.
 */
export const instanceLockSpace = -1;

export interface CatalogReadOptions {
  /**
   * The read compares many substrings against every candidate row: it waits for one of the few
   * costly-read slots (`costlyReads`), so that such reads, from any number of accounts, can take
   * only that many of the server's cores while ordinary searches go on.
   */
  costly?: boolean;
  /**
   * The read also needs the account's own rows (exclusion lists) as they are now: it goes to the
   * primary, since a replica may not have replayed a list made a moment ago.
   */
  readsAccountData?: boolean;
}

export interface DatabaseOptions {
  /** Connections of the main pool. */
  max: number;
  /** Longest a statement of the main pool may run; unset: no limit (migrations, seeds and imports need none). */
  statementTimeoutMs?: number;
  /** Longest a caller waits for a free connection before it is refused; unset: as long as it takes. */
  connectionTimeoutMs?: number;
  /** The catalog pool for request searches; unset: they share the main pool. */
  catalog?: { max: number; statementTimeoutMs: number };
  /** Costly catalog reads run at once by this process; more wait up to `connectionTimeoutMs`, then are refused as unavailable. */
  costlyReads?: number;
  /** Streaming replicas for catalog reads; started with `replicas.start()`. */
  replicas?: { urls: string[]; maxLagMs: number; checkIntervalMs: number; log: Logger };
  /**
   * Every new connection of the pools is checked to be on a server that takes writes; one on a
   * standby (a failover in progress, a load balancer that has not noticed it yet) is refused as
   * unavailable, and a statement refused as read-only drops the pool's idle connections with it.
   */
  requirePrimary?: boolean;
  /** Holds a liveness lock for this instance (see `liveInstanceKey`), logging through this logger. */
  liveness?: { log: Logger };
}

export function openDatabase(connectionString: string, options: number | DatabaseOptions): Database {
  const settings: DatabaseOptions = typeof options === 'number' ? { max: options } : options;
  const pool = createPool(connectionString, settings.max, settings.statementTimeoutMs, settings.connectionTimeoutMs);
  const catalog = settings.catalog
    ? createPool(
        connectionString,
        settings.catalog.max,
        settings.catalog.statementTimeoutMs,
        settings.connectionTimeoutMs,
      )
    : pool;
  if (settings.requirePrimary) for (const primary of new Set([pool, catalog])) requireWritable(primary);
  const sessions = new Set<KeptSession>();
  let liveness: KeptSession | null = null;
  const instanceKey = randomInt(1, 2 ** 31 - 1);
  const replicas = settings.replicas?.urls.length
    ? new ReplicaSet({
        urls: settings.replicas.urls,
        primary: pool,
        maxLagMs: settings.replicas.maxLagMs,
        checkIntervalMs: settings.replicas.checkIntervalMs,
        poolSize: settings.catalog?.max ?? settings.max,
        statementTimeoutMs: settings.catalog?.statementTimeoutMs ?? settings.statementTimeoutMs ?? 0,
        ...(settings.connectionTimeoutMs ? { connectionTimeoutMs: settings.connectionTimeoutMs } : {}),
        log: settings.replicas.log,
        createPool,
      })
    : null;
  const readFromPrimary = <T>(signal: AbortSignal | undefined, work: (db: Queryable) => Promise<T>) =>
    readCancellably(catalog, pool, signal, work);
  const costlySlots = new Slots(settings.costlyReads ?? Number.MAX_SAFE_INTEGER);
  const read = async <T>(
    signal: AbortSignal | undefined,
    work: (db: Queryable) => Promise<T>,
    how?: CatalogReadOptions,
  ): Promise<T> => {
    const replica = how?.readsAccountData ? null : replicas?.pick();
    if (!replica || !replicas) return readFromPrimary(signal, work);
    try {
      return await readCancellably(replica.reads, replica.control, signal, work);
    } catch (error) {
      const failure = databaseFailure(error);
      if (failure?.code !== 'unavailable' || signal?.aborted) throw error;
      // Nothing was charged for the page the replica could not serve; the primary serves it.
      if (!/timeout exceeded when trying to connect/.test((error as Error).message))
        replicas.markDown(replica, (error as Error).message);
      return readFromPrimary(signal, work);
    }
  };
  const database: Database = {
    pool,
    replicas,
    catalogRead: async (signal, work, how) => {
      if (!how?.costly) return read(signal, work, how);
      const release = await costlySlots.take(settings.connectionTimeoutMs ?? 0, signal);
      try {
        return await read(signal, work, how);
      } finally {
        release();
      }
    },
    transaction: (work) => runInTransaction(pool, work),
    keepSession: (options) => {
      const session = new KeptSession({
        ...options,
        client: () =>
          new pg.Client({
            connectionString,
            application_name: `prospecting-data-service (${options.name})`,
            connectionTimeoutMillis: settings.connectionTimeoutMs ?? 10_000,
            keepAlive: true,
            options: '-c jit=off',
          }),
      });
      sessions.add(session);
      return session;
    },
    liveInstanceKey: () => (liveness ? instanceKey : null),
    close: async () => {
      await Promise.all([...sessions].map((session) => session.stop()));
      await replicas?.close();
      await pool.end();
      if (catalog !== pool) await catalog.end();
    },
  };
  if (settings.liveness) {
    liveness = database.keepSession({
      name: 'instance liveness',
      log: settings.liveness.log,
      onConnected: async (client) => {
        await client.query('SELECT pg_advisory_lock($1::int, $2::int)', [instanceLockSpace, instanceKey]);
      },
    });
    void liveness.start();
  }
  return database;
}

function createPool(
  connectionString: string,
  max: number,
  statementTimeoutMs?: number,
  connectionTimeoutMs?: number,
  applicationName = 'prospecting-data-service',
): pg.Pool {
  // Our queries are short keyset pages; when the planner over-estimates one, JIT compilation
  // costs far more than it saves (docs/decisions/0006-search-on-postgresql.md).
  const settings = ['-c jit=off'];
  if (statementTimeoutMs) settings.push(`-c statement_timeout=${statementTimeoutMs}`);
  const pool = new pg.Pool({
    connectionString,
    max,
    idleTimeoutMillis: 30_000,
    ...(connectionTimeoutMs ? { connectionTimeoutMillis: connectionTimeoutMs } : {}),
    application_name: applicationName,
    options: settings.join(' '),
  });
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  // Nor one that is checked out between two statements (a transaction awaiting its caller, a
  // cancellable read) when the server ends it (a restart, an operator's stop): the pool listens on
  // idle connections only, and an 'error' event nobody listens to ends the process. The client
  // is then no longer queryable: its next statement fails as unavailable, and its release drops it.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return pool;
}

/** The SQLSTATE of a write refused because the server (or the transaction) is read-only. */
const readOnlyState = '25006';

/**
 * A failover turns the old primary into a standby, or leaves a connection string pointing at one
 * for a moment: a new connection is checked (one statement per connection, not per query) and
 * refused when it cannot write, so that requests are answered 503 until a primary is reached
 * rather than failing one by one on their first write. A statement refused as read-only means
 * the pool's other idle connections were very likely opened to the same server: they are dropped.
 */
function requireWritable(pool: pg.Pool): void {
  pool.options.verify = (client, done) => {
    client
      .query<{ writable: boolean }>(
        "SELECT NOT (pg_is_in_recovery() OR current_setting('transaction_read_only')::boolean) AS writable",
      )
      .then(
        (result) =>
          done(
            result.rows[0]?.writable
              ? undefined
              : Object.assign(new Error('the server takes no writes (a standby, or read-only): not a primary'), {
                  code: readOnlyState,
                }),
          ),
        (error: Error) => done(error),
      );
  };
  pool.on('release', (error: unknown) => {
    if ((error as { code?: string } | undefined)?.code === readOnlyState) void dropIdleConnections(pool);
  });
}

/** Ends the connections idle in the pool now (taken from it one by one and released as broken). */
async function dropIdleConnections(pool: pg.Pool): Promise<void> {
  const taken: pg.PoolClient[] = [];
  try {
    for (let left = pool.idleCount; left > 0 && pool.idleCount > 0; left -= 1) taken.push(await pool.connect());
  } catch {
    // Nothing more to take.
  } finally {
    for (const client of taken) client.release(new Error('dropped: its server took no writes'));
  }
}

/** Whether a failed statement says the connection is no longer worth keeping (server gone, or a standby now). */
function connectionSpent(error: unknown): boolean {
  return (
    (error as { code?: string } | undefined)?.code === readOnlyState || databaseFailure(error)?.code === 'unavailable'
  );
}

async function readCancellably<T>(
  pool: pg.Pool,
  control: pg.Pool,
  signal: AbortSignal | undefined,
  work: (db: Queryable) => Promise<T>,
): Promise<T> {
  if (!signal) return work(pool);
  signal.throwIfAborted();
  const client = await pool.connect();
  const backendPid = (client as unknown as { processID: number | null }).processID;
  let cancelling: Promise<unknown> | null = null;
  const cancel = (): void => {
    // Sent from another connection; awaited before the client goes back to the pool, so the
    // cancel can never reach a statement of the next request on this connection.
    if (backendPid) cancelling = control.query('SELECT pg_cancel_backend($1)', [backendPid]).catch(() => undefined);
  };
  signal.addEventListener('abort', cancel, { once: true });
  let failure: unknown = undefined;
  try {
    return await work(client);
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    signal.removeEventListener('abort', cancel);
    if (cancelling) await cancelling;
    client.release(connectionSpent(failure) ? (failure as Error) : undefined);
  }
}

/** A counting semaphore whose waiters give up after a time (or when their caller leaves). */
class Slots {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(size: number) {
    this.free = size;
  }

  async take(timeoutMs: number, signal: AbortSignal | undefined): Promise<() => void> {
    if (this.free > 0) {
      this.free -= 1;
      return this.releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const grant = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', giveUp);
        resolve();
      };
      const giveUp = (): void => {
        const index = this.waiting.indexOf(grant);
        if (index >= 0) this.waiting.splice(index, 1);
        clearTimeout(timer);
        // Worded like the pool's own timeout, so it is answered 503 unavailable as a busy pool is.
        reject(new Error('timeout exceeded when trying to connect: every costly-search slot is taken'));
      };
      const timer = setTimeout(giveUp, timeoutMs > 0 ? timeoutMs : 2 ** 31 - 1);
      signal?.addEventListener('abort', giveUp, { once: true });
      this.waiting.push(grant);
    });
    return this.releaser();
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free += 1;
    };
  }
}

export async function runInTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let failure: unknown = undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    failure = error;
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    // A connection whose server went away or takes no writes is not put back for the next caller.
    client.release(connectionSpent(failure) ? (failure as Error) : undefined);
  }
}
