import {
  BUSINESS_SCHOOLS,
  CERTIFICATE_PROVIDERS,
  COMMON_SECOND_LANGUAGES,
  DEGREE_YEARS,
  FIELDS_BY_FUNCTION,
  FIELDS_OF_STUDY,
  GROUP_VOCABULARY,
  HIGH_SCHOOLS,
  NATIVE_PROFICIENCY,
  SENIORITIES,
  TITLES,
  collegesOf,
  universitiesOf,
  type Country,
  type DegreeType,
  type Industry,
  type JobFunction,
  type NameCulture,
  type Seniority,
  TITLE_DECORATIONS,
  TITLE_DECORATION_SHARE,
  TITLE_WRITTEN_FORMS,
  TITLE_WRITTEN_FORM_SHARE,
} from '../../../reference/index.js';
import type { EducationEntry, LanguageEntry } from '../../store/tables/people.js';
import type { CompanyIdentity } from './companies.js';
import { asOfYear } from './dates.js';
import { Weighted, type Rng } from './random.js';
import { capitalise } from './text.js';
import { functionTables, personalEmailTable } from './weighted-tables.js';

// The parts of a generated person (title, headline, schooling, languages, contact points), drawn from
// the person's own random stream by people.ts, in the order it calls them.

export interface GeneratedLanguage extends LanguageEntry {
  proficiency_name: string;
}

export interface GeneratedEducation extends EducationEntry {
  degree_type: DegreeType;
  start_year: number;
  end_year: number;
}

const SENIORITY_RANK: Readonly<Record<Seniority, number>> = {
  ENTRY: 0,
  SENIOR: 1,
  MANAGER: 2,
  DIRECTOR: 3,
  VP: 4,
  CXO: 5,
  OWNER: 5,
};

const writtenForms = TITLE_WRITTEN_FORMS.map(([pattern, forms]) => [new RegExp(pattern), forms] as const);

/**
 * The current title as its holder writes it: the canonical title, or (for a share) one of its
 * written forms (reference/titles.ts), and sometimes a decoration after it (the company, the
 * industry), which the headline leaves out.
 */
export function writtenTitle(
  rng: Rng,
  title: string,
  companyName: string,
  industryName: string,
): { form: string; decoration: string } {
  let form = title;
  if (rng.chance(TITLE_WRITTEN_FORM_SHARE)) {
    const rule = writtenForms.find(([pattern]) => pattern.test(title));
    if (rule) form = title.replace(rule[0], rng.pick(rule[1]));
  }
  const decoration = rng.chance(TITLE_DECORATION_SHARE)
    ? rng.pick(TITLE_DECORATIONS).replace('{company}', companyName).replace('{industry}', industryName)
    : '';
  return { form, decoration };
}

export function titleFor(rng: Rng, jobFunction: JobFunction, seniority: Seniority): string {
  const titles =
    TITLES[jobFunction][seniority] ?? TITLES['general-management'][seniority] ?? TITLES['general-management'].CXO;
  return rng.pick(titles as readonly string[]);
}

/** The seniority of the job before: the same or one step down, never below entry level. */
export function stepDown(rng: Rng, seniority: Seniority): Seniority {
  if (seniority === 'OWNER') return rng.pick(['DIRECTOR', 'VP', 'MANAGER', 'SENIOR'] as const);
  const rank = SENIORITY_RANK[seniority];
  if (rank === 0 || rng.chance(0.35)) return seniority;
  return SENIORITIES[rank - 1] as Seniority;
}

export function anyFunctionFor(rng: Rng, company: CompanyIdentity): JobFunction {
  const industry = company.industries[0] as Industry;
  const jobFunction = (functionTables.get(industry.slug) as Weighted<JobFunction>).pick(rng);
  return jobFunction === 'general-management' ? 'operations' : jobFunction;
}

