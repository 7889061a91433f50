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
  transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export function openDatabase(connectionString: string, maxConnections: number): Database {
  const pool = new pg.Pool({
    connectionString,
    max: maxConnections,
    idleTimeoutMillis: 30_000,
    application_name: 'prospecting-data-service',
    // Our queries are short keyset pages; when the planner over-estimates one, JIT compilation
    // (hundreds of ms) costs far more than it saves (measured: a 1000-record page, 400 ms → 53 ms).
    options: '-c jit=off',
  });
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  return {
    pool,
    transaction: (work) => runInTransaction(pool, work),
    close: () => pool.end(),
  };
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
