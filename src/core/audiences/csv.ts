/**
 * CSV as RFC 4180 says: fields separated by commas, records ended by CRLF, a field quoted
 * when it holds a comma, a double quote, CR or LF, and quotes inside doubled. UTF-8, with no BOM
 * unless the export asks for one (`utf8Bom`: a BOM would become part of the first header name for
 * strict readers, and without one Excel reads the file in the machine's legacy code page).
 *
 * Spreadsheet formula injection, as OWASP advises: a cell starting with `=`, `+`, `-`, `@`, a tab
 * or CR is prefixed with a single quote, so a spreadsheet shows it instead of evaluating it, unless
 * it is a plain number (`-42`, `3.5e2`, and phone numbers stored as `+14155550100`). `-1-1` or
 * `+1 (415) 555-0100` is not a plain number: a spreadsheet would compute the first.
 */
const plainNumber = /^[+-]?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?$/;

export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) && !plainNumber.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvRecord(values: readonly string[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** The UTF-8 byte-order mark, as the first character of a file written for spreadsheets. */
export const utf8ByteOrderMark = '\uFEFF';

/** Several values in one cell (domains, tags, emails). */
export const listSeparator = '; ';
