// CSV: dotted column names for nested fields, ";"-separated lists, JSON for lists of objects.

export type CsvKind = 'string' | 'number' | 'list' | 'json';

export const COMPANY_CSV_COLUMNS: Readonly<Record<string, CsvKind>> = {
  id: 'number',
  preferred_name: 'string',
  description: 'string',
  domains: 'list',
  network_primary_slug: 'string',
  network_org_id: 'string',
  standard_industries: 'list',
  'employee_count_consensus.min': 'number',
  'employee_count_consensus.max': 'number',
  'location_consensus.city': 'string',
  'location_consensus.country_code': 'string',
  'location_consensus.state_name': 'string',
  'total_funding_consensus.usd': 'number',
  last_funding_usd: 'number',
  last_funded_on: 'string',
  founded_on: 'string',
  stage: 'string',
  special_flags: 'list',
};

export const PERSON_CSV_COLUMNS: Readonly<Record<string, CsvKind>> = {
  id: 'number',
  first_name: 'string',
  last_name: 'string',
  title: 'string',
  headline: 'string',
  'location.city': 'string',
  'location.country_code': 'string',
  'current_company.name': 'string',
  'current_company.network_slug': 'string',
  'current_company.domain': 'string',
  languages: 'json',
  years_experience: 'number',
  tags: 'list',
  education: 'json',
  work_experiences: 'json',
  network_slug: 'string',
  network_user_id: 'string',
  'contacts.work_emails': 'list',
  'contacts.personal_emails': 'list',
  'contacts.phones': 'list',
};

export interface CsvRecord {
  /** Line on which the record starts (1-based; quoted fields may span lines). */
  line: number;
  fields: string[];
  error?: string;
}

/**
 * An RFC 4180 reader over a stream of text chunks: comma-separated fields, double-quoted
 * fields that may hold commas, line breaks and doubled quotes (""), CRLF or LF line ends.
 * A leading byte-order mark is skipped; a quote inside an unquoted field is kept as is.
 */
export async function* readCsvRecords(chunks: AsyncIterable<string>): AsyncGenerator<CsvRecord> {
  let fields: string[] = [];
  let field = '';
  let inQuotes = false;
  let afterQuote = false;
  let line = 1;
  let recordLine = 1;
  let first = true;
  let pendingCr = false;
  for await (let chunk of chunks) {
    if (first) {
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
      first = false;
    }
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i] as string;
      if (pendingCr) {
        pendingCr = false;
        if (c === '\n') continue; // the LF of a CRLF already ended the record
      }
      if (inQuotes) {
        if (c === '"') {
          if (chunk[i + 1] === '"') {
            field += '"';
            i++;
          } else if (i + 1 === chunk.length) {
            // Can't see past the chunk: decide on the next character.
            inQuotes = false;
            afterQuote = true;
          } else {
            inQuotes = false;
            afterQuote = true;
          }
        } else {
          if (c === '\n') line++;
          field += c;
        }
        continue;
      }
      if (afterQuote && c === '"') {
        // A doubled quote split across two chunks.
        field += '"';
        inQuotes = true;
        afterQuote = false;
        continue;
      }
      afterQuote = false;
      if (c === ',') {
        fields.push(field);
        field = '';
      } else if (c === '\n' || c === '\r') {
        fields.push(field);
        if (!(fields.length === 1 && fields[0] === '')) yield { line: recordLine, fields };
        fields = [];
        field = '';
        line++;
        recordLine = line;
        pendingCr = c === '\r';
      } else if (c === '"' && field.length === 0) {
        inQuotes = true;
      } else {
        field += c;
      }
    }
  }
  if (inQuotes) {
    fields.push(field);
    yield { line: recordLine, fields, error: 'unterminated quoted field' };
  } else if (field.length > 0 || fields.length > 0) {
    fields.push(field);
    yield { line: recordLine, fields };
  }
}

function setPath(target: Record<string, unknown>, dotted: string, value: unknown): void {
  const parts = dotted.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (typeof next === 'object' && next !== null) node = next as Record<string, unknown>;
    else {
      const created: Record<string, unknown> = {};
      node[part] = created;
      node = created;
    }
  }
  node[parts[parts.length - 1] as string] = value;
}

/** Turns CSV cells into the JSON shape the schema expects; empty cells are left out. */
export function csvToObject(
  header: readonly string[],
  kinds: readonly CsvKind[],
  fields: readonly string[],
): { value: Record<string, unknown>; problems: string[] } {
  const value: Record<string, unknown> = {};
  const problems: string[] = [];
  header.forEach((column, i) => {
    const raw = fields[i] ?? '';
    if (raw.trim() === '') return;
    const kind = kinds[i] as CsvKind;
    let converted: unknown = raw;
    if (kind === 'number') converted = /^\s*-?\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : raw;
    else if (kind === 'list')
      converted = raw
        .split(';')
        .map((s) => s.trim())
        .filter(Boolean);
    else if (kind === 'json') {
      try {
        converted = JSON.parse(raw);
      } catch {
        problems.push(`${column}: invalid JSON (lists of objects are JSON in CSV cells)`);
        return;
      }
    }
    setPath(value, column, converted);
  });
  return { value, problems };
}
