/*
 * Values in COPY's text format: fields separated by tabs, NULL written \N, and backslash, tab,
 * newline and carriage return escaped inside values.
 */

const NEEDS_COPY_ESCAPE = /[\\\t\n\r]/;
const NEEDS_ARRAY_QUOTE_ESCAPE = /["\\]/;

export const COPY_NULL = '\\N';

/** A text value: backslash, tab, newline and CR are escaped. */
export function copyText(value: string | null | undefined): string {
  if (value === null || value === undefined) return COPY_NULL;
  if (!NEEDS_COPY_ESCAPE.test(value)) return value;
  return value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

export function copyNumber(value: number | null | undefined): string {
  return value === null || value === undefined ? COPY_NULL : String(value);
}

/** A text[] value: an array literal with every element quoted, then escaped for COPY. */
export function copyArray(values: readonly string[] | null | undefined): string {
  if (values === null || values === undefined) return COPY_NULL;
  let literal = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as string;
    if (i > 0) literal += ',';
    literal += NEEDS_ARRAY_QUOTE_ESCAPE.test(v) ? `"${v.replace(/["\\]/g, '\\$&')}"` : `"${v}"`;
  }
  return copyText(`${literal}}`);
}

export function copyJson(value: unknown): string {
  return value === null || value === undefined ? COPY_NULL : copyText(JSON.stringify(value));
}
