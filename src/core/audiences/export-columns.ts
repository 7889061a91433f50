import { AppError } from '../../errors.js';
import { companyUrlOf, profileUrlOf } from '../network-urls.js';
import type { EmailStatus } from '../contacts/email-check.js';
import type { CompanyRow } from '../search/records.js';
import { listSeparator } from './csv.js';
import type { ExportKind } from './export-row.js';

/**
 * The columns of the two CSV formats, in order, each with how its cell is made from a record;
 * and the choice of columns a request makes with `excludeFields`.
 */

interface Column<Row> {
  name: string;
  value: (row: Row) => string;
}

const text = (value: string | number | null | undefined): string =>
  value === null || value === undefined ? '' : String(value);
const list = (values: readonly string[] | null | undefined): string => (values ?? []).join(listSeparator);

/** A company as the export reads it: the search record's row. */
export type CompanyExportRow = CompanyRow;

/** Columns of COMPANY_GENERIC_CSV, in order; lists are joined with "; ". */
export const companyColumns: readonly Column<CompanyExportRow>[] = [
  { name: 'company_id', value: (r) => text(r.id) },
  { name: 'name', value: (r) => r.preferred_name },
  { name: 'domain', value: (r) => text(r.domains[0]) },
  { name: 'domains', value: (r) => list(r.domains) },
  { name: 'network_slug', value: (r) => text(r.network_primary_slug) },
  { name: 'network_url', value: (r) => text(companyUrlOf(r.network_primary_slug)) },
  { name: 'network_org_id', value: (r) => text(r.network_org_id) },
  { name: 'industries', value: (r) => list(r.standard_industries) },
  { name: 'employee_count_min', value: (r) => text(r.employee_count_min) },
  { name: 'employee_count_max', value: (r) => text(r.employee_count_max) },
  { name: 'city', value: (r) => text(r.city) },
  { name: 'state', value: (r) => text(r.state_name) },
  { name: 'country_code', value: (r) => text(r.country_code) },
  { name: 'total_funding_usd', value: (r) => text(r.total_funding_usd) },
  { name: 'last_funding_usd', value: (r) => text(r.last_funding_usd) },
  { name: 'last_funded_on', value: (r) => text(r.last_funded_on) },
  { name: 'founded_on', value: (r) => text(r.founded_on) },
  { name: 'stage', value: (r) => text(r.stage) },
  { name: 'special_flags', value: (r) => list(r.special_flags) },
  { name: 'description', value: (r) => r.description },
];

export interface ProspectExportRow {
  id: number;
  first_name: string;
  last_name: string;
  clean_first_name: string | null;
  clean_last_name: string | null;
  title: string;
  headline: string;
  city: string | null;
  country_code: string | null;
  country3: string | null;
  company_name: string | null;
  company_domain: string | null;
  company_slug: string | null;
  network_slug: string | null;
  years_experience: number | null;
  tags: string[];
  languages: Array<{ name: string; proficiency_name: string }>;
  work_emails: string[];
  personal_emails: string[];
  phone_numbers: string[];
  sales_tool_urn: string | null;
  live_enriched_at: Date | null;
  /** Not a stored value: the export checks the prospect's email as it writes the row (emailStatusOf). */
  email_status: EmailStatus;
}

/**
 * Columns of PROSPECT_GENERIC_CSV, in order. Names are the cleaned names once an enrichment has run. A new column goes
 * last, so that a reader that takes columns by position keeps reading the ones it knew.
 */
export const prospectColumns: readonly Column<ProspectExportRow>[] = [
  { name: 'prospect_id', value: (r) => text(r.id) },
  { name: 'first_name', value: (r) => r.clean_first_name ?? r.first_name },
  { name: 'last_name', value: (r) => r.clean_last_name ?? r.last_name },
  {
    name: 'full_name',
    value: (r) => `${r.clean_first_name ?? r.first_name} ${r.clean_last_name ?? r.last_name}`.trim(),
  },
  { name: 'title', value: (r) => r.title },
  { name: 'headline', value: (r) => r.headline },
  { name: 'city', value: (r) => text(r.city) },
  { name: 'country_code', value: (r) => text(r.country_code) },
  { name: 'country3', value: (r) => text(r.country3) },
  { name: 'company_name', value: (r) => text(r.company_name) },
  { name: 'company_domain', value: (r) => text(r.company_domain) },
  { name: 'company_network_slug', value: (r) => text(r.company_slug) },
  { name: 'profile_url', value: (r) => text(profileUrlOf(r.network_slug)) },
  { name: 'network_slug', value: (r) => text(r.network_slug) },
  { name: 'years_of_experience', value: (r) => text(r.years_experience) },
  { name: 'tags', value: (r) => list(r.tags) },
  { name: 'languages', value: (r) => list(r.languages.map((l) => l.name)) },
  { name: 'work_email', value: (r) => text(r.work_emails[0]) },
  { name: 'personal_email', value: (r) => text(r.personal_emails[0]) },
  { name: 'phone_number', value: (r) => text(r.phone_numbers[0]) },
  { name: 'all_work_emails', value: (r) => list(r.work_emails) },
  { name: 'all_personal_emails', value: (r) => list(r.personal_emails) },
  { name: 'all_phone_numbers', value: (r) => list(r.phone_numbers) },
  { name: 'sales_tool_urn', value: (r) => text(r.sales_tool_urn) },
  { name: 'live_enriched_at', value: (r) => (r.live_enriched_at ? r.live_enriched_at.toISOString() : '') },
  { name: 'email_status', value: (r) => r.email_status },
];

/** The address email_status is about: the work email, or the personal one when there is none. */
export const emailOfProspect = (r: Pick<ProspectExportRow, 'work_emails' | 'personal_emails'>): string | null =>
  r.work_emails[0] ?? r.personal_emails[0] ?? null;

export const columnsOf = (kind: ExportKind): readonly string[] =>
  (kind === 'companies' ? companyColumns : prospectColumns).map((c) => c.name);

/** The columns an export writes: all of its kind's, less `excludeFields` (each of which must be one of them). */
export function chooseColumns(kind: ExportKind, excludeFields: readonly string[] | undefined): string[] {
  const all = columnsOf(kind);
  const excluded = new Set<string>();
  const issues: Array<{ field: string; message: string }> = [];
  (excludeFields ?? []).forEach((field, index) => {
    if (all.includes(field)) excluded.add(field);
    else issues.push({ field: `excludeFields.${index}`, message: `unknown column "${field}"` });
  });
  if (issues.length) {
    throw new AppError(
      'invalid_request',
      `excludeFields names columns that the ${kind} CSV does not have. Its columns: ${all.join(', ')}.`,
      {
        details: { issues, columns: all },
      },
    );
  }
  const columns = all.filter((c) => !excluded.has(c));
  if (columns.length === 0) {
    throw new AppError('invalid_request', 'excludeFields removes every column; keep at least one.', {
      details: { issues: [{ field: 'excludeFields', message: 'removes every column' }] },
    });
  }
  return columns;
}