export function headlineFor(rng: Rng, title: string, company: CompanyIdentity, industry: Industry): string {
  const roll = rng.next();
  if (roll < 0.55) return `${title} at ${company.name}`;
  if (roll < 0.7) return `${title} @ ${company.name}`;
  const vocabulary = GROUP_VOCABULARY[industry.group];
  if (roll < 0.85)
    return `${title} at ${company.name} | Helping ${rng.pick(vocabulary.customers)} ${rng.pick(vocabulary.outcomes)}`;
  const a = rng.pick(industry.keywords);
  const b = rng.pick(industry.keywords);
  return a === b ? `${title} | ${capitalise(a)}` : `${title} | ${capitalise(a)} | ${capitalise(b)}`;
}

// Countries without listed universities send students to a neighbour or abroad.
const abroadSchools = new Weighted<string>([
  ['US', 40],
  ['GB', 20],
  ['CA', 6],
  ['AU', 6],
  ['DE', 5],
  ['FR', 5],
  ['ES', 4],
  ['NL', 3],
  ['MX', 3],
  ['SG', 3],
  ['IN', 3],
  ['AE', 2],
]);

function schoolFor(rng: Rng, country: Country): string {
  const home = universitiesOf(country.code2);
  const code = home.length > 0 && rng.chance(0.85) ? country.code2 : abroadSchools.pick(rng);
  return rng.pick(universitiesOf(code));
}

function fieldFor(rng: Rng, jobFunction: JobFunction): string {
  const fields = FIELDS_BY_FUNCTION[jobFunction];
  return fields && rng.chance(0.75) ? rng.pick(fields) : rng.pick(FIELDS_OF_STUDY);
}

export function educationFor(
  rng: Rng,
  country: Country,
  jobFunction: JobFunction,
  seniority: Seniority,
  title: string,
  careerStartMonth: number,
): GeneratedEducation[] {
  if (rng.chance(0.12)) return []; // many profiles list no education at all
  const careerStartYear = Math.floor(careerStartMonth / 12);
  const entries: GeneratedEducation[] = [];
  const frontline = jobFunction === 'frontline' && seniority === 'ENTRY';
  const firstRoll = rng.next();
  let undergradEnd = Math.min(asOfYear, careerStartYear - (rng.chance(0.7) ? 0 : 1));
  if (frontline && firstRoll < 0.45) {
    entries.push({
      school: rng.pick(HIGH_SCHOOLS),
      degree_type: 'HIGH_SCHOOL',
      field_of_study: null,
      start_year: undergradEnd - 4,
      end_year: undergradEnd,
    });
    return entries;
  }
  const colleges = collegesOf(country.code2);
  if (colleges.length > 0 && firstRoll < 0.09) {
    entries.push({
      school: rng.pick(colleges),
      degree_type: 'ASSOCIATES',
      field_of_study: fieldFor(rng, jobFunction),
      start_year: undergradEnd - 2,
      end_year: undergradEnd,
    });
  } else {
    entries.push({
      school: schoolFor(rng, country),
      degree_type: 'BACHELORS',
      field_of_study: fieldFor(rng, jobFunction),
      start_year: undergradEnd - 4,
      end_year: undergradEnd,
    });
  }

  const graduate: DegreeType | null = /Physician|Medical Director|Chief Medical/.test(title)
    ? 'MD'
    : /Attorney|Counsel|Solicitor|Partner/.test(title) && jobFunction === 'legal'
      ? 'JD'
      : rng.chance(
            jobFunction === 'research' ? 0.35 : jobFunction === 'education' || jobFunction === 'data' ? 0.12 : 0.025,
          )
        ? 'PHD'
        : rng.chance(
              seniority === 'ENTRY'
                ? 0.05
                : ['general-management', 'finance', 'consulting', 'sales'].includes(jobFunction)
                  ? 0.22
                  : 0.1,
            )
          ? 'MBA'
          : rng.chance(0.24)
            ? 'MASTERS'
            : null;
  if (graduate) {
    const years = DEGREE_YEARS[graduate];
    // An MBA comes after a few years of work; other degrees follow the first one directly.
    const start =
      graduate === 'MBA'
        ? Math.max(undergradEnd, careerStartYear + rng.between(3, 8))
        : undergradEnd + (rng.chance(0.6) ? 0 : 1);
    const end = start + years;
    // Degrees still in progress are left out rather than dated in the future.
    if (end <= asOfYear) {
      const school = graduate === 'MBA' && rng.chance(0.4) ? rng.pick(BUSINESS_SCHOOLS) : schoolFor(rng, country);
      const field =
        graduate === 'MBA'
          ? 'Business Administration'
          : graduate === 'MD'
            ? 'Medicine'
            : graduate === 'JD'
              ? 'Law'
              : fieldFor(rng, jobFunction);
      entries.unshift({ school, degree_type: graduate, field_of_study: field, start_year: start, end_year: end });
      undergradEnd = end;
    }
  }
  if (rng.chance(0.08)) {
    const year = Math.min(asOfYear, Math.max(undergradEnd, careerStartYear) + rng.between(0, 6));
    entries.unshift({
      school: rng.pick(CERTIFICATE_PROVIDERS),
      degree_type: 'CERTIFICATE',
      field_of_study: fieldFor(rng, jobFunction),
      start_year: year - 1,
      end_year: year,
    });
  }
  return entries;
}

