import { stat } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { refreshCatalogSize } from '../../core/catalog-size.js';
import type { Database } from '../../store/db.js';
import { companiesTable } from '../../store/tables/companies.js';
import { copyText } from '../../store/tables/copy-text.js';
import { CopyWriter } from '../../store/tables/copy-writers.js';
import { peopleTable } from '../../store/tables/people.js';
import {
  ImportFileError,
  type ImportFormat,
  type ImportKind,
  type ImportRejection,
  type ImportResult,
} from './results.js';
import { companyImportSchema, personImportSchema, type CompanyImport, type PersonImport } from './schemas.js';
import { readCsvRows, readJsonLines, type SourceRow } from './sources.js';
import {
  COMPANY_FIELDS,
  NOT_NULL_DEFAULTS,
  PERSON_FIELDS,
  formatIssues,
  presenceMask,
  toCompanyRow,
  toPersonRow,
} from './to-rows.js';

/*
 * Operators load their own companies and people from JSON Lines or CSV files. Each row is
 * validated on its own: bad rows are reported with their line number and skipped, good
 * rows are streamed with COPY into a temporary table and merged into the catalog in one
 * transaction. Rows with an existing id update that record; fields a row leaves out (or
 * CSV cells left empty) keep their stored value. Rows without an id get new ids after the
 * largest one in use.
 *
 * The steps, one file each: sources.ts reads rows from the file (csv.ts parses CSV),
 * schemas.ts validates them, to-rows.ts turns them into table rows, and import-file.ts loads
 * them; results.ts is what the caller gets back.
 */

export function detectFormat(file: string, format?: string): ImportFormat {
  const chosen = format ?? (/\.(jsonl|ndjson|json)$/i.test(file) ? 'jsonl' : /\.csv$/i.test(file) ? 'csv' : undefined);
  if (chosen === 'jsonl' || chosen === 'csv') return chosen;
  if (format !== undefined) throw new ImportFileError(`unknown format "${format}": use jsonl or csv`);
  throw new ImportFileError(
    `cannot tell the format of ${path.basename(file)} from its extension: pass --format jsonl or --format csv`,
  );
}

export interface ImportOptions {
  kind: ImportKind;
  file: string;
  format?: ImportFormat;
  /** Called every few thousand rows. */
  onProgress?: (progress: { read: number; rejected: number }) => void;
}

/**
 * Imports a JSON Lines or CSV file of companies or people. Throws ImportFileError when the
 * file cannot be used at all; bad rows are reported in `rejected` and the rest is loaded.
 */
export async function importFile(db: Database, options: ImportOptions): Promise<ImportResult> {
  const started = performance.now();
  const format = detectFormat(options.file, options.format);
  try {
    const info = await stat(options.file);
    if (!info.isFile()) throw new ImportFileError(`${options.file} is not a file`);
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    throw new ImportFileError(`cannot read ${options.file}: ${(error as Error).message}`);
  }
  const rows = format === 'jsonl' ? readJsonLines(options.file) : readCsvRows(options.file, options.kind);
  const result = await importRows(db, options.kind, rows, options.onProgress);
  await refreshCatalogSize(db.pool);
  return { ...result, milliseconds: Math.round(performance.now() - started) };
}

const IMPORT_TABLE = { companies: 'import_companies', people: 'import_people' } as const;

