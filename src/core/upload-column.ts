import { readCsvText } from './csv-reader.js';

/**
 * The one column of an uploaded CSV file that holds what a list takes, as people export them from
 * a CRM or a spreadsheet: with a header row, the column whose name says what it holds (domain,
 * website, profile..., the most telling of them); without one, the first column. A header row is recognised by its name,
 * or by cells that are all words and none a value. Semicolons separate the fields when the first
 * line has more of them than commas (spreadsheets of some locales write them). Blank cells are
 * skipped; a record that is not CSV, and every row past `maxRows`, is reported with its line.
 */

export interface UploadColumn {
  values: { line: number; value: string }[];
  notRead: { line: number; value: string; reason: string }[];
}

export interface ColumnRules {
  /** Header cells naming the column to read, the most telling first: a `website` column is read before a `company` one. */
  headers: readonly RegExp[];
  /** Whether a first-row cell is a value rather than a column's name. */
  looksLikeValue: (cell: string) => boolean;
  maxRows: number;
}

const anyHeader = /^[a-z][a-z _-]*$/i;

function detectDelimiter(text: string): string {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  return (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
}

export function readUploadColumn(text: string, rules: ColumnRules): UploadColumn {
  const records = readCsvText(text, detectDelimiter(text.replace(/^\uFEFF/, '')));
  const out: UploadColumn = { values: [], notRead: [] };
  let column = 0;
  let first = 0;
  const header = records[0]?.fields.map((cell) => cell.trim()) ?? [];
  const named = rules.headers.reduce(
    (found, pattern) => (found >= 0 ? found : header.findIndex((cell) => pattern.test(cell))),
    -1,
  );
  if (named >= 0) {
    column = named;
    first = 1;
  } else if (header.length && header.every((cell) => anyHeader.test(cell) && !rules.looksLikeValue(cell))) {
    first = 1;
  }
  for (const { line, fields, error } of records.slice(first)) {
    if (error) {
      out.notRead.push({ line, value: '', reason: error });
      continue;
    }
    const value = (fields[column] ?? '').trim();
    if (!value) continue;
    if (out.values.length >= rules.maxRows) {
      out.notRead.push({ line, value: value.slice(0, 80), reason: `more than ${rules.maxRows} rows: not read` });
      break;
    }
    out.values.push({ line, value });
  }
  return out;
}