export function languagesFor(rng: Rng, country: Country, culture: NameCulture): GeneratedLanguage[] {
  if (rng.chance(0.3)) return []; // many profiles list no languages
  const native =
    culture === 'anglo' && country.languages[0] !== 'English' && rng.chance(0.5)
      ? 'English'
      : (country.languages[0] as string);
  const out: GeneratedLanguage[] = [{ name: native, proficiency_name: NATIVE_PROFICIENCY }];
  if (native !== 'English' && rng.chance(0.75)) {
    out.push({
      name: 'English',
      proficiency_name: rng.pick([
        'Full professional proficiency',
        'Professional working proficiency',
        'Professional working proficiency',
        'Limited working proficiency',
      ]),
    });
  }
  if (rng.chance(native === 'English' ? 0.3 : 0.25)) {
    const candidates = [...country.languages.slice(1), ...COMMON_SECOND_LANGUAGES];
    const extra = rng.pick(candidates);
    if (!out.some((l) => l.name === extra)) {
      out.push({
        name: extra,
        proficiency_name: rng.pick([
          'Elementary proficiency',
          'Limited working proficiency',
          'Professional working proficiency',
          'Native or bilingual proficiency',
        ]),
      });
    }
  }
  return out;
}

export function workLocalPart(pattern: number, first: string, last: string): string {
  if (pattern < 45) return `${first}.${last}`;
  if (pattern < 62) return first;
  if (pattern < 80) return `${first[0] ?? ''}${last}`;
  if (pattern < 88) return `${first}${last}`;
  if (pattern < 93) return `${first}_${last}`;
  if (pattern < 97) return `${first}${last[0] ?? ''}`;
  return `${last}.${first}`;
}

export function personalEmail(rng: Rng, first: string, last: string): string {
  const domain = personalEmailTable.pick(rng);
  const roll = rng.next();
  const digits = rng.chance(0.5) ? `${rng.between(1, 99)}` : '';
  let local: string;
  if (roll < 0.4) local = `${first}.${last}${digits}`;
  else if (roll < 0.6) local = `${first}${last}${digits}`;
  else if (roll < 0.75) local = `${first[0] ?? ''}${last}${rng.between(70, 99)}`;
  else if (roll < 0.9) local = `${first}_${last}${digits}`;
  else local = `${first}${rng.between(1, 999)}`;
  return `${local}@${domain}`;
}

export function phoneNumber(rng: Rng, country: Country): string {
  let national = rng.pick(country.mobilePrefixes);
  while (national.length < country.phoneDigits) national += String(rng.int(10));
  return `+${country.callingCode}${national.slice(0, country.phoneDigits)}`;
}
