import { z } from 'zod';
import { normaliseDomain } from '../../core/network-urls.js';
import { createDispatcher, HttpCallError, httpJson } from './http-json.js';
import {
  NetworkSourceError,
  type CompanyRef,
  type EducationEntry,
  type LiveCompany,
  type LiveProfile,
  type NetworkSource,
  type ProfileRef,
  type WorkExperienceEntry,
} from '../../core/ports/network-source.js';

/**
 * The live network over HTTP (NETWORK_SOURCE_URL). The upstream API, as this adapter reads it:
 *
 *   GET {base}/companies/{slug}          GET {base}/companies/by-id/{orgId}
 *   GET {base}/profiles/{slug}           GET {base}/profiles/by-id/{userId}
 *   Authorization: Bearer {NETWORK_SOURCE_API_KEY}
 *
 * 200 carries the record (shapes below, unknown fields ignored), 404 means the network has no
 * such company or profile; anything else (429, 5xx, a body that does not parse, no answer in
 * NETWORK_SOURCE_TIMEOUT_MS) is a failed fetch.
 */
export interface HttpNetworkSourceOptions {
  baseUrl: string;
  apiKey?: string | undefined;
  timeoutMs: number;
}

const nullableString = z
  .string()
  .nullish()
  .transform((v) => (v ? v : null));
const nullableInt = z
  .number()
  .int()
  .nonnegative()
  .nullish()
  .transform((v) => v ?? null);
/** Dates arrive as YYYY, YYYY-MM or YYYY-MM-DD; ours are full dates. */
const partialDate = z
  .string()
  .regex(/^\d{4}(-\d{2}(-\d{2})?)?$/)
  .nullish()
  .transform((v) => (v ? (v.length === 4 ? `${v}-01-01` : v.length === 7 ? `${v}-01` : v) : null));

const upstreamCompany = z.looseObject({
  universal_name: nullableString,
  id: z.union([z.number().int().positive(), z.string().regex(/^\d+$/).transform(Number)]).nullish(),
  name: z.string().min(1),
  description: nullableString,
  website: nullableString,
  industries: z.array(z.string()).nullish(),
  staff_count: nullableInt,
  staff_count_range: z.looseObject({ start: nullableInt, end: nullableInt }).nullish(),
  headquarter: z
    .looseObject({ city: nullableString, geographic_area: nullableString, country: nullableString })
    .nullish(),
  founded_on: partialDate,
});

const upstreamExperience = z.looseObject({
  company: z.string().min(1),
  company_universal_name: nullableString,
  company_domain: nullableString,
  title: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  starts_at: partialDate,
  ends_at: partialDate,
});

const upstreamEducation = z.looseObject({
  school: z.string().min(1),
  degree_name: nullableString,
  field_of_study: nullableString,
  start_year: z
    .number()
    .int()
    .nullish()
    .transform((v) => v ?? null),
  end_year: z
    .number()
    .int()
    .nullish()
    .transform((v) => v ?? null),
});

const upstreamProfile = z.looseObject({
  public_identifier: nullableString,
  member_id: z.union([z.number().int().positive(), z.string().regex(/^\d+$/).transform(Number)]).nullish(),
  first_name: z.string(),
  last_name: z.string(),
  headline: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  occupation: nullableString,
  city: nullableString,
  country_code: nullableString,
  languages: z.array(z.looseObject({ name: z.string(), proficiency: z.string().nullish() })).nullish(),
  experiences: z.array(upstreamExperience).nullish(),
  education: z.array(upstreamEducation).nullish(),
});

export class HttpNetworkSource implements NetworkSource {
  readonly name = 'http';
  private readonly baseUrl: string;
  private readonly dispatcher;

  constructor(private readonly options: HttpNetworkSourceOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.dispatcher = createDispatcher(options.timeoutMs);
  }

  async fetchCompany(ref: CompanyRef, signal?: AbortSignal): Promise<LiveCompany | null> {
    const path = ref.slug ? `/companies/${pathSegment(ref.slug)}` : ref.orgId ? `/companies/by-id/${ref.orgId}` : null;
    if (!path) return null;
    const body = await this.get(path, signal);
    if (body === null) return null;
    const parsed = upstreamCompany.safeParse(body);
    if (!parsed.success)
      throw new NetworkSourceError(
        'invalid_response',
        `the network source sent a company record that does not parse: ${parsed.error.issues[0]?.message ?? ''}`,
      );
    return toLiveCompany(parsed.data);
  }

  async fetchProfile(ref: ProfileRef, signal?: AbortSignal): Promise<LiveProfile | null> {
    const path = ref.slug ? `/profiles/${pathSegment(ref.slug)}` : ref.userId ? `/profiles/by-id/${ref.userId}` : null;
    if (!path) return null;
    const body = await this.get(path, signal);
    if (body === null) return null;
    const parsed = upstreamProfile.safeParse(body);
    if (!parsed.success)
      throw new NetworkSourceError(
        'invalid_response',
        `the network source sent a profile that does not parse: ${parsed.error.issues[0]?.message ?? ''}`,
      );
    return toLiveProfile(parsed.data);
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }

