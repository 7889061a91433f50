import { iso31662 } from 'iso-3166';
import {
  COMMON_SECOND_LANGUAGES,
  COMPANY_FLAGS,
  FUNDING_STAGES,
  ISO_COUNTRIES,
  JOB_FUNCTION_NAMES,
  LANGUAGES,
  PROFICIENCY_NAMES,
  PROSPECT_TAGS,
  SENIORITY_LEVELS,
} from '../../../reference/index.js';

/**
 * Reference data for filters, beside regions and industries: the closed vocabularies of the tag,
 * flag and stage filters, the languages of profiles, time zones and ISO 3166-2 subdivisions.
 * Built once; each is small and never changes while the service runs.
 */

export function listTags() {
  return {
    prospectTags: PROSPECT_TAGS.map((t) => ({ slug: t.slug, description: t.description })),
    companyFlags: COMPANY_FLAGS.map((f) => ({ slug: f.slug, description: f.description })),
    fundingStages: [...FUNDING_STAGES],
  };
}

/** The seniorities and job functions a profile's title is read as (reference/job-titles.ts). */
export function listJobTitleTaxonomy() {
  return {
    seniorities: SENIORITY_LEVELS.map((s) => ({ slug: s.level, description: s.description })),
    jobFunctions: JOB_FUNCTION_NAMES.map((f) => ({ slug: f.jobFunction, description: f.description })),
  };
}

export function listLanguages() {
  const common = new Set(COMMON_SECOND_LANGUAGES);
  return {
    languages: LANGUAGES.map((name) => ({ name, commonSecondLanguage: common.has(name) })),
    proficiencies: [...PROFICIENCY_NAMES],
  };
}

let timeZones: Array<{ name: string; area: string; utcOffset: string }> | null = null;

/** The IANA time zones this runtime knows, with their offset from UTC now (it moves with daylight saving time). */
export function listTimeZones(now = new Date()) {
  if (!timeZones) {
    const names = Intl.supportedValuesOf('timeZone');
    // ICU leaves the plain UTC zone out of its list; people look for it.
    timeZones = [...(names.includes('UTC') ? [] : ['UTC']), ...names].map((name) => ({
      name,
      area: name.split('/')[0] as string,
      utcOffset: '',
    }));
  }
  return {
    asOf: now.toISOString(),
    timeZones: timeZones.map((zone) => ({ ...zone, utcOffset: utcOffsetOf(zone.name, now) })),
  };
}

function utcOffsetOf(timeZone: string, at: Date): string {
  const part = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName');
  const text = part?.value ?? 'GMT';
  return text === 'GMT' ? '+00:00' : text.replace('GMT', '');
}

const countryNames = new Map(ISO_COUNTRIES.map((c) => [c.code2, c.name]));

/** ISO 3166-2 subdivisions (states, provinces, regions), of one country or of all. */
export function listCountrySubdivisions(countryCode?: string) {
  const wanted = countryCode?.toUpperCase();
  const subdivisions = iso31662
    .filter((s) => !wanted || s.code.startsWith(`${wanted}-`))
    .map((s) => {
      const country = s.code.slice(0, 2);
      return {
        code: s.code,
        name: s.name,
        countryCode: country,
        countryName: countryNames.get(country) ?? null,
        parent: s.parent === country ? null : s.parent,
      };
    });
  return { countryCode: wanted ?? null, subdivisions };
}
