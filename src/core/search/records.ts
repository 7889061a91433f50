import type { CompanyRecord, ProfileRecord } from '../../../operations/schemas/records.js';
import { profileUrlOf } from '../network-urls.js';

export const companyColumns = `c.id, c.preferred_name, c.description, c.domains, c.network_primary_slug, c.network_org_id,
  c.standard_industries, c.employee_count_min, c.employee_count_max, c.city, c.state_name, c.country_code,
  c.total_funding_usd, c.last_funding_usd, c.last_funded_on, c.founded_on, c.stage, c.special_flags`;

export interface CompanyRow {
  id: number;
  preferred_name: string;
  description: string;
  domains: string[];
  network_primary_slug: string | null;
  network_org_id: number | null;
  standard_industries: string[];
  employee_count_min: number | null;
  employee_count_max: number | null;
  city: string | null;
  state_name: string | null;
  country_code: string | null;
  total_funding_usd: number | null;
  last_funding_usd: number | null;
  last_funded_on: string | null;
  founded_on: string | null;
  stage: string | null;
  special_flags: string[];
}

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

/** Detailed education and work history are large: they are read only when asked for. */
export function profileColumns(details: ProfileDetailOptions): string {
  return `p.id, p.first_name, p.last_name, p.title, p.headline, p.city, p.country_code, p.country3,
    p.company_name, p.company_slug, p.company_domain, p.network_slug, p.years_experience, p.tags, p.languages
    ${details.getDetailedEducation ? ', p.education' : ''}${details.getDetailedWorkExperience ? ', p.work_experiences' : ''}`;
}

export interface ProfileRow {
  id: number;
  first_name: string;
  last_name: string;
  title: string;
  headline: string;
  city: string | null;
  country_code: string | null;
  country3: string | null;
  company_name: string | null;
  company_slug: string | null;
  company_domain: string | null;
  network_slug: string | null;
  years_experience: number | null;
  tags: string[];
  languages: Array<{ name: string; proficiency_name: string }>;
  education?: ProfileRecord['detailed_education'] extends infer E ? (E extends { degrees: infer D } ? D : never) : never;
  work_experiences?: ProfileRecord['detailed_work_experiences'] extends infer W ? (W extends { positions: infer P } ? P : never) : never;
}

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
    last_sort_key: String(row.id),
  };
}
