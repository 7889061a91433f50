import { alpha3FromAlpha2 } from '../../../reference/iso-countries.js';
import type { Queryable } from '../../store/db.js';
import { tldOf } from '../network-urls.js';
import type { CompanyRef, LiveCompany, LiveProfile, ProfileRef } from '../ports/network-source.js';
import { companyColumns, profileColumns, type CompanyRow, type ProfileRow } from '../search/records.js';
import { titleColumns } from '../titles/normalise.js';

/** The catalog side of live enrichment: the stored record a fetch refreshes, and the refresh itself. */

export interface StoredCompanyRow extends CompanyRow {
  tlds: string[];
  fetched_at: Date;
}

export interface StoredProfileRow extends ProfileRow {
  network_user_id: number | null;
  fetched_at: Date;
}

export async function findStoredCompany(
  db: Queryable,
  ref: CompanyRef & { serviceId?: number },
): Promise<StoredCompanyRow | undefined> {
  const select = `SELECT ${companyColumns}, c.tlds, coalesce(c.live_fetched_at, c.updated_at) AS fetched_at FROM companies c`;
  if (ref.orgId) {
    const byOrg = await db.query<StoredCompanyRow>(`${select} WHERE c.network_org_id = $1 ORDER BY c.id LIMIT 1`, [
      ref.orgId,
    ]);
    if (byOrg.rows[0]) return byOrg.rows[0];
  }
  if (ref.slug) {
    const bySlug = await db.query<StoredCompanyRow>(
      `${select} WHERE c.network_primary_slug = $1 ORDER BY c.id LIMIT 1`,
      [ref.slug],
    );
    if (bySlug.rows[0]) return bySlug.rows[0];
  }
  if (ref.serviceId) {
    const byId = await db.query<StoredCompanyRow>(`${select} WHERE c.id = $1`, [ref.serviceId]);
    return byId.rows[0];
  }
  return undefined;
}

export async function findStoredProfile(db: Queryable, ref: ProfileRef): Promise<StoredProfileRow | undefined> {
  const select = `SELECT ${profileColumns({ getDetailedEducation: true, getDetailedWorkExperience: true })}, p.network_user_id,
    coalesce(p.live_fetched_at, p.updated_at) AS fetched_at FROM people p`;
  if (ref.userId) {
    const byId = await db.query<StoredProfileRow>(`${select} WHERE p.network_user_id = $1 ORDER BY p.id LIMIT 1`, [
      ref.userId,
    ]);
    if (byId.rows[0]) return byId.rows[0];
  }
  if (ref.slug) {
    const bySlug = await db.query<StoredProfileRow>(`${select} WHERE p.network_slug = $1 ORDER BY p.id LIMIT 1`, [
      ref.slug,
    ]);
    return bySlug.rows[0];
  }
  return undefined;
}

/** Live values replace stored ones; what the network does not say (null, empty) leaves the stored value. */
export async function refreshCompany(db: Queryable, stored: StoredCompanyRow, live: LiveCompany): Promise<CompanyRow> {
  // A company keeps its earlier domains (they still redirect); the live website comes first.
  const domains = [...new Set([...live.domains, ...stored.domains])];
  const tlds = [...new Set([...stored.tlds, ...live.domains.map(tldOf)])];
  const result = await db.query<CompanyRow>(
    `UPDATE companies c SET
       preferred_name = $2,
       description = coalesce($3, c.description),
       domains = $4,
       tlds = $5,
       network_primary_slug = coalesce($6, c.network_primary_slug),
       network_org_id = coalesce($7, c.network_org_id),
       standard_industries = CASE WHEN cardinality($8::text[]) > 0 THEN $8::text[] ELSE c.standard_industries END,
       employee_count_min = CASE WHEN $9::integer IS NULL THEN c.employee_count_min ELSE $9::integer END,
       employee_count_max = CASE WHEN $9::integer IS NULL THEN c.employee_count_max ELSE $10::integer END,
       city = coalesce($11, c.city),
       state_name = coalesce($12, c.state_name),
       country_code = coalesce($13, c.country_code),
       founded_on = coalesce($14::date, c.founded_on),
       updated_at = now(),
       live_fetched_at = now()
     WHERE c.id = $1
     RETURNING ${companyColumns}`,
    [
      stored.id,
      live.name,
      live.description,
      domains,
      tlds,
      live.slug,
      live.orgId,
      live.industries,
      live.employeeCountMin,
      live.employeeCountMax,
      live.city,
      live.stateName,
      live.countryCode,
      live.foundedOn,
    ],
  );
  return result.rows[0] as CompanyRow;
}

