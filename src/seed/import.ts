import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { z } from 'zod';
import type { Database } from '../store/db.js';
import { tldsOf } from './generate.js';
import {
  COMPANY_COLUMNS,
  CopyWriter,
  PERSON_COLUMNS,
  copyArray,
  copyJson,
  copyNumber,
  copyText,
  type CompanyRecord,
  type PersonRecord,
} from './load.js';
import {
  COMPANY_FLAG_SLUGS,
  DEGREE_TYPES,
  FUNDING_STAGES,
  PROFICIENCY_NAMES,
  PROSPECT_TAG_SLUGS,
  alpha3FromAlpha2,
  industryBySlug,
  ISO_COUNTRIES,
} from '../../reference/index.js';

/*
 * Operators load their own companies and people from JSON Lines or CSV files. Each row is
 * validated on its own: bad rows are reported with their line number and skipped, good
 * rows are streamed with COPY into a temporary table and merged into the catalog in one
 * transaction. Rows with an existing id update that record; fields a row leaves out (or
 * CSV cells left empty) keep their stored value. Rows without an id get new ids after the
 * largest one in use.
 */

export type ImportKind = 'companies' | 'people';
export type ImportFormat = 'jsonl' | 'csv';

export interface ImportRejection {
  line: number;
  problems: string[];
}

export interface ImportResult {
  kind: ImportKind;
  /** Data rows read (header and blank lines excluded). */
  read: number;
  inserted: number;
  updated: number;
  rejected: ImportRejection[];
  /** People only: contact points added. */
  contacts: number;
  /** People only: rows whose current company was found in the catalog by slug or domain. */
  companiesResolved: number;
  milliseconds: number;
}

/** A problem with the file as a whole (unreadable, unknown format or columns): nothing was loaded. */
export class ImportFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportFileError';
  }
}

export function formatRejection(rejection: ImportRejection): string {
  return rejection.problems.map((problem) => `line ${rejection.line}: ${problem}`).join('\n');
}

// ---------------------------------------------------------------------------------------
// Schemas: field names are the API's record fields where the record has them.

const NUL = '\u0000';
const text = (max: number) =>
  z
    .string({ error: 'expected a string' })
    .trim()
    .max(max, { error: `longer than ${max} characters` })
    .refine((s) => !s.includes(NUL), { error: 'contains a NUL character' });
const requiredText = (max: number) => text(max).refine((s) => s.length > 0, { error: 'must not be empty' });
const stringList = (item: z.ZodType<string>, max = 100) =>
  z.array(item, { error: 'expected array of strings' }).max(max, { error: `more than ${max} entries` });

/** Numeric identifiers of the network arrive as numbers or as strings of digits. */
const numericId = z.union(
  [z.int().positive().max(Number.MAX_SAFE_INTEGER), z.string().regex(/^\d{1,15}$/).transform(Number)],
  { error: 'expected a positive whole number' },
);
const rowId = z.int({ error: 'expected a positive whole number' }).positive({ error: 'expected a positive whole number' }).max(Number.MAX_SAFE_INTEGER);
const usd = z.number({ error: 'expected a number of US dollars' }).nonnegative().max(1e15).transform(Math.round);
const isoDate = z.iso.date({ error: 'expected a date as YYYY-MM-DD' });
/** Work history dates are often known to the month only. */
const monthOrDate = z
  .string({ error: 'expected a date as YYYY-MM-DD or YYYY-MM' })
  .regex(/^\d{4}-(0[1-9]|1[0-2])(-\d{2})?$/, { error: 'expected a date as YYYY-MM-DD or YYYY-MM' })
  .transform((s) => (s.length === 7 ? `${s}-01` : s))
  .pipe(isoDate);
const year = z.int({ error: 'expected a year' }).min(1900).max(2100);

const countryCode = z
  .string({ error: 'expected a 2-letter country code' })
  .trim()
  .transform((s) => s.toUpperCase())
  .refine((s) => alpha3FromAlpha2(s) !== undefined, { error: 'not an ISO 3166 2-letter country code' });

