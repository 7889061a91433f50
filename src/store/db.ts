import pg from 'pg';

/**
 * The one code path to PostgreSQL. Everything that touches SQL takes a `Queryable`,
 * so the same function runs on the pool or inside a transaction.
 */
export type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

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
  catalogRead<T>(signal: AbortSignal | undefined, work: (db: Queryable) => Promise<T>): Promise<T>;
  transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
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
}

export function openDatabase(connectionString: string, options: number | DatabaseOptions): Database {
  const settings: DatabaseOptions = typeof options === 'number' ? { max: options } : options;
  const pool = createPool(connectionString, settings.max, settings.statementTimeoutMs, settings.connectionTimeoutMs);
  const catalog = settings.catalog
    ? createPool(connectionString, settings.catalog.max, settings.catalog.statementTimeoutMs, settings.connectionTimeoutMs)
    : pool;
  return {
    pool,
    catalogRead: (signal, work) => readCancellably(catalog, pool, signal, work),
    transaction: (work) => runInTransaction(pool, work),
    close: async () => {
      await pool.end();
      if (catalog !== pool) await catalog.end();
    },
  };
}

function createPool(connectionString: string, max: number, statementTimeoutMs?: number, connectionTimeoutMs?: number): pg.Pool {
  // Our queries are short keyset pages; when the planner over-estimates one, JIT compilation
  // (hundreds of ms) costs far more than it saves (measured: a 1000-record page, 400 ms → 53 ms).
  const settings = ['-c jit=off'];
  if (statementTimeoutMs) settings.push(`-c statement_timeout=${statementTimeoutMs}`);
  const pool = new pg.Pool({
    connectionString,
    max,
    idleTimeoutMillis: 30_000,
    ...(connectionTimeoutMs ? { connectionTimeoutMillis: connectionTimeoutMs } : {}),
    application_name: 'prospecting-data-service',
    options: settings.join(' '),
  });
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  return pool;
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
  try {
    return await work(client);
  } finally {
    signal.removeEventListener('abort', cancel);
    if (cancelling) await cancelling;
    client.release();
  }
}

export async function runInTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
