import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { CopyStreamQuery } from 'pg-copy-streams';
import type { Database, Queryable } from '../store/db.js';
import { readMigrations } from '../store/migrate.js';
import {
  assertReferenceIsEscapeFree,
  createCompanyGenerator,
  createPeopleGenerator,
  educationJson,
  generatedCompanyLine,
  languagesJson,
  workExperiencesJson,
  type PersonRow,
} from './generate.js';

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

export const CATALOG_TABLES = ['companies', 'people', 'person_contacts'] as const;

const REBUILD_THRESHOLD_ROWS = 100_000;
// Rows are gathered into chunks of about this many characters before a socket write.
const CHUNK_CHARS = 256 * 1024;
const PROGRESS_EVERY = 25_000;

// ---------------------------------------------------------------------------------------
// COPY text format

const NEEDS_COPY_ESCAPE = /[\\\t\n\r]/;
const NEEDS_ARRAY_QUOTE_ESCAPE = /["\\]/;

/** A text value for COPY's text format: backslash, tab, newline and CR are escaped. */
export function copyText(value: string | null | undefined): string {
  if (value === null || value === undefined) return '\\N';
  if (!NEEDS_COPY_ESCAPE.test(value)) return value;
  return value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

export function copyNumber(value: number | null | undefined): string {
  return value === null || value === undefined ? '\\N' : String(value);
}

/** A text[] value: an array literal with every element quoted, then escaped for COPY. */
export function copyArray(values: readonly string[] | null | undefined): string {
  if (values === null || values === undefined) return '\\N';
  let literal = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as string;
    if (i > 0) literal += ',';
    literal += NEEDS_ARRAY_QUOTE_ESCAPE.test(v) ? `"${v.replace(/["\\]/g, '\\$&')}"` : `"${v}"`;
  }
  return copyText(`${literal}}`);
}

export function copyJson(value: unknown): string {
  return value === null || value === undefined ? '\\N' : copyText(JSON.stringify(value));
}

/** The columns of `companies` a load writes, in COPY order (never the generated tsvector). */
export const COMPANY_COLUMNS = [
  'id',
  'preferred_name',
  'description',
  'domains',
  'tlds',
  'network_primary_slug',
  'network_org_id',
  'standard_industries',
  'employee_count_min',
  'employee_count_max',
  'city',
  'state_name',
  'country_code',
  'location_text',
  'total_funding_usd',
  'last_funding_usd',
  'last_funded_on',
  'founded_on',
  'stage',
  'special_flags',
] as const;

export const PERSON_COLUMNS = [
  'id',
  'first_name',
  'last_name',
  'title',
  'headline',
  'city',
  'country_code',
  'country3',
  'company_id',
  'company_name',
  'company_slug',
  'company_domain',
  'network_slug',
  'network_user_id',
  'years_experience',
  'tags',
  'languages',
  'degree_types',
  'schools',
  'education',
  'work_experiences',
] as const;

export const CONTACT_COLUMNS = ['person_id', 'kind', 'value', 'source'] as const;

/** A company as stored: the generator's rows, and imported ones with their gaps. */
export interface CompanyRecord {
  id: number;
  preferred_name: string;
  description: string;
  domains: readonly string[];
  tlds: readonly string[];
  network_primary_slug: string | null;
  network_org_id: number | null;
  standard_industries: readonly string[];
  employee_count_min: number | null;
  employee_count_max: number | null;
  city: string | null;
  state_name: string | null;
  country_code: string | null;
  location_text: string | null;
  total_funding_usd: number | null;
  last_funding_usd: number | null;
  last_funded_on: string | null;
  founded_on: string | null;
  stage: string | null;
  special_flags: readonly string[];
}

export interface PersonRecord {
  id: number;
  first_name: string;
  last_name: string;
  title: string | null;
  headline: string | null;
  city: string | null;
  country_code: string | null;
  country3: string | null;
  company_id: number | null;
  company_name: string | null;
  company_slug: string | null;
  company_domain: string | null;
  network_slug: string | null;
  network_user_id: number | null;
  years_experience: number | null;
  tags: readonly string[];
  languages: unknown;
  degree_types: readonly string[];
  schools: readonly string[];
  education: unknown;
  work_experiences: unknown;
}

export function companyCopyLine(c: CompanyRecord): string {
  return (
    `${c.id}\t${copyText(c.preferred_name)}\t${copyText(c.description)}\t${copyArray(c.domains)}\t${copyArray(c.tlds)}\t` +
    `${copyText(c.network_primary_slug)}\t${copyNumber(c.network_org_id)}\t${copyArray(c.standard_industries)}\t` +
    `${copyNumber(c.employee_count_min)}\t${copyNumber(c.employee_count_max)}\t${copyText(c.city)}\t${copyText(c.state_name)}\t` +
    `${copyText(c.country_code)}\t${copyText(c.location_text)}\t${copyNumber(c.total_funding_usd)}\t${copyNumber(c.last_funding_usd)}\t` +
    `${copyText(c.last_funded_on)}\t${copyText(c.founded_on)}\t${copyText(c.stage)}\t${copyArray(c.special_flags)}\n`
  );
}

export function personCopyLine(p: PersonRecord): string {
  return (
    `${p.id}\t${copyText(p.first_name)}\t${copyText(p.last_name)}\t${copyText(p.title)}\t${copyText(p.headline)}\t` +
    `${copyText(p.city)}\t${copyText(p.country_code)}\t${copyText(p.country3)}\t${copyNumber(p.company_id)}\t` +
    `${copyText(p.company_name)}\t${copyText(p.company_slug)}\t${copyText(p.company_domain)}\t${copyText(p.network_slug)}\t` +
    `${copyNumber(p.network_user_id)}\t${copyNumber(p.years_experience)}\t${copyArray(p.tags)}\t${copyJson(p.languages)}\t` +
    `${copyArray(p.degree_types)}\t${copyArray(p.schools)}\t${copyJson(p.education)}\t${copyJson(p.work_experiences)}\n`
  );
}

export function contactCopyLine(personId: number, kind: string, value: string, source = 'dataset'): string {
  return `${personId}\t${copyText(kind)}\t${copyText(value)}\t${copyText(source)}\n`;
}

/** A COPY ... FROM STDIN writer that batches lines and respects the socket's backpressure. */
export class CopyWriter {
  private buffer = '';
  private failure: Error | null = null;
  rows = 0;

  constructor(private readonly stream: CopyStreamQuery) {
    // The server's refusal (or our own abort) arrives as an 'error' event, possibly while
    // nothing is waiting on the stream; keep it for the next write instead of crashing.
    stream.on('error', (error: Error) => {
      this.failure ??= error;
    });
  }

  static open(client: pg.ClientBase, table: string, columns: readonly string[], options = ''): CopyWriter {
    const sql = `COPY ${table} (${columns.join(', ')}) FROM STDIN${options ? ` WITH (${options})` : ''}`;
    return new CopyWriter(client.query(copyFrom(sql)));
  }

  /** Adds one line; resolves at once unless a full chunk had to wait for the socket. */
  async write(line: string): Promise<void> {
    this.buffer += line;
    this.rows++;
    if (this.buffer.length >= CHUNK_CHARS) await this.flush();
  }

  /** Whether the next write would flush; lets tight loops skip an await per row. */
  get full(): boolean {
    return this.buffer.length >= CHUNK_CHARS;
  }

  append(line: string): void {
    this.buffer += line;
    this.rows++;
  }

  async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.buffer.length === 0) return;
    const chunk = this.buffer;
    this.buffer = '';
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }

  async end(): Promise<void> {
    await this.flush();
    if (this.failure) throw this.failure;
    this.stream.end();
    await finished(this.stream);
  }

  abort(error: Error): void {
    this.failure ??= error;
    if (!this.stream.destroyed) this.stream.destroy(error);
  }
}

