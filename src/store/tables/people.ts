import { defineTable } from './define-table.js';

/** An entry of `people.languages`. */
export interface LanguageEntry {
  name: string;
  /** Imported profiles may leave it out. */
  proficiency_name: string | null;
}

/** An entry of `people.education`, most recent first. */
export interface EducationEntry {
  school: string;
  degree_type: string | null;
  field_of_study: string | null;
  start_year: number | null;
  end_year: number | null;
}

/** An entry of `people.work_experiences`, the current job first. */
export interface WorkExperienceEntry {
  company_name: string;
  company_slug: string | null;
  company_domain: string | null;
  title: string;
  /** YYYY-MM-DD. */
  start_date: string | null;
  /** YYYY-MM-DD; null while current. */
  end_date: string | null;
  is_current: boolean;
}

/** A row of `people` as a load writes it (the generated seed, imports). */
export interface PersonRow {
  id: number;
  first_name: string;
  last_name: string;
  title: string;
  headline: string;
  city: string | null;
  /** ISO 3166-1 alpha-2. */
  country_code: string | null;
  /** ISO 3166-1 alpha-3. */
  country3: string | null;
  /** The current company's catalog id, when the catalog holds it. */
  company_id: number | null;
  company_name: string | null;
  company_slug: string | null;
  company_domain: string | null;
  network_slug: string | null;
  network_user_id: number | null;
  years_experience: number | null;
  tags: string[];
  languages: LanguageEntry[];
  /** The distinct degree types of `education`, for the filter. */
  degree_types: string[];
  /** The distinct schools of `education`, for the filter. */
  schools: string[];
  education: EducationEntry[];
  work_experiences: WorkExperienceEntry[];
  /** The title read as words, for the title filter (migration 150, src/core/titles/normalise.ts). */
  title_words: string | null;
  /** The mask of those words, tested before the phrase. */
  title_mask: number | null;
  /** Derived from the title by reference/job-titles.ts; null for an empty title. */
  seniority: string | null;
  job_function: string | null;
}

/** Columns of `people` that no load writes. */
export interface PersonMaintainedColumns {
  updated_at: Date;
  /** When live enrichment last refreshed the profile; null when it never did. */
  live_fetched_at: Date | null;
}

export const peopleTable = defineTable<PersonRow, PersonMaintainedColumns>(
  'people',
  {
    id: 'bigint',
    first_name: 'text',
    last_name: 'text',
    title: 'text',
    headline: 'text',
    city: 'text',
    country_code: 'char',
    country3: 'char',
    company_id: 'bigint',
    company_name: 'text',
    company_slug: 'text',
    company_domain: 'text',
    network_slug: 'text',
    network_user_id: 'bigint',
    years_experience: 'integer',
    tags: 'text[]',
    languages: 'jsonb',
    degree_types: 'text[]',
    schools: 'text[]',
    education: 'jsonb',
    work_experiences: 'jsonb',
    title_words: 'text',
    title_mask: 'bigint',
    seniority: 'text',
    job_function: 'text',
  },
  { updated_at: 'timestamptz', live_fetched_at: 'timestamptz' },
);