export async function refreshProfile(db: Queryable, personId: number, live: LiveProfile): Promise<ProfileRow> {
  const company = live.currentCompany;
  // The title's search columns change with it (migration 150).
  const titled = titleColumns(live.title);
  const result = await db.query<ProfileRow>(
    `UPDATE people p SET
       first_name = $2,
       last_name = $3,
       title = $4,
       headline = $5,
       city = coalesce($6, p.city),
       country_code = coalesce($7, p.country_code),
       country3 = coalesce($8, p.country3),
       company_name = $9,
       company_slug = $10,
       company_domain = $11,
       company_id = CASE WHEN $10::text IS NOT DISTINCT FROM p.company_slug AND $9::text IS NOT DISTINCT FROM p.company_name THEN p.company_id
                         WHEN $10::text IS NULL THEN NULL
                         ELSE (SELECT c.id FROM companies c WHERE c.network_primary_slug = $10::text ORDER BY c.id LIMIT 1) END,
       network_slug = coalesce($12, p.network_slug),
       network_user_id = coalesce($13, p.network_user_id),
       languages = CASE WHEN jsonb_array_length($14::jsonb) > 0 THEN $14::jsonb ELSE p.languages END,
       education = CASE WHEN jsonb_array_length($15::jsonb) > 0 THEN $15::jsonb ELSE p.education END,
       degree_types = CASE WHEN jsonb_array_length($15::jsonb) > 0
         THEN ARRAY(SELECT DISTINCT e->>'degree_type' FROM jsonb_array_elements($15::jsonb) e WHERE e->>'degree_type' IS NOT NULL)
         ELSE p.degree_types END,
       schools = CASE WHEN jsonb_array_length($15::jsonb) > 0
         THEN ARRAY(SELECT DISTINCT e->>'school' FROM jsonb_array_elements($15::jsonb) e WHERE e->>'school' IS NOT NULL)
         ELSE p.schools END,
       work_experiences = CASE WHEN jsonb_array_length($16::jsonb) > 0 THEN $16::jsonb ELSE p.work_experiences END,
       title_words = $17,
       title_mask = $18,
       seniority = $19,
       job_function = $20,
       updated_at = now(),
       live_fetched_at = now()
     WHERE p.id = $1
     RETURNING ${profileColumns({ getDetailedEducation: true, getDetailedWorkExperience: true })}`,
    [
      personId,
      live.firstName,
      live.lastName,
      live.title,
      live.headline,
      live.city,
      live.countryCode,
      live.countryCode ? (alpha3FromAlpha2(live.countryCode) ?? null) : null,
      company?.name ?? null,
      company?.slug ?? null,
      company?.domain ?? null,
      live.slug,
      live.userId,
      JSON.stringify(live.languages),
      JSON.stringify(live.education),
      JSON.stringify(live.workExperiences),
      titled.title_words,
      titled.title_mask,
      titled.seniority,
      titled.job_function,
    ],
  );
  return result.rows[0] as ProfileRow;
}

/** A company the catalog does not hold: shown as the network has it, not stored (catalog ids come from imports). */
export function companyRowFromLive(live: LiveCompany): CompanyRow {
  return {
    id: 0,
    preferred_name: live.name,
    description: live.description ?? '',
    domains: live.domains,
    network_primary_slug: live.slug,
    network_org_id: live.orgId,
    standard_industries: live.industries,
    employee_count_min: live.employeeCountMin,
    employee_count_max: live.employeeCountMax,
    city: live.city,
    state_name: live.stateName,
    country_code: live.countryCode,
    total_funding_usd: null,
    last_funding_usd: null,
    last_funded_on: null,
    founded_on: live.foundedOn,
    stage: null,
    special_flags: [],
  };
}

export function profileRowFromLive(live: LiveProfile): ProfileRow {
  return {
    id: 0,
    first_name: live.firstName,
    last_name: live.lastName,
    title: live.title,
    headline: live.headline,
    city: live.city,
    country_code: live.countryCode,
    country3: live.countryCode ? (alpha3FromAlpha2(live.countryCode) ?? null) : null,
    company_name: live.currentCompany?.name ?? null,
    company_slug: live.currentCompany?.slug ?? null,
    company_domain: live.currentCompany?.domain ?? null,
    network_slug: live.slug,
    years_experience: null,
    tags: [],
    languages: live.languages,
    education: live.education,
    work_experiences: live.workExperiences,
    seniority: titleColumns(live.title).seniority,
    job_function: titleColumns(live.title).job_function,
  };
}
