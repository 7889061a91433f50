import { profileUrl } from '../../operations/schemas/common.js';
import { currentCompany, type CurrentCompany } from '../../operations/schemas/filters.js';
import type { ExclusionListKind } from './exclusion-lists.js';
import { normaliseDomain, slugFromUrlOrSlug } from './network-urls.js';
import { readUploadColumn } from './upload-column.js';

/**
 * A CSV file of exclusion-list entries: one entry per row, a domain or a company URL for a
 * companies list, a profile URL or slug for a prospects list, in the column readUploadColumn
 * finds. Each value is checked by the same schema
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

const companyHeaders =
  /^(domain|domains|website|web ?site|url|company ?url|company ?domain|company|network ?url|company ?website)$/i;
const prospectHeaders = /^(profile|profile ?url|url|linkedin|network ?url|slug|profile ?slug|person ?url)$/i;

function looksLikeValue(kind: ExclusionListKind, value: string): boolean {
  return kind === 'companies' ? /[./]/.test(value) : value.includes('/') || /^[a-z0-9-]{3,100}$/i.test(value);
}

/** The entries of an uploaded CSV for a list of `kind`. */
export function entriesFromCsv(kind: ExclusionListKind, text: string): UploadedEntries {
  const column = readUploadColumn(text, {
    headers: [kind === 'companies' ? companyHeaders : prospectHeaders],
    looksLikeValue: (cell) => looksLikeValue(kind, cell),
    maxRows: maxUploadRows,
  });
  const out: UploadedEntries = { companies: [], prospects: [], lines: [], notUnderstood: [] };
  for (const { line, value } of column.values) {
    const result = kind === 'companies' ? companyEntry(value) : prospectEntry(value);
    if ('reason' in result) {
      out.notUnderstood.push({ line, value: value.slice(0, 80), reason: result.reason });
      continue;
    }
    if ('company' in result) out.companies.push(result.company);
    else out.prospects.push(result.prospect);
    out.lines.push(line);
  }
  out.notUnderstood.push(...column.notRead);
  out.notUnderstood.sort((a, b) => a.line - b.line);
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
