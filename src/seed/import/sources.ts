import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { readCsvRecords } from '../../core/csv-reader.js';
import { COMPANY_CSV_COLUMNS, PERSON_CSV_COLUMNS, csvToObject, type CsvKind } from './csv.js';
import { ImportFileError, type ImportKind } from './results.js';

// Rows read from a JSON Lines or CSV file, with their line numbers.

/** One row of the file, parsed but not yet validated; `problems` when it could not even be parsed. */
export interface SourceRow {
  line: number;
  value: unknown;
  problems: string[];
}

export async function* readJsonLines(file: string): AsyncGenerator<SourceRow> {
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let line = 0;
  for await (const raw of lines) {
    line++;
    const textLine = line === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (textLine.trim() === '') continue;
    try {
      yield { line, value: JSON.parse(textLine), problems: [] };
    } catch (error) {
      yield { line, value: undefined, problems: [`invalid JSON: ${(error as Error).message}`] };
    }
  }
}

export async function* readCsvRows(file: string, kind: ImportKind): AsyncGenerator<SourceRow> {
  const known = kind === 'companies' ? COMPANY_CSV_COLUMNS : PERSON_CSV_COLUMNS;
  let header: string[] | null = null;
  let kinds: CsvKind[] = [];
  for await (const record of readCsvRecords(createReadStream(file, { encoding: 'utf8' }))) {
    if (header === null) {
      header = record.fields.map((f) => f.trim());
      const unknown = header.filter((column) => !(column in known));
      if (unknown.length > 0) {
        throw new ImportFileError(
          `unknown column(s) ${unknown.map((c) => `"${c}"`).join(', ')} in the header of ${file}; ` +
            `known columns for ${kind}: ${Object.keys(known).join(', ')}`,
        );
      }
      const duplicate = header.find((column, i) => header?.indexOf(column) !== i);
      if (duplicate) throw new ImportFileError(`column "${duplicate}" appears twice in the header of ${file}`);
      kinds = header.map((column) => known[column] as CsvKind);
      continue;
    }
    if (record.error) {
      yield { line: record.line, value: undefined, problems: [record.error] };
      continue;
    }
    if (record.fields.length !== header.length) {
      yield {
        line: record.line,
        value: undefined,
        problems: [`expected ${header.length} fields, found ${record.fields.length}`],
      };
      continue;
    }
    const { value, problems } = csvToObject(header, kinds, record.fields);
    yield { line: record.line, value, problems };
  }
  if (header === null) throw new ImportFileError(`${file} is empty: a CSV file needs a header row`);
}