/**
 * COPY in binary format for generated people. The server parses text arrays and numbers
 * noticeably faster from their binary form, and parsing is what limits a large load;
 * jsonb is sent as its (version 1) text form either way. Rows are encoded straight into a
 * buffer that is handed to the socket when full.
 */
export class BinaryPeopleWriter {
  private static readonly SIZE = 1 << 20;
  // Room for any generated row: its strings are short and bounded in number.
  private static readonly ROW_ROOM = 64 * 1024;
  private buffer = Buffer.allocUnsafe(BinaryPeopleWriter.SIZE);
  private offset = 0;
  private failure: Error | null = null;
  rows = 0;

  private constructor(private readonly stream: CopyStreamQuery) {
    stream.on('error', (error: Error) => {
      this.failure ??= error;
    });
    this.buffer.write('PGCOPY\n\xff\r\n\0', 0, 'latin1');
    this.buffer.writeInt32BE(0, 11); // flags
    this.buffer.writeInt32BE(0, 15); // header extension length
    this.offset = 19;
  }

  static open(client: pg.ClientBase, options = ''): BinaryPeopleWriter {
    const sql = `COPY people (${PERSON_COLUMNS.join(', ')}) FROM STDIN WITH (FORMAT binary${options ? `, ${options}` : ''})`;
    return new BinaryPeopleWriter(client.query(copyFrom(sql)));
  }

