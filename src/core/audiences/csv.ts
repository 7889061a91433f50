/**
 * CSV as RFC 4180 says: fields separated by commas, records ended by CRLF, a field quoted
 * when it holds a comma, a double quote, CR or LF, and quotes inside doubled. UTF-8, no BOM
 * (a BOM would become part of the first header name for strict readers).
 *
 * Spreadsheet formula injection: a cell starting with `=`, `@`, a tab or CR, or with `+`/`-`
 * followed by something other than a number (a phone number like +1 415... stays as is), is
 * prefixed with a single quote so that a spreadsheet shows it instead of evaluating it.
 */
export function csvField(value: string): string {
  const safe = /^[=@\t\r]/.test(value) || /^[+-](?![\d\s().-]*$)/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvRecord(values: readonly string[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** Several values in one cell (domains, tags, emails). */
export const listSeparator = '; ';
