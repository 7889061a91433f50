import { z } from 'zod';

const location = z.object({ city: z.string().nullable(), country_code: z.string().nullable() });

export const companyRecord = z.object({
  preferred_name: z.string(),
  domains: z.array(z.string()),
  network_primary_slug: z.string().nullable(),
  standard_industries: z.array(z.string()),
  employee_count_consensus: z.object({ min: z.number().nullable(), max: z.number().nullable() }),
  location_consensus: location,
  total_funding_consensus: z.object({ usd: z.number().nullable() }),
  last_sort_key: z.string(),
  description: z.string(),
  network_org_id: z.string().nullable(),
  state_name: z.string().nullable(),
  stage: z.string().nullable(),
  last_funding_usd: z.number().nullable(),
  last_funded_on: z.string().nullable(),
  founded_on: z.string().nullable(),
  special_flags: z.array(z.string()),
});

export const educationEntry = z.object({
  school: z.string(),
  degree_type: z.string().nullable(),
  field_of_study: z.string().nullable(),
  start_year: z.number().nullable(),
  end_year: z.number().nullable(),
});

export const workExperienceEntry = z.object({
  company_name: z.string(),
  company_slug: z.string().nullable(),
  company_domain: z.string().nullable(),
  title: z.string(),
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
  is_current: z.boolean(),
});

export const profileRecord = z.object({
  first_name: z.string(),
  last_name: z.string(),
  title: z.string(),
  headline: z.string(),
  location: location,
  current_company: z.object({
    name: z.string().nullable(),
    network_slug: z.string().nullable(),
    domain: z.string().nullable(),
  }),
  languages: z.array(z.object({ name: z.string(), proficiency_name: z.string() })),
  detailed_education: z.object({ degrees: z.array(educationEntry) }).nullable(),
  detailed_work_experiences: z.object({ positions: z.array(workExperienceEntry) }).nullable(),
  network_slug: z.string().nullable(),
  profile_url: z.string().nullable(),
  country3: z.string().nullable(),
  years_of_experience: z.number().nullable(),
  tags: z.array(z.string()),
  seniority: z
    .string()
    .nullable()
    .describe('The seniority its title reads as (listJobTitleTaxonomy); null for an empty title.'),
  job_function: z
    .string()
    .nullable()
    .describe('The job function its title reads as (listJobTitleTaxonomy); null for an empty title.'),
  last_sort_key: z.string(),
});

export type CompanyRecord = z.infer<typeof companyRecord>;
export type ProfileRecord = z.infer<typeof profileRecord>;