/** Domains are stored bare and lower-case: "https://www.Acme.com/about" → "acme.com". */
const domain = z
  .string({ error: 'expected a string' })
  .trim()
  .transform((s) =>
    s
      .toLowerCase()
      .replace(/^[a-z]+:\/\//, '')
      .replace(/^www\./, '')
      .replace(/[/?#].*$/, '')
      .replace(/\.$/, ''),
  )
  .refine((s) => /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/.test(s), { error: 'not a domain name' });

const slug = z
  .string({ error: 'expected a string' })
  .trim()
  .transform((s) => s.replace(/^https?:\/\/[^/]+\/(company|in|school)\//i, '').replace(/\/+$/, ''))
  .refine((s) => /^[\p{L}\p{N}][\p{L}\p{N}_.%-]{0,199}$/u.test(s), { error: 'not a profile or company slug' });

const email = z
  .string({ error: 'expected a string' })
  .trim()
  .transform((s) => s.toLowerCase())
  .pipe(z.email({ error: 'not an email address' }));
const phone = z
  .string({ error: 'expected a string' })
  .transform((s) => s.replace(/[\s().-]/g, ''))
  .refine((s) => /^\+[1-9]\d{6,14}$/.test(s), { error: 'not a phone number in E.164 form (+ and 7 to 15 digits)' });

export const companyImportSchema = z.strictObject({
  id: rowId.optional(),
  preferred_name: requiredText(500),
  description: text(20_000).nullish(),
  domains: stringList(domain, 50).nullish(),
  network_primary_slug: slug.nullish(),
  network_org_id: numericId.nullish(),
  standard_industries: stringList(
    z.string({ error: 'expected a string' }).refine((s) => industryBySlug(s) !== undefined, { error: 'not an industry slug of the taxonomy (see GET /v1/enums/industries)' }),
    10,
  ).nullish(),
  employee_count_consensus: z
    .object(
      {
        min: z.int({ error: 'expected a whole number' }).nonnegative({ error: 'must not be negative' }),
        max: z.int({ error: 'expected a whole number' }).nonnegative({ error: 'must not be negative' }).nullish(),
      },
      { error: 'expected an object {min, max}' },
    )
    .refine((r) => r.max === null || r.max === undefined || r.min <= r.max, { error: 'min must not exceed max', path: ['min'] })
    .nullish(),
  location_consensus: z
    .object(
      {
        city: text(200).nullish(),
        country_code: countryCode,
        state_name: text(200).nullish(),
      },
      { error: 'expected an object {city, country_code, state_name?}' },
    )
    .nullish(),
  total_funding_consensus: z.object({ usd: usd.nullish() }, { error: 'expected an object {usd}' }).nullish(),
  last_funding_usd: usd.nullish(),
  last_funded_on: isoDate.nullish(),
  founded_on: isoDate.nullish(),
  stage: z.enum(FUNDING_STAGES, { error: `expected one of ${FUNDING_STAGES.join(', ')}` }).nullish(),
  special_flags: stringList(z.enum(COMPANY_FLAG_SLUGS as [string, ...string[]], { error: `expected one of ${COMPANY_FLAG_SLUGS.join(', ')}` }), 20).nullish(),
  /** Present in records exported from the API; meaningless here and ignored. */
  last_sort_key: z.unknown().optional(),
});
export type CompanyImport = z.output<typeof companyImportSchema>;

const languageSchema = z.strictObject(
  {
    name: requiredText(100),
    proficiency_name: z.enum(PROFICIENCY_NAMES, { error: `expected one of ${PROFICIENCY_NAMES.join(', ')}` }).nullish(),
  },
  { error: 'expected an object {name, proficiency_name}' },
);

const educationSchema = z
  .strictObject(
    {
      school: requiredText(300),
      degree_type: z.enum(DEGREE_TYPES, { error: `expected one of ${DEGREE_TYPES.join(', ')}` }).nullish(),
      field_of_study: text(200).nullish(),
      start_year: year.nullish(),
      end_year: year.nullish(),
    },
    { error: 'expected an object {school, degree_type, field_of_study, start_year, end_year}' },
  )
  .refine((e) => e.start_year == null || e.end_year == null || e.start_year <= e.end_year, { error: 'start_year is after end_year', path: ['start_year'] });

const workExperienceSchema = z
  .strictObject(
    {
      company_name: requiredText(500),
      company_slug: slug.nullish(),
      company_domain: domain.nullish(),
      title: text(300).nullish(),
      start_date: monthOrDate.nullish(),
      end_date: monthOrDate.nullish(),
      is_current: z.boolean({ error: 'expected true or false' }).nullish(),
    },
    { error: 'expected an object {company_name, company_slug, company_domain, title, start_date, end_date, is_current}' },
  )
  .refine((w) => !w.start_date || !w.end_date || w.start_date <= w.end_date, { error: 'start_date is after end_date', path: ['start_date'] });

export const personImportSchema = z.strictObject({
  id: rowId.optional(),
  first_name: requiredText(200),
  last_name: requiredText(200),
  title: text(300).nullish(),
  headline: text(1000).nullish(),
  location: z
    .object({ city: text(200).nullish(), country_code: countryCode }, { error: 'expected an object {city, country_code}' })
    .nullish(),
  current_company: z
    .object(
      { name: text(500).nullish(), network_slug: slug.nullish(), domain: domain.nullish() },
      { error: 'expected an object {name, network_slug, domain}' },
    )
    .refine((c) => Boolean(c.name || c.network_slug || c.domain), { error: 'needs a name, network_slug or domain' })
    .nullish(),
  languages: z.array(languageSchema, { error: 'expected an array of {name, proficiency_name}' }).max(30).nullish(),
  years_experience: z.int({ error: 'expected a whole number of years' }).min(0).max(80).nullish(),
  tags: stringList(z.enum(PROSPECT_TAG_SLUGS as [string, ...string[]], { error: `expected one of ${PROSPECT_TAG_SLUGS.join(', ')}` }), 30).nullish(),
  education: z.array(educationSchema, { error: 'expected an array of education entries' }).max(30).nullish(),
  work_experiences: z.array(workExperienceSchema, { error: 'expected an array of work experiences' }).max(100).nullish(),
  network_slug: slug.nullish(),
  network_user_id: numericId.nullish(),
  contacts: z
    .strictObject(
      {
        work_emails: stringList(email, 20).nullish(),
        personal_emails: stringList(email, 20).nullish(),
        phones: stringList(phone, 20).nullish(),
      },
      { error: 'expected an object {work_emails, personal_emails, phones}' },
    )
    .nullish(),
  // Fields of API records that are views of the ones above; accepted and ignored.
  detailed_education: z.unknown().optional(),
  detailed_work_experiences: z.unknown().optional(),
});
export type PersonImport = z.output<typeof personImportSchema>;

// ---------------------------------------------------------------------------------------
// CSV: dotted column names for nested fields, ";"-separated lists, JSON for lists of objects.

type CsvKind = 'string' | 'number' | 'list' | 'json';

const COMPANY_CSV_COLUMNS: Readonly<Record<string, CsvKind>> = {
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

const PERSON_CSV_COLUMNS: Readonly<Record<string, CsvKind>> = {
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
function csvToObject(header: readonly string[], kinds: readonly CsvKind[], fields: readonly string[]): { value: Record<string, unknown>; problems: string[] } {
  const value: Record<string, unknown> = {};
  const problems: string[] = [];
  header.forEach((column, i) => {
    const raw = fields[i] ?? '';
    if (raw.trim() === '') return;
    const kind = kinds[i] as CsvKind;
    let converted: unknown = raw;
    if (kind === 'number') converted = /^\s*-?\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : raw;
    else if (kind === 'list') converted = raw.split(';').map((s) => s.trim()).filter(Boolean);
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

interface SourceRow {
  line: number;
  value: unknown;
  problems: string[];
}

async function* readJsonLines(file: string): AsyncGenerator<SourceRow> {
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

async function* readCsvRows(file: string, kind: ImportKind): AsyncGenerator<SourceRow> {
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
      yield { line: record.line, value: undefined, problems: [`expected ${header.length} fields, found ${record.fields.length}`] };
      continue;
    }
    const { value, problems } = csvToObject(header, kinds, record.fields);
    yield { line: record.line, value, problems };
  }
  if (header === null) throw new ImportFileError(`${file} is empty: a CSV file needs a header row`);
}

// ---------------------------------------------------------------------------------------
// From validated rows to stored rows

/** Which stored columns each input field writes; a row updates only the fields it has. */
const COMPANY_FIELDS = [
  ['preferred_name', ['preferred_name']],
  ['description', ['description']],
  ['domains', ['domains', 'tlds']],
  ['network_primary_slug', ['network_primary_slug']],
  ['network_org_id', ['network_org_id']],
  ['standard_industries', ['standard_industries']],
  ['employee_count_consensus', ['employee_count_min', 'employee_count_max']],
  ['location_consensus', ['city', 'state_name', 'country_code', 'location_text']],
  ['total_funding_consensus', ['total_funding_usd']],
  ['last_funding_usd', ['last_funding_usd']],
  ['last_funded_on', ['last_funded_on']],
  ['founded_on', ['founded_on']],
  ['stage', ['stage']],
  ['special_flags', ['special_flags']],
] as const;

const PERSON_FIELDS = [
  ['first_name', ['first_name']],
  ['last_name', ['last_name']],
  ['title', ['title']],
  ['headline', ['headline']],
  ['location', ['city', 'country_code', 'country3']],
  ['current_company', ['company_id', 'company_name', 'company_slug', 'company_domain']],
  ['network_slug', ['network_slug']],
  ['network_user_id', ['network_user_id']],
  ['years_experience', ['years_experience']],
  ['tags', ['tags']],
  ['languages', ['languages']],
  ['education', ['education', 'degree_types', 'schools']],
  ['work_experiences', ['work_experiences']],
] as const;

/** Defaults of the NOT NULL columns, for fields a new row leaves out or sets to null. */
const NOT_NULL_DEFAULTS: Readonly<Record<string, string>> = {
  description: "''",
  domains: "'{}'",
  tlds: "'{}'",
  standard_industries: "'{}'",
  special_flags: "'{}'",
  title: "''",
  // A new profile without a headline gets the usual "Title at Company".
  headline: "CASE WHEN coalesce(t.title, '') <> '' AND t.company_name IS NOT NULL THEN t.title || ' at ' || t.company_name ELSE '' END",
  tags: "'{}'",
  languages: "'[]'",
  degree_types: "'{}'",
  schools: "'{}'",
  education: "'[]'",
  work_experiences: "'[]'",
};

function presenceMask(row: Record<string, unknown>, fields: ReadonlyArray<readonly [string, readonly string[]]>): number {
  let mask = 0;
  fields.forEach(([field], bit) => {
    if (row[field] !== undefined) mask |= 1 << bit;
  });
  return mask;
}

const countryNames = new Map(ISO_COUNTRIES.map((c) => [c.code2, c.name]));

function toCompanyRecord(row: CompanyImport): CompanyRecord {
  const domains = row.domains ? [...new Set(row.domains)] : null;
  const location = row.location_consensus ?? null;
  const city = location?.city || null;
  const state = location?.state_name || null;
  const country = location?.country_code ?? null;
  return {
    id: row.id ?? 0,
    preferred_name: row.preferred_name,
    description: row.description ?? '',
    domains: domains ?? [],
    tlds: domains ? tldsOf(domains) : [],
    network_primary_slug: row.network_primary_slug ?? null,
    network_org_id: row.network_org_id ?? null,
    standard_industries: row.standard_industries ? [...new Set(row.standard_industries)] : [],
    employee_count_min: row.employee_count_consensus?.min ?? null,
    employee_count_max: row.employee_count_consensus?.max ?? null,
    city,
    state_name: state,
    country_code: country,
    location_text: location ? [city, state && state !== city ? state : null, country ? countryNames.get(country) : null].filter(Boolean).join(', ') || null : null,
    total_funding_usd: row.total_funding_consensus?.usd ?? null,
    last_funding_usd: row.last_funding_usd ?? null,
    last_funded_on: row.last_funded_on ?? null,
    founded_on: row.founded_on ?? null,
    stage: row.stage ?? null,
    special_flags: row.special_flags ? [...new Set(row.special_flags)] : [],
  };
}

function toPersonRecord(row: PersonImport): PersonRecord {
  const company = row.current_company ?? null;
  const education = row.education?.map((e) => ({
    school: e.school,
    degree_type: e.degree_type ?? null,
    field_of_study: e.field_of_study ?? null,
    start_year: e.start_year ?? null,
    end_year: e.end_year ?? null,
  }));
  const work = row.work_experiences?.map((w) => ({
    company_name: w.company_name,
    company_slug: w.company_slug ?? null,
    company_domain: w.company_domain ?? null,
    title: w.title ?? '',
    start_date: w.start_date ?? null,
    end_date: w.end_date ?? null,
    is_current: w.is_current ?? !w.end_date,
  }));
  return {
    id: row.id ?? 0,
    first_name: row.first_name,
    last_name: row.last_name,
    title: row.title ?? null,
    headline: row.headline ?? null,
    city: row.location?.city || null,
    country_code: row.location?.country_code ?? null,
    country3: row.location ? (alpha3FromAlpha2(row.location.country_code) ?? null) : null,
    company_id: null,
    company_name: company?.name || null,
    company_slug: company?.network_slug ?? null,
    company_domain: company?.domain ?? null,
    network_slug: row.network_slug ?? null,
    network_user_id: row.network_user_id ?? null,
    years_experience: row.years_experience ?? null,
    tags: row.tags ? [...new Set(row.tags)] : [],
    languages: row.languages?.map((l) => ({ name: l.name, proficiency_name: l.proficiency_name ?? null })) ?? [],
    degree_types: education ? [...new Set(education.map((e) => e.degree_type).filter((d): d is NonNullable<typeof d> => d !== null))] : [],
    schools: education ? [...new Set(education.map((e) => e.school))] : [],
    education: education ?? [],
    work_experiences: work ?? [],
  };
}

function formatIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message));
}

// ---------------------------------------------------------------------------------------
// Loading

export function detectFormat(file: string, format?: string): ImportFormat {
  const chosen = format ?? (/\.(jsonl|ndjson|json)$/i.test(file) ? 'jsonl' : /\.csv$/i.test(file) ? 'csv' : undefined);
  if (chosen === 'jsonl' || chosen === 'csv') return chosen;
  if (format !== undefined) throw new ImportFileError(`unknown format "${format}": use jsonl or csv`);
  throw new ImportFileError(`cannot tell the format of ${path.basename(file)} from its extension: pass --format jsonl or --format csv`);
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
  const columns = kind === 'companies' ? COMPANY_COLUMNS : PERSON_COLUMNS;
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
          ? companyLine(toCompanyRecord(parsed.data as CompanyImport), data.id ?? null)
          : personLine(toPersonRecord(parsed.data as PersonImport), data.id ?? null);
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
          const incoming = column in NOT_NULL_DEFAULTS ? `coalesce(t.${column}, ${NOT_NULL_DEFAULTS[column]})` : `t.${column}`;
          return `${column} = CASE WHEN t.present & ${1 << bit} <> 0 THEN ${incoming} ELSE c.${column} END`;
        }),
      )
      .join(',\n ');
    const updated = await client.query(
      `UPDATE ${target} c SET ${assignments}, updated_at = now() FROM ${table} t WHERE c.id = t.id`,
    );
    const insertColumns = columns.map((column) => (column in NOT_NULL_DEFAULTS ? `coalesce(t.${column}, ${NOT_NULL_DEFAULTS[column]})` : `t.${column}`));
    const inserted = await client.query(
      `INSERT INTO ${target} (${columns.join(', ')})
       SELECT ${insertColumns.join(', ')} FROM ${table} t
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
function companyLine(c: CompanyRecord, id: number | null): string {
  return [
    copyNumber(id),
    copyText(c.preferred_name),
    copyText(c.description),
    copyArray(c.domains),
    copyArray(c.tlds),
    copyText(c.network_primary_slug),
    copyNumber(c.network_org_id),
    copyArray(c.standard_industries),
    copyNumber(c.employee_count_min),
    copyNumber(c.employee_count_max),
    copyText(c.city),
    copyText(c.state_name),
    copyText(c.country_code),
    copyText(c.location_text),
    copyNumber(c.total_funding_usd),
    copyNumber(c.last_funding_usd),
    copyText(c.last_funded_on),
    copyText(c.founded_on),
    copyText(c.stage),
    copyArray(c.special_flags),
  ].join('\t');
}

function personLine(p: PersonRecord, id: number | null): string {
  return [
    copyNumber(id),
    copyText(p.first_name),
    copyText(p.last_name),
    copyText(p.title),
    copyText(p.headline),
    copyText(p.city),
    copyText(p.country_code),
    copyText(p.country3),
    copyNumber(p.company_id),
    copyText(p.company_name),
    copyText(p.company_slug),
    copyText(p.company_domain),
    copyText(p.network_slug),
    copyNumber(p.network_user_id),
    copyNumber(p.years_experience),
    copyArray(p.tags),
    copyJson(p.languages),
    copyArray(p.degree_types),
    copyArray(p.schools),
    copyJson(p.education),
    copyJson(p.work_experiences),
  ].join('\t');
}