async function importRows(
  db: Database,
  kind: ImportKind,
  rows: AsyncIterable<SourceRow>,
  onProgress?: (progress: { read: number; rejected: number }) => void,
): Promise<ImportResult> {
  const client = new pg.Client(db.pool.options);
  client.on('error', () => undefined);
  await client.connect();
  const rejected: ImportRejection[] = [];
  let read = 0;
  let valid = 0;
  let contactRows = 0;
  const linesOfIds = new Map<number, number>();
  const table = IMPORT_TABLE[kind];
  const target = kind;
  const columns = kind === 'companies' ? companiesTable.columns : peopleTable.columns;
  const fields = kind === 'companies' ? COMPANY_FIELDS : PERSON_FIELDS;
  let writer: CopyWriter | null = null;
  let contactWriter: CopyWriter | null = null;
  try {
    await client.query('BEGIN');
    // Ids are handed out after the largest one in use: no other import may do the same meanwhile.
    await client.query(`LOCK TABLE ${target} IN SHARE ROW EXCLUSIVE MODE`);
    await client.query(
      `CREATE TEMP TABLE ${table} ON COMMIT DROP AS SELECT ${columns.join(', ')} FROM ${target} WITH NO DATA`,
    );
    await client.query(`ALTER TABLE ${table} ADD COLUMN line integer, ADD COLUMN present integer`);
    writer = CopyWriter.open(client, table, [...columns, 'line', 'present']);
    // Contact points wait here, keyed by line, until the people's COPY is done and they have ids.
    const contactLines: string[] = [];

    for await (const source of rows) {
      read++;
      if (read % 10_000 === 0) onProgress?.({ read, rejected: rejected.length });
      if (source.problems.length > 0) {
        rejected.push({ line: source.line, problems: source.problems });
        continue;
      }
      const parsed = (kind === 'companies' ? companyImportSchema : personImportSchema).safeParse(source.value);
      if (!parsed.success) {
        rejected.push({ line: source.line, problems: formatIssues(parsed.error) });
        continue;
      }
      const data = parsed.data as Record<string, unknown> & { id?: number };
      if (data.id !== undefined) {
        const earlier = linesOfIds.get(data.id);
        if (earlier !== undefined) {
          rejected.push({ line: source.line, problems: [`id: ${data.id} already appears on line ${earlier}`] });
          continue;
        }
        linesOfIds.set(data.id, source.line);
      }
      const mask = presenceMask(data, fields);
      const line =
        kind === 'companies'
          ? companiesTable.copyFields(toCompanyRow(parsed.data as CompanyImport))
          : peopleTable.copyFields(toPersonRow(parsed.data as PersonImport));
      valid++;
      await writer.write(`${line}\t${source.line}\t${mask}\n`);
      if (kind === 'people') {
        const contacts = (parsed.data as PersonImport).contacts;
        for (const [contactKind, values] of [
          ['work_email', contacts?.work_emails],
          ['personal_email', contacts?.personal_emails],
          ['phone', contacts?.phones],
        ] as const) {
          for (const value of values ?? []) contactLines.push(`${source.line}\t${contactKind}\t${copyText(value)}\n`);
        }
      }
    }
    await writer.end();
    writer = null;

    if (valid === 0) {
      await client.query('ROLLBACK');
      return { kind, read, inserted: 0, updated: 0, rejected, contacts: 0, companiesResolved: 0, milliseconds: 0 };
    }

    // New rows get ids after the largest in use, in file order.
    await client.query(
      `WITH base AS (SELECT greatest((SELECT coalesce(max(id), 0) FROM ${target}), (SELECT coalesce(max(id), 0) FROM ${table})) AS top),
            numbered AS (SELECT line, row_number() OVER (ORDER BY line) AS n FROM ${table} WHERE id IS NULL)
       UPDATE ${table} t SET id = base.top + numbered.n FROM base, numbered WHERE t.line = numbered.line`,
    );

    let companiesResolved = 0;
    if (kind === 'people') {
      const bit = 1 << PERSON_FIELDS.findIndex(([field]) => field === 'current_company');
      await client.query(
        `UPDATE ${table} t SET company_id = coalesce(
             (SELECT c.id FROM companies c WHERE t.company_slug IS NOT NULL AND c.network_primary_slug = t.company_slug ORDER BY c.id LIMIT 1),
             (SELECT c.id FROM companies c WHERE t.company_domain IS NOT NULL AND c.domains @> ARRAY[t.company_domain] ORDER BY c.id LIMIT 1))
         WHERE t.present & ${bit} <> 0`,
      );
      const filled = await client.query(
        `UPDATE ${table} t SET company_name = coalesce(t.company_name, c.preferred_name),
                               company_slug = coalesce(t.company_slug, c.network_primary_slug),
                               company_domain = coalesce(t.company_domain, c.domains[1])
           FROM companies c WHERE c.id = t.company_id`,
      );
      companiesResolved = filled.rowCount ?? 0;
    }

    const assignments = fields
      .flatMap(([, cols], bit) =>
        cols.map((column) => {
          const incoming =
            column in NOT_NULL_DEFAULTS
              ? `coalesce(t.${column}, ${NOT_NULL_DEFAULTS[column as keyof typeof NOT_NULL_DEFAULTS]})`
              : `t.${column}`;
          return `${column} = CASE WHEN t.present & ${1 << bit} <> 0 THEN ${incoming} ELSE c.${column} END`;
        }),
      )
      .join(',\n ');
    const updated = await client.query(
      `UPDATE ${target} c SET ${assignments}, updated_at = now() FROM ${table} t WHERE c.id = t.id`,
    );
    // A column no input field writes is left to its database default on a new row.
    const imported = new Set<string>(fields.flatMap(([, cols]) => cols));
    const insertColumns = columns.filter((column) => column === 'id' || imported.has(column));
    const insertValues = insertColumns.map((column) =>
      column in NOT_NULL_DEFAULTS
        ? `coalesce(t.${column}, ${NOT_NULL_DEFAULTS[column as keyof typeof NOT_NULL_DEFAULTS]})`
        : `t.${column}`,
    );
    const inserted = await client.query(
      `INSERT INTO ${target} (${insertColumns.join(', ')})
       SELECT ${insertValues.join(', ')} FROM ${table} t
       WHERE NOT EXISTS (SELECT 1 FROM ${target} c WHERE c.id = t.id)`,
    );

    if (kind === 'people' && contactLines.length > 0) {
      await client.query(`CREATE TEMP TABLE import_contacts (line integer, kind text, value text) ON COMMIT DROP`);
      contactWriter = CopyWriter.open(client, 'import_contacts', ['line', 'kind', 'value']);
      for (const contactLine of contactLines) await contactWriter.write(contactLine);
      await contactWriter.end();
      contactWriter = null;
      const added = await client.query(
        `INSERT INTO person_contacts (person_id, kind, value, source)
         SELECT t.id, ic.kind, ic.value, 'import' FROM import_contacts ic JOIN ${table} t ON t.line = ic.line
         ON CONFLICT DO NOTHING`,
      );
      contactRows = added.rowCount ?? 0;
    }
    await client.query('COMMIT');
    return {
      kind,
      read,
      inserted: inserted.rowCount ?? 0,
      updated: updated.rowCount ?? 0,
      rejected,
      contacts: contactRows,
      companiesResolved,
      milliseconds: 0,
    };
  } catch (error) {
    writer?.abort(error instanceof Error ? error : new Error(String(error)));
    contactWriter?.abort(error instanceof Error ? error : new Error(String(error)));
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A COPY line without its trailing newline; the id column is \N for rows that get a new id. */