  /** The parsed body of a 200, null for a 404; throws NetworkSourceError otherwise. */
  private async get(path: string, signal: AbortSignal | undefined): Promise<unknown> {
    let response;
    try {
      response = await httpJson({
        method: 'GET',
        url: `${this.baseUrl}${path}`,
        apiKey: this.options.apiKey,
        timeoutMs: this.options.timeoutMs,
        signal,
        dispatcher: this.dispatcher,
      });
    } catch (error) {
      if (error instanceof HttpCallError) throw new NetworkSourceError(error.kind, error.message, { cause: error });
      throw error;
    }
    if (response.status === 404) return null;
    if (response.status !== 200)
      throw new NetworkSourceError('unavailable', `the network source answered HTTP ${response.status}`);
    if (response.body === undefined)
      throw new NetworkSourceError('invalid_response', 'the network source answered 200 without a JSON body');
    return response.body;
  }
}

function toLiveCompany(u: z.infer<typeof upstreamCompany>): LiveCompany {
  const range = u.staff_count_range;
  // A range is what the catalog keeps; a bare staff count is a range of one.
  const min = range?.start ?? u.staff_count ?? null;
  const max = range ? range.end : (u.staff_count ?? null);
  const domain = u.website ? normaliseDomain(u.website) : '';
  const country = u.headquarter?.country?.toUpperCase() ?? null;
  return {
    slug: u.universal_name?.toLowerCase() ?? null,
    orgId: u.id ?? null,
    name: u.name,
    description: u.description,
    domains: domain ? [domain] : [],
    industries: u.industries ?? [],
    employeeCountMin: min,
    employeeCountMax: max,
    city: u.headquarter?.city ?? null,
    stateName: u.headquarter?.geographic_area ?? null,
    countryCode: country && /^[A-Z]{2}$/.test(country) ? country : null,
    foundedOn: u.founded_on,
  };
}

function toLiveProfile(u: z.infer<typeof upstreamProfile>): LiveProfile {
  const positions: WorkExperienceEntry[] = (u.experiences ?? []).map((e) => ({
    company_name: e.company,
    company_slug: e.company_universal_name?.toLowerCase() ?? null,
    company_domain: e.company_domain ? normaliseDomain(e.company_domain) : null,
    title: e.title,
    start_date: e.starts_at,
    end_date: e.ends_at,
    is_current: e.ends_at === null,
  }));
  const current = positions.find((p) => p.is_current) ?? null;
  const degrees: EducationEntry[] = (u.education ?? []).map((e) => ({
    school: e.school,
    degree_type: degreeTypeOf(e.degree_name),
    field_of_study: e.field_of_study,
    start_year: e.start_year,
    end_year: e.end_year,
  }));
  const country = u.country_code?.toUpperCase() ?? null;
  return {
    slug: u.public_identifier?.toLowerCase() ?? null,
    userId: u.member_id ?? null,
    firstName: u.first_name,
    lastName: u.last_name,
    title: current?.title || u.occupation || '',
    headline: u.headline,
    city: u.city,
    countryCode: country && /^[A-Z]{2}$/.test(country) ? country : null,
    currentCompany: current
      ? { name: current.company_name, slug: current.company_slug, domain: current.company_domain }
      : null,
    languages: (u.languages ?? []).map((l) => ({ name: l.name, proficiency_name: l.proficiency ?? '' })),
    education: degrees,
    workExperiences: positions,
  };
}

/** The catalog keeps degree types as codes (people search filters on them); upstream writes degree names. */
export function degreeTypeOf(name: string | null): string | null {
  if (!name) return null;
  const n = name.toLowerCase();
  if (/\bmba\b|business administration/.test(n) && /master|mba/.test(n)) return 'MBA';
  if (/\bph\.?d\b|doctor of philosophy|doctorate/.test(n)) return 'PHD';
  if (/\bj\.?d\b|juris doctor/.test(n)) return 'JD';
  if (/\bm\.?d\b|doctor of medicine/.test(n)) return 'MD';
  if (/master|\bm\.?sc?\b|\bm\.?a\b|\bm\.?eng\b/.test(n)) return 'MASTERS';
  if (/bachelor|\bb\.?sc?\b|\bb\.?a\b|\bb\.?eng\b/.test(n)) return 'BACHELORS';
  if (/associate/.test(n)) return 'ASSOCIATES';
  if (/high school|secondary|diploma/.test(n) && !/certificate/.test(n)) return 'HIGH_SCHOOL';
  if (/certificat/.test(n)) return 'CERTIFICATE';
  return null;
}

/**
 * One path segment for the upstream, never a dot segment: `encodeURIComponent` leaves dots alone,
 * and `/profiles/..` would reach `{base}/` with the upstream's bearer token. Callers validate
 * slugs first; this adapter does not trust that they did.
 */
function pathSegment(value: string): string {
  if (value === '' || value === '.' || value === '..')
    throw new Error(`refusing a dot segment as an upstream path: "${value}"`);
  return encodeURIComponent(value);
}
