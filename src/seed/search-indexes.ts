import type { Database, Queryable } from '../store/db.js';
import { readMigrations } from '../store/migrate.js';
import { splitStatements } from '../store/sql-statements.js';
import { CATALOG_TABLES } from '../store/tables/catalog.js';

/*
 * The search indexes of the catalog tables, as the migrations define them. A large load drops
 * them and builds them afterwards (building an index once beats updating it per row), and a
 * load that died in between is repaired by creating the missing ones.
 */

export interface IndexDefinition {
  name: string;
  table: string;
  sql: string;
}

/**
 * The indexes of the catalog tables as the migrations leave them (each CREATE INDEX, less those
 * a later migration drops, under the name a later one gives it), read from the migration files
 * so that the definitions live in one place. A definition builds its index plainly (a load
 * builds them while nothing else writes), however the migration built it.
 */
export async function readSearchIndexDefinitions(): Promise<IndexDefinition[]> {
  const definitions = new Map<string, IndexDefinition>();
  for (const { sql } of await readMigrations()) {
    const statements = splitStatements(sql).map((statement) =>
      statement
        .split('\n')
        .filter((line) => !line.trim().startsWith('--'))
        .join('\n')
        .trim(),
    );
    for (const statement of statements) {
      const dropped = /^DROP\s+INDEX\s+(?:CONCURRENTLY\s+)?(?:IF\s+EXISTS\s+)?(\w+)/i.exec(statement);
      if (dropped) definitions.delete(dropped[1] as string);
      const renamed = /^ALTER\s+INDEX\s+(?:IF\s+EXISTS\s+)?(\w+)\s+RENAME\s+TO\s+(\w+)/i.exec(statement);
      const before = renamed ? definitions.get(renamed[1] as string) : undefined;
      if (renamed && before) {
        const name = renamed[2] as string;
        definitions.delete(before.name);
        definitions.set(name, { ...before, name, sql: before.sql.replace(/(IF NOT EXISTS )\w+/, `$1${name}`) });
      }
      const match =
        /^CREATE\s+(?:UNIQUE\s+)?INDEX\s+(?:CONCURRENTLY\s+)?(?:IF\s+NOT\s+EXISTS\s+)?(\w+)\s+ON\s+(?:ONLY\s+)?(\w+)/i.exec(
          statement,
        );
      if (!match) continue;
      const [, name, table] = match as unknown as [string, string, string];
      if (!(CATALOG_TABLES as readonly string[]).includes(table)) continue;
      definitions.set(name, {
        name,
        table,
        sql: statement.replace(
          /^CREATE\s+(UNIQUE\s+)?INDEX\s+(?:CONCURRENTLY\s+)?(?:IF\s+NOT\s+EXISTS\s+)?/i,
          (_m, unique: string | undefined) => `CREATE ${unique ?? ''}INDEX IF NOT EXISTS `,
        ),
      });
    }
  }
  return [...definitions.values()];
}

export async function existingIndexes(db: Queryable): Promise<Set<string>> {
  const result = await db.query<{ indexname: string }>(
    `SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ANY($1)`,
    [[...CATALOG_TABLES]],
  );
  return new Set(result.rows.map((r) => r.indexname));
}

/** Relative build cost, so the longest builds start first when they run side by side. */
function indexCost(definition: IndexDefinition, rows: Readonly<Record<string, number>>): number {
  const perRow = /gin_trgm_ops/.test(definition.sql) ? 8 : /USING\s+gin/i.test(definition.sql) ? 3 : 1;
  return perRow * (rows[definition.table] ?? 0);
}

/**
 * Builds the given indexes on `parallelism` connections, longest first. Creates only the
 * missing ones, so it also repairs a load that died between dropping and rebuilding.
 */
export async function createSearchIndexes(
  db: Database,
  definitions: readonly IndexDefinition[],
  options: {
    parallelism?: number;
    rows?: Readonly<Record<string, number>>;
    maintenanceWorkMem?: string;
    onBuilt?: (done: number, total: number) => void;
  } = {},
): Promise<void> {
  const rows = options.rows ?? {};
  const queue = [...definitions].sort((a, b) => indexCost(b, rows) - indexCost(a, rows));
  const total = queue.length;
  let done = 0;
  const worker = async (): Promise<void> => {
    const client = await db.pool.connect();
    try {
      if (options.maintenanceWorkMem)
        await client.query(`SET maintenance_work_mem = '${options.maintenanceWorkMem.replace(/'/g, '')}'`);
      for (let next = queue.shift(); next; next = queue.shift()) {
        await client.query(next.sql);
        done++;
        options.onBuilt?.(done, total);
      }
      if (options.maintenanceWorkMem) await client.query('RESET maintenance_work_mem');
    } finally {
      client.release();
    }
  };
  const parallelism = Math.max(1, Math.min(options.parallelism ?? 2, queue.length));
  await Promise.all(Array.from({ length: parallelism }, worker));
}

/**
 * Creates whichever search indexes of the catalog tables are missing, and refreshes the statistics of the tables that
 * got one (a load stopped before its indexes was stopped before its ANALYZE too). `beforeBuilding` hears of them first.
 */
export async function ensureSearchIndexes(
  db: Database,
  options: { maintenanceWorkMem?: string; beforeBuilding?: (missing: readonly IndexDefinition[]) => void } = {},
): Promise<string[]> {
  const existing = await existingIndexes(db.pool);
  const missing = (await readSearchIndexDefinitions()).filter((d) => !existing.has(d.name));
  if (missing.length === 0) return [];
  options.beforeBuilding?.(missing);
  await createSearchIndexes(
    db,
    missing,
    options.maintenanceWorkMem ? { maintenanceWorkMem: options.maintenanceWorkMem } : {},
  );
  for (const table of new Set(missing.map((d) => d.table))) await db.pool.query(`ANALYZE ${table}`);
  return missing.map((d) => d.name);
}
