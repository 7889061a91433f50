import type { CompanyRecord, ProfileRecord } from '../../../operations/schemas/records.js';
import type { CompanyRow as StoredCompanyRow } from '../../store/tables/companies.js';
import type { PersonRow } from '../../store/tables/people.js';
import { profileUrlOf } from '../network-urls.js';

/** The stored columns a company record is made of. */
const companyRecordColumns = [
  'id',
  'preferred_name',
  'description',
  'domains',
  'network_primary_slug',
  'network_org_id',
  'standard_industries',
  'employee_count_min',
  'employee_count_max',
  'city',
  'state_name',
  'country_code',
  'total_funding_usd',
  'last_funding_usd',
  'last_funded_on',
  'founded_on',
  'stage',
  'special_flags',
] as const satisfies ReadonlyArray<keyof StoredCompanyRow>;

/** The select list of a company record, on the alias `c`. */
export const companyColumns = companyRecordColumns.map((column) => `c.${column}`).join(', ');

/** A company as `companyColumns` reads it. */
export type CompanyRow = Pick<StoredCompanyRow, (typeof companyRecordColumns)[number]>;

export function toCompanyRecord(row: CompanyRow): CompanyRecord {
  return {
    preferred_name: row.preferred_name,
    domains: row.domains,
    network_primary_slug: row.network_primary_slug,
    standard_industries: row.standard_industries,
    employee_count_consensus: { min: row.employee_count_min, max: row.employee_count_max },
    location_consensus: { city: row.city, country_code: row.country_code },
    total_funding_consensus: { usd: row.total_funding_usd },
    last_sort_key: String(row.id),
    description: row.description,
    network_org_id: row.network_org_id === null ? null : String(row.network_org_id),
    state_name: row.state_name,
    stage: row.stage,
    last_funding_usd: row.last_funding_usd,
    last_funded_on: row.last_funded_on,
    founded_on: row.founded_on,
    special_flags: row.special_flags,
  };
}

export interface ProfileDetailOptions {
  getDetailedEducation?: boolean;
  getDetailedWorkExperience?: boolean;
}

/** The stored columns a profile record is made of, less the detailed ones. */
const profileRecordColumns = [
  'id',
  'first_name',
  'last_name',
  'title',
  'headline',
  'city',
  'country_code',
  'country3',
  'company_name',
  'company_slug',
  'company_domain',
  'network_slug',
  'years_experience',
  'tags',
  'languages',
  'seniority',
  'job_function',
] as const satisfies ReadonlyArray<keyof PersonRow>;

/** Detailed education and work history are large: they are read only when asked for. */
export function profileColumns(details: ProfileDetailOptions): string {
  const columns: Array<keyof PersonRow> = [...profileRecordColumns];
  if (details.getDetailedEducation) columns.push('education');
  if (details.getDetailedWorkExperience) columns.push('work_experiences');
  return columns.map((column) => `p.${column}`).join(', ');
}

/** A profile as `profileColumns` reads it; the detailed columns only when asked for. */
export type ProfileRow = Pick<PersonRow, Exclude<(typeof profileRecordColumns)[number], 'languages'>> & {
  languages: ProfileRecord['languages'];
  education?: PersonRow['education'];
  work_experiences?: PersonRow['work_experiences'];
};

export function toProfileRecord(row: ProfileRow, details: ProfileDetailOptions): ProfileRecord {
  return {
    first_name: row.first_name,
    last_name: row.last_name,
    title: row.title,
    headline: row.headline,
    location: { city: row.city, country_code: row.country_code },
    current_company: { name: row.company_name, network_slug: row.company_slug, domain: row.company_domain },
    languages: row.languages,
    detailed_education: details.getDetailedEducation ? { degrees: row.education ?? [] } : null,
    detailed_work_experiences: details.getDetailedWorkExperience ? { positions: row.work_experiences ?? [] } : null,
    network_slug: row.network_slug,
    profile_url: profileUrlOf(row.network_slug),
    country3: row.country3,
    years_of_experience: row.years_experience,
    tags: row.tags,
    seniority: row.seniority,
    job_function: row.job_function,
    last_sort_key: String(row.id),
  };
}
