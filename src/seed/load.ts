import pg from 'pg';
import { refreshCatalogSize } from '../core/catalog-size.js';
import type { Database, Queryable } from '../store/db.js';
import { CATALOG_TABLES } from '../store/tables/catalog.js';
import { companiesTable } from '../store/tables/companies.js';
import { BinaryCopyWriter, CopyWriter } from '../store/tables/copy-writers.js';
import type { Table } from '../store/tables/define-table.js';
import { peopleTable, type PersonRow } from '../store/tables/people.js';
import { personContactsTable } from '../store/tables/person-contacts.js';
import { createCompanyGenerator } from './generate/companies.js';
import { createPeopleGenerator } from './generate/people.js';
import { createSearchIndexes, existingIndexes, readSearchIndexDefinitions } from './search-indexes.js';

export interface SeedOptions {
  companies: number;
  people: number;
  seed: number;
  onProgress?: (progress: { table: string; done: number; total: number }) => void;
  /**
   * Drop the search indexes during the load and build them afterwards. By default this
   * happens from 100,000 rows on, where building an index once beats updating it per row.
   */
  rebuildIndexes?: boolean;
  /** maintenance_work_mem of the index builds after a large load (two run at once); default 256MB. */
  maintenanceWorkMem?: string;
}

export interface SeedResult {
  companies: number;
  people: number;
  contacts: number;
  milliseconds: number;
}

const REBUILD_THRESHOLD_ROWS = 100_000;
const PROGRESS_EVERY = 25_000;

