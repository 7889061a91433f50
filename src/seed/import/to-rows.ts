import type { z } from 'zod';
import { ISO_COUNTRIES, alpha3FromAlpha2 } from '../../../reference/index.js';
import { titleColumns } from '../../core/titles/normalise.js';
import type { CompanyRow } from '../../store/tables/companies.js';
import type { CopyRow } from '../../store/tables/define-table.js';
import type { PersonRow } from '../../store/tables/people.js';
import { tldsOf } from '../generate/text.js';
import type { CompanyImport, PersonImport } from './schemas.js';

// From validated rows to the rows of the catalog tables.

/** Which stored columns each input field writes; a row updates only the fields it has. */
export const COMPANY_FIELDS = [
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
] as const satisfies ReadonlyArray<readonly [keyof CompanyImport, ReadonlyArray<keyof CompanyRow>]>;

export const PERSON_FIELDS = [
  ['first_name', ['first_name']],
  ['last_name', ['last_name']],
  ['title', ['title', 'title_words', 'title_mask', 'seniority', 'job_function']],
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
] as const satisfies ReadonlyArray<readonly [keyof PersonImport, ReadonlyArray<keyof PersonRow>]>;

/** Defaults of the NOT NULL columns, for fields a new row leaves out or sets to null. */
export const NOT_NULL_DEFAULTS: Readonly<Partial<Record<keyof CompanyRow | keyof PersonRow, string>>> = {
  description: "''",
  domains: "'{}'",
  tlds: "'{}'",
  standard_industries: "'{}'",
  special_flags: "'{}'",
  title: "''",
  // A new profile without a headline gets the usual "Title at Company".
  headline:
    "CASE WHEN coalesce(t.title, '') <> '' AND t.company_name IS NOT NULL THEN t.title || ' at ' || t.company_name ELSE '' END",
  tags: "'{}'",
  languages: "'[]'",
  degree_types: "'{}'",
  schools: "'{}'",
  education: "'[]'",
  work_experiences: "'[]'",
};

export function presenceMask(
  row: Record<string, unknown>,
  fields: ReadonlyArray<readonly [string, readonly string[]]>,
): number {
  let mask = 0;
  fields.forEach(([field], bit) => {
    if (row[field] !== undefined) mask |= 1 << bit;
  });
  return mask;
}

const countryNames = new Map(ISO_COUNTRIES.map((c) => [c.code2, c.name]));

/** The row to stage; `id` is null for a row that gets a new id, and columns no field maps stay out. */
export function toCompanyRow(row: CompanyImport): CopyRow<CompanyRow> {
  const domains = row.domains ? [...new Set(row.domains)] : null;
  const location = row.location_consensus ?? null;
  const city = location?.city || null;
  const state = location?.state_name || null;
  const country = location?.country_code ?? null;
  return {
    id: row.id ?? null,
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
    location_text: location
      ? [city, state && state !== city ? state : null, country ? countryNames.get(country) : null]
          .filter(Boolean)
          .join(', ') || null
      : null,
    total_funding_usd: row.total_funding_consensus?.usd ?? null,
    last_funding_usd: row.last_funding_usd ?? null,
    last_funded_on: row.last_funded_on ?? null,
    founded_on: row.founded_on ?? null,
    stage: row.stage ?? null,
    special_flags: row.special_flags ? [...new Set(row.special_flags)] : [],
  };
}

/** The row to stage; `id` is null for a row that gets a new id, `company_id` is resolved in the database. */
export function toPersonRow(row: PersonImport): CopyRow<PersonRow> {
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
    id: row.id ?? null,
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
    degree_types: education
      ? [...new Set(education.map((e) => e.degree_type).filter((d): d is NonNullable<typeof d> => d !== null))]
      : [],
    schools: education ? [...new Set(education.map((e) => e.school))] : [],
    education: education ?? [],
    work_experiences: work ?? [],
    ...(row.title === undefined ? {} : titleColumns(row.title)),
  };
}

export function formatIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) =>
    issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
  );
}