  get full(): boolean {
    return this.offset > BinaryPeopleWriter.SIZE - BinaryPeopleWriter.ROW_ROOM;
  }

  person(p: PersonRow): void {
    this.int16(PERSON_COLUMNS.length);
    this.int64(p.id);
    this.text(p.first_name);
    this.text(p.last_name);
    this.text(p.title);
    this.text(p.headline);
    this.text(p.city);
    this.text(p.country_code);
    this.text(p.country3);
    this.int64(p.company_id);
    this.text(p.company_name);
    this.text(p.company_slug);
    this.text(p.company_domain);
    this.text(p.network_slug);
    this.int64(p.network_user_id);
    this.int32(p.years_experience);
    this.textArray(p.tags);
    this.jsonb(languagesJson(p.languages));
    this.textArray(p.degree_types);
    this.textArray(p.schools);
    this.jsonb(educationJson(p.education));
    this.jsonb(workExperiencesJson(p.work_experiences));
    this.rows++;
  }

  async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.offset === 0) return;
    const chunk = this.buffer.subarray(0, this.offset);
    this.buffer = Buffer.allocUnsafe(BinaryPeopleWriter.SIZE);
    this.offset = 0;
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }

  async end(): Promise<void> {
    this.int16(-1);
    await this.flush();
    this.stream.end();
    await finished(this.stream);
  }

  abort(error: Error): void {
    this.failure ??= error;
    if (!this.stream.destroyed) this.stream.destroy(error);
  }

  private int16(value: number): void {
    this.offset = this.buffer.writeInt16BE(value, this.offset);
  }

  private int32(value: number): void {
    this.offset = this.buffer.writeInt32BE(4, this.offset);
    this.offset = this.buffer.writeInt32BE(value, this.offset);
  }

  private int64(value: number): void {
    this.offset = this.buffer.writeInt32BE(8, this.offset);
    this.offset = this.buffer.writeInt32BE(Math.floor(value / 4294967296), this.offset);
    this.offset = this.buffer.writeUInt32BE(value >>> 0, this.offset);
  }

  /** Length-prefixed UTF-8 text; the prefix is filled in once the byte length is known. */
  private text(value: string): void {
    const bytes = this.buffer.write(value, this.offset + 4);
    this.buffer.writeInt32BE(bytes, this.offset);
    this.offset += 4 + bytes;
  }

  private jsonb(json: string): void {
    const bytes = this.buffer.write(json, this.offset + 5);
    this.buffer.writeInt32BE(bytes + 1, this.offset);
    this.buffer[this.offset + 4] = 1; // jsonb format version
    this.offset += 5 + bytes;
  }

  /** A one-dimensional text[]: dimensions, null flag, element type (text), then the elements. */
  private textArray(values: readonly string[]): void {
    const start = this.offset;
    this.offset += 4;
    this.offset = this.buffer.writeInt32BE(values.length === 0 ? 0 : 1, this.offset);
    this.offset = this.buffer.writeInt32BE(0, this.offset);
    this.offset = this.buffer.writeInt32BE(TEXT_OID, this.offset);
    if (values.length > 0) {
      this.offset = this.buffer.writeInt32BE(values.length, this.offset);
      this.offset = this.buffer.writeInt32BE(1, this.offset);
      for (const value of values) this.text(value);
    }
    this.buffer.writeInt32BE(this.offset - start - 4, start);
  }
}

const TEXT_OID = 25;

// ---------------------------------------------------------------------------------------
// Search indexes

export interface IndexDefinition {
  name: string;
  table: string;
  sql: string;
}


/**
 * The indexes of the catalog tables as the migrations leave them (each CREATE INDEX, less those
 * a later migration drops), read from the migration files so that the definitions live in one
 * place.
 */