export async function isCatalogEmpty(db: Database | Queryable): Promise<boolean> {
  const queryable = 'pool' in db ? db.pool : db;
  const result = await queryable.query<{ any: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM companies) OR EXISTS (SELECT 1 FROM people) OR EXISTS (SELECT 1 FROM person_contacts) AS any`,
  );
  return result.rows[0]?.any === false;
}

export class CatalogNotEmptyError extends Error {
  constructor() {
    super('the catalog (companies, people, person_contacts) is not empty');
    this.name = 'CatalogNotEmptyError';
  }
}

function assertCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
}

/**
 * A connection of its own, outside the pool: a load needs up to four at once whatever
 * size the caller gave its pool, and a connection that failed mid-COPY is simply closed.
 */
async function openClient(db: Database): Promise<pg.Client> {
  const client = new pg.Client(db.pool.options);
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/**
 * Opens the transaction of a COPY FREEZE: the table is locked, checked empty again
 * (against a concurrent writer) and truncated, which is what allows FREEZE. Frozen rows
 * on all-visible pages spare the rewrite of every page that the first index build or
 * VACUUM would otherwise do, and let index-only scans work from the start.
 */
async function truncateForFreeze(client: pg.Client, table: string): Promise<void> {
  await client.query('BEGIN');
  await client.query('SET LOCAL synchronous_commit = off');
  await client.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
  const { rowCount } = await client.query(`SELECT 1 FROM ${table} LIMIT 1`);
  if (rowCount) throw new CatalogNotEmptyError();
  await client.query(`TRUNCATE ${table}`);
}

interface Loader {
  clients: pg.Client[];
  writers: Array<CopyWriter | BinaryCopyWriter<PersonRow>>;
}

/**
 * Generates the demo catalog for `seed` and bulk-loads it with COPY FREEZE into an empty
 * catalog. Companies, people and contact points load at the same time on three
 * connections from one generating loop: Node generating and one server process parsing
 * people (jsonb above all) cost about the same, so together they keep both cores of a
 * small machine busy. All tables commit together at the end; on failure nothing stays
 * loaded.
 * Large loads drop the search indexes first and build them afterwards, two at a time.
 */
export async function seedCatalog(db: Database, options: SeedOptions): Promise<SeedResult> {
  const started = performance.now();
  assertCount('companies', options.companies);
  assertCount('people', options.people);
  if (!Number.isSafeInteger(options.seed)) throw new RangeError(`seed must be an integer, got ${options.seed}`);
  if (options.people > 0 && options.companies === 0)
    throw new RangeError('people need at least one company to work at');
  if (!(await isCatalogEmpty(db))) throw new CatalogNotEmptyError();

  const progress = options.onProgress ?? (() => undefined);
  const definitions = await readSearchIndexDefinitions();
  const rebuild = options.rebuildIndexes ?? options.companies + options.people >= REBUILD_THRESHOLD_ROWS;
  if (rebuild) {
    const existing = await existingIndexes(db.pool);
    for (const definition of definitions) {
      if (existing.has(definition.name)) await db.pool.query(`DROP INDEX IF EXISTS ${definition.name}`);
    }
  }

  const loader: Loader = { clients: [], writers: [] };
  const open = async <Row>(table: Table<Row, unknown>): Promise<CopyWriter> => {
    const client = await openClient(db);
    loader.clients.push(client);
    await truncateForFreeze(client, table.name);
    const writer = CopyWriter.open(client, table.name, table.columns, 'FREEZE');
    loader.writers.push(writer);
    return writer;
  };
  const openPeople = async (): Promise<BinaryCopyWriter<PersonRow>> => {
    const client = await openClient(db);
    loader.clients.push(client);
    await truncateForFreeze(client, peopleTable.name);
    const writer = BinaryCopyWriter.open(client, peopleTable, 'FREEZE');
    loader.writers.push(writer);
    return writer;
  };

  let contacts = 0;
  try {
    const companyWriter = await open(companiesTable);
    const companyGenerator = createCompanyGenerator(options.seed);
    let nextCompany = 1;
    const companiesUpTo = async (last: number): Promise<void> => {
      for (; nextCompany <= last; nextCompany++) {
        companyWriter.append(companiesTable.copyLine(companyGenerator.company(nextCompany)));
        if (companyWriter.full) await companyWriter.flush();
        if (nextCompany % PROGRESS_EVERY === 0)
          progress({ table: 'companies', done: nextCompany, total: options.companies });
      }
    };

    if (options.people > 0) {
      const peopleWriter = await openPeople();
      const contactWriter = await open(personContactsTable);
      const generator = createPeopleGenerator(options.seed, options.companies, companyGenerator);
      // One loop feeds all three COPY streams, companies in step with people, so that every
      // server process has work until the end instead of one table finishing alone.
      for (let id = 1; id <= options.people; id++) {
        const { person, contacts: points } = generator.person(id);
        peopleWriter.append(person);
        for (const point of points) contactWriter.append(personContactsTable.copyLine({ ...point, source: 'dataset' }));
        if (peopleWriter.full) await peopleWriter.flush();
        if (contactWriter.full) await contactWriter.flush();
        const companiesDue = Math.floor((id * options.companies) / options.people);
        if (companiesDue >= nextCompany) await companiesUpTo(companiesDue);
        if (id % PROGRESS_EVERY === 0) progress({ table: 'people', done: id, total: options.people });
      }
      await Promise.all([peopleWriter.end(), contactWriter.end()]);
      contacts = contactWriter.rows;
      progress({ table: 'people', done: options.people, total: options.people });
    }
    await companiesUpTo(options.companies);
    await companyWriter.end();
    progress({ table: 'companies', done: options.companies, total: options.companies });
    for (const client of loader.clients) await client.query('COMMIT');
  } catch (error) {
    for (const writer of loader.writers) writer.abort(error instanceof Error ? error : new Error(String(error)));
    await Promise.all(loader.clients.map((c) => c.query('ROLLBACK').catch(() => undefined)));
    if (rebuild) await createSearchIndexes(db, definitions).catch(() => undefined);
    throw error;
  } finally {
    await Promise.all(loader.clients.map((c) => c.end().catch(() => undefined)));
  }

  if (rebuild) {
    const rows = { companies: options.companies, people: options.people, person_contacts: contacts };
    await createSearchIndexes(db, definitions, {
      rows,
      maintenanceWorkMem: options.maintenanceWorkMem ?? '256MB',
      onBuilt: (done, total) => progress({ table: 'indexes', done, total }),
    });
  }
  let analyzed = 0;
  const queue: string[] = [...CATALOG_TABLES];
  await Promise.all(
    [0, 1].map(async () => {
      for (let table = queue.shift(); table; table = queue.shift()) {
        await db.pool.query(`ANALYZE ${table}`);
        progress({ table: 'analyze', done: ++analyzed, total: CATALOG_TABLES.length });
      }
    }),
  );
  await refreshCatalogSize(db.pool);

  return {
    companies: options.companies,
    people: options.people,
    contacts,
    milliseconds: Math.round(performance.now() - started),
  };
}
