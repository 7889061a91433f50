import { profileUrl } from '../../operations/schemas/common.js';
import { currentCompany, type CurrentCompany } from '../../operations/schemas/filters.js';
import { readCsvText } from './csv-reader.js';
import type { ExclusionListKind } from './exclusion-lists.js';
import { normaliseDomain, slugFromUrlOrSlug } from './network-urls.js';

/**
 * A CSV file of exclusion-list entries, as people export them from a CRM or a spreadsheet: one
 * entry per row, a domain or a company URL for a companies list, a profile URL or slug for a
 * prospects list. With a header row, the column named like what it holds (domain, website, url,
 * profile...) is read; without one, the first column. Each value is checked by the same schema
 * as the API's addExclusionListEntries; a row that is none of these is reported, with its line
 * and why, and the rest are added.
 */

export interface UploadedEntries {
  companies: CurrentCompany[];
  prospects: string[];
  /** The CSV line of each entry, in order. */
  lines: number[];
  notUnderstood: { line: number; value: string; reason: string }[];
}

export const maxUploadRows = 10_000;

/** Semicolons when the first line has more of them than commas (spreadsheets of some locales write them), else commas. */
function detectDelimiter(text: string): string {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  return (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
}

const companyHeaders =
  /^(domain|domains|website|web ?site|url|company ?url|company ?domain|company|network ?url|company ?website)$/i;
const prospectHeaders = /^(profile|profile ?url|url|linkedin|network ?url|slug|profile ?slug|person ?url)$/i;
const anyHeader = /^[a-z][a-z _-]*$/i;

function looksLikeValue(kind: ExclusionListKind, value: string): boolean {
  return kind === 'companies' ? /[./]/.test(value) : value.includes('/') || /^[a-z0-9-]{3,100}$/i.test(value);
}

/** The entries of an uploaded CSV for a list of `kind`. */
export function entriesFromCsv(kind: ExclusionListKind, text: string): UploadedEntries {
  const records = readCsvText(text, detectDelimiter(text.replace(/^\uFEFF/, '')));
  const out: UploadedEntries = { companies: [], prospects: [], lines: [], notUnderstood: [] };
  let column = 0;
  let first = 0;
  const header = records[0]?.fields.map((cell) => cell.trim()) ?? [];
  const named = header.findIndex((cell) => (kind === 'companies' ? companyHeaders : prospectHeaders).test(cell));
  if (named >= 0) {
    column = named;
    first = 1;
  } else if (header.length && header.every((cell) => anyHeader.test(cell) && !looksLikeValue(kind, cell))) {
    first = 1;
  }
  for (const { line, fields, error } of records.slice(first)) {
    if (error) {
      out.notUnderstood.push({ line, value: '', reason: error });
      continue;
    }
    const value = (fields[column] ?? '').trim();
    if (!value) continue;
    if (out.lines.length + out.notUnderstood.length >= maxUploadRows) {
      out.notUnderstood.push({ line, value: value.slice(0, 80), reason: `more than ${maxUploadRows} rows: not read` });
      break;
    }
    const result = kind === 'companies' ? companyEntry(value) : prospectEntry(value);
    if ('reason' in result) {
      out.notUnderstood.push({ line, value: value.slice(0, 80), reason: result.reason });
      continue;
    }
    if ('company' in result) out.companies.push(result.company);
    else out.prospects.push(result.prospect);
    out.lines.push(line);
  }
  return out;
}

/** A company reference from a cell: a company URL of the network, or a domain; otherwise why not. */
function companyEntry(value: string): { company: CurrentCompany } | { reason: string } {
  let candidate: CurrentCompany;
  if (/\/(company|school|showcase)\//i.test(value)) {
    if (!slugFromUrlOrSlug(value, 'company')) return { reason: 'a company URL without a company in it' };
    candidate = { networkSlugOrURL: value };
  } else {
    const domain = normaliseDomain(value);
    if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain))
      return { reason: 'not a domain (such as example.com) or a company URL (…/company/<slug>)' };
    candidate = { domain };
  }
  const parsed = currentCompany.safeParse(candidate);
  return parsed.success ? { company: parsed.data } : { reason: parsed.error.issues[0]?.message ?? 'not understood' };
}

function prospectEntry(value: string): { prospect: string } | { reason: string } {
  if (value.includes('/') && !/\/(in|pub)\//i.test(value))
    return { reason: 'not a profile URL (…/in/<slug>) or a profile slug' };
  if (!slugFromUrlOrSlug(value, 'in')) return { reason: 'not a profile URL (…/in/<slug>) or a profile slug' };
  if (!value.includes('/') && !/^[A-Za-z0-9_%-]+$/.test(value)) return { reason: 'not a profile slug' };
  const parsed = profileUrl.safeParse(value);
  return parsed.success ? { prospect: parsed.data } : { reason: parsed.error.issues[0]?.message ?? 'not understood' };
}