export async function readSearchIndexDefinitions(): Promise<IndexDefinition[]> {
  const definitions = new Map<string, IndexDefinition>();
  for (const { sql } of await readMigrations()) {
    const statements = sql
      .split('\n')
      .filter((line) => !line.trim().startsWith('--'))
      .join('\n')
      .split(';')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const statement of statements) {
      const dropped = /^DROP\s+INDEX\s+(?:IF\s+EXISTS\s+)?(\w+)/i.exec(statement);
      if (dropped) definitions.delete(dropped[1] as string);
      const match = /^CREATE\s+(?:UNIQUE\s+)?INDEX\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)\s+ON\s+(?:ONLY\s+)?(\w+)/i.exec(statement);
      if (!match) continue;
      const [, name, table] = match as unknown as [string, string, string];
      if (!(CATALOG_TABLES as readonly string[]).includes(table)) continue;
      definitions.set(name, {
        name,
        table,
        sql: statement.replace(/^CREATE\s+(UNIQUE\s+)?INDEX\s+(?:IF\s+NOT\s+EXISTS\s+)?/i, (_m, unique: string | undefined) => `CREATE ${unique ?? ''}INDEX IF NOT EXISTS `),
      });
    }
  }
  return [...definitions.values()];
}

async function existingIndexes(db: Queryable): Promise<Set<string>> {
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
  options: { parallelism?: number; rows?: Readonly<Record<string, number>>; maintenanceWorkMem?: string; onBuilt?: (done: number, total: number) => void } = {},
): Promise<void> {
  const rows = options.rows ?? {};
  const queue = [...definitions].sort((a, b) => indexCost(b, rows) - indexCost(a, rows));
  const total = queue.length;
  let done = 0;
  const worker = async (): Promise<void> => {
    const client = await db.pool.connect();
    try {
      if (options.maintenanceWorkMem) await client.query(`SET maintenance_work_mem = '${options.maintenanceWorkMem.replace(/'/g, '')}'`);
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

/** Creates whichever search indexes of the catalog tables are missing. */
export async function ensureSearchIndexes(db: Database): Promise<string[]> {
  const existing = await existingIndexes(db.pool);
  const missing = (await readSearchIndexDefinitions()).filter((d) => !existing.has(d.name));
  await createSearchIndexes(db, missing);
  return missing.map((d) => d.name);
}

// ---------------------------------------------------------------------------------------
// Seeding

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
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
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
  writers: Array<CopyWriter | BinaryPeopleWriter>;
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
  if (options.people > 0 && options.companies === 0) throw new RangeError('people need at least one company to work at');
  if (!(await isCatalogEmpty(db))) throw new CatalogNotEmptyError();
  assertReferenceIsEscapeFree();

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
  const open = async (table: string, columns: readonly string[]): Promise<CopyWriter> => {
    const client = await openClient(db);
    loader.clients.push(client);
    await truncateForFreeze(client, table);
    const writer = CopyWriter.open(client, table, columns, 'FREEZE');
    loader.writers.push(writer);
    return writer;
  };
  const openPeople = async (): Promise<BinaryPeopleWriter> => {
    const client = await openClient(db);
    loader.clients.push(client);
    await truncateForFreeze(client, 'people');
    const writer = BinaryPeopleWriter.open(client, 'FREEZE');
    loader.writers.push(writer);
    return writer;
  };

  let contacts = 0;
  try {
    const companyWriter = await open('companies', COMPANY_COLUMNS);
    const companyGenerator = createCompanyGenerator(options.seed);
    let nextCompany = 1;
    const companiesUpTo = async (last: number): Promise<void> => {
      for (; nextCompany <= last; nextCompany++) {
        companyWriter.append(generatedCompanyLine(companyGenerator.company(nextCompany)));
        if (companyWriter.full) await companyWriter.flush();
        if (nextCompany % PROGRESS_EVERY === 0) progress({ table: 'companies', done: nextCompany, total: options.companies });
      }
    };

    if (options.people > 0) {
      const peopleWriter = await openPeople();
      const contactWriter = await open('person_contacts', CONTACT_COLUMNS);
      const generator = createPeopleGenerator(options.seed, options.companies, companyGenerator);
      // One loop feeds all three COPY streams, companies in step with people, so that every
      // server process has work until the end instead of one table finishing alone.
      for (let id = 1; id <= options.people; id++) {
        const { person, contacts: points } = generator.person(id);
        peopleWriter.person(person);
        for (const point of points) contactWriter.append(contactCopyLine(point.person_id, point.kind, point.value));
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

  return {
    companies: options.companies,
    people: options.people,
    contacts,
    milliseconds: Math.round(performance.now() - started),
  };
}
