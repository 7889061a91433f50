import {
  BUSINESS_SCHOOLS,
  CERTIFICATE_PROVIDERS,
  COMMON_SECOND_LANGUAGES,
  DEGREE_YEARS,
  FIELDS_BY_FUNCTION,
  FIELDS_OF_STUDY,
  GROUP_VOCABULARY,
  HIGH_SCHOOLS,
  NAMES_BY_CULTURE,
  NATIVE_PROFICIENCY,
  SENIORITIES,
  SENIORITY_EXPERIENCE,
  TECHNICAL_FUNCTIONS,
  TITLES,
  collegesOf,
  universitiesOf,
  type Country,
  type DegreeType,
  type Industry,
  type JobFunction,
  type NameCulture,
  type NamePool,
  type Seniority,
} from '../../../reference/index.js';
import type { EducationEntry, LanguageEntry, PersonRow, WorkExperienceEntry } from '../../store/tables/people.js';
import type { PersonContactRow } from '../../store/tables/person-contacts.js';
import { bucketOf, createCompanyGenerator, type CompanyGenerator, type CompanyIdentity } from './companies.js';
import { AS_OF_MONTH, asOfYear, isoFromMonth } from './dates.js';
import {
  Permutation,
  Rng,
  STREAM_BUCKET,
  STREAM_EMAIL_PATTERN,
  STREAM_PERSON,
  STREAM_PERSON_SLUG,
  STREAM_USER_ID,
  Weighted,
  mix32,
  rowSeed,
  streamKey,
  uniqueNumber,
} from './random.js';
import { capitalise, emailPart, slugPart } from './text.js';
import {
  countryTable,
  cultureTables,
  functionTables,
  personalEmailTable,
  pickPlace,
  seniorityTables,
} from './weighted-tables.js';

// Generated people and their contact points: a pure function of (seed, id, number of
// companies); see random.ts.

export interface GeneratedLanguage extends LanguageEntry {
  proficiency_name: string;
}

export interface GeneratedEducation extends EducationEntry {
  degree_type: DegreeType;
  start_year: number;
  end_year: number;
}

export interface GeneratedWorkExperience extends WorkExperienceEntry {
  company_slug: string;
  company_domain: string;
  start_date: string;
}

/** A generated profile: a row of `people` without the gaps imported ones may have. */
export interface GeneratedPerson extends PersonRow {
  city: string;
  country_code: string;
  country3: string;
  company_id: number;
  company_name: string;
  company_slug: string;
  company_domain: string;
  network_slug: string;
  network_user_id: number;
  years_experience: number;
  languages: GeneratedLanguage[];
  degree_types: DegreeType[];
  education: GeneratedEducation[];
  work_experiences: GeneratedWorkExperience[];
}

/** A contact point of the dataset (its source is 'dataset'). */
export type GeneratedContact = Omit<PersonContactRow, 'source'>;

// How strongly each bucket attracts people: sub-linear in headcount, so that giants hold a
// large share of all profiles without leaving small companies empty.
const BUCKET_PEOPLE_WEIGHT = [1, 4.2, 13.3, 30, 55, 166, 350, 1600];
export interface PersonWithContacts {
  person: GeneratedPerson;
  contacts: GeneratedContact[];
}

export interface PeopleGenerator {
  person(id: number): PersonWithContacts;
}

/**
 * People point at companies 1..companyCount, more often at big ones. The weight table
 * (8 bytes per company) is the only state; it is built from the companies' buckets,
 * which cost one hash each.
 */
export function createPeopleGenerator(
  seed: number,
  companyCount: number,
  companies?: CompanyGenerator,
): PeopleGenerator {
  if (!Number.isInteger(companyCount) || companyCount < 1) {
    throw new Error('people need at least one company to work at');
  }
  const companyGen = companies ?? createCompanyGenerator(seed);
  const bucketKey = streamKey(seed, STREAM_BUCKET);
  const personKey = streamKey(seed, STREAM_PERSON);
  const userKey = streamKey(seed, STREAM_USER_ID);
  const slugPermutation = new Permutation(32, streamKey(seed, STREAM_PERSON_SLUG));
  const userIds = new Permutation(30, userKey);
  const patternKey = streamKey(seed, STREAM_EMAIL_PATTERN);

  const cumulative = new Float64Array(companyCount);
  let total = 0;
  for (let id = 1; id <= companyCount; id++) {
    const bucket = bucketOf(bucketKey, id);
    let weight = BUCKET_PEOPLE_WEIGHT[bucket] as number;
    // The biggest companies differ among themselves by orders of magnitude.
    if (bucket === 7) weight *= Math.min(30, (1 - mix32(rowSeed(bucketKey ^ 0x7777, id)) / 4294967296) ** -0.7) / 3;
    total += weight;
    cumulative[id - 1] = total;
  }

  // A guide table narrows each binary search to the few entries around its target; the
  // answer is the same as searching the whole table, just with fewer cache misses.
  const GUIDE_SIZE = Math.min(1 << 16, companyCount);
  const guide = new Int32Array(GUIDE_SIZE + 1);
  for (let k = 0, i = 0; k <= GUIDE_SIZE; k++) {
    const bound = (k / GUIDE_SIZE) * total;
    while (i < companyCount - 1 && (cumulative[i] as number) <= bound) i++;
    guide[k] = i;
  }

  function pickCompanyId(rng: Rng): number {
    const target = rng.next() * total;
    const slot = Math.min(GUIDE_SIZE - 1, Math.floor((target / total) * GUIDE_SIZE));
    let lo = guide[slot] as number;
    let hi = guide[slot + 1] as number;
    // Rounding at a slot boundary could put the target just outside the slot: widen then.
    if (lo > 0 && (cumulative[lo - 1] as number) > target) lo = 0;
    if ((cumulative[hi] as number) <= target) hi = companyCount - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((cumulative[mid] as number) > target) hi = mid;
      else lo = mid + 1;
    }
    return lo + 1;
  }

  // A company's identity is needed for its own people and for past jobs; the few
  // thousand companies with most people are asked for again and again. A direct-mapped
  // cache keeps them at the cost of an array lookup.
  const CACHE_SLOTS = 1 << 17;
  const identityCache: Array<CompanyIdentity | undefined> = new Array<CompanyIdentity | undefined>(CACHE_SLOTS);
  function identityOf(id: number): CompanyIdentity {
    const slot = id & (CACHE_SLOTS - 1);
    let identity = identityCache[slot];
    if (identity === undefined || identity.id !== id) {
      identity = companyGen.identity(id);
      identityCache[slot] = identity;
    }
    return identity;
  }

  function person(id: number): PersonWithContacts {
    const rng = new Rng(rowSeed(personKey, id));
    const company = identityOf(pickCompanyId(rng));
    const industry = company.industries[0] as Industry;

    const country = rng.chance(0.88) ? company.place.country : countryTable.pick(rng);
    const place = country === company.place.country && rng.chance(0.65) ? company.place : pickPlace(rng, country);
    const culture = (cultureTables.get(country.code2) as Weighted<NameCulture>).pick(rng);
    const names = NAMES_BY_CULTURE[culture] as NamePool;
    const firstName = rng.pick(names.first);
    const lastName = rng.pick(names.last);

    const seniority = (seniorityTables[company.bucket] as Weighted<Seniority>).pick(rng);
    let jobFunction = (functionTables.get(industry.slug) as Weighted<JobFunction>).pick(rng);
    if (seniority === 'OWNER' && (!TITLES[jobFunction].OWNER || rng.chance(0.75))) jobFunction = 'general-management';
    if (seniority === 'CXO' && rng.chance(0.35)) jobFunction = 'general-management';
    const title = titleFor(rng, jobFunction, seniority);

    const [minYears, maxYears] = SENIORITY_EXPERIENCE[seniority];
    const yearsExperience = Math.round(minYears + ((maxYears - minYears) * (rng.next() + rng.next())) / 2);
    const careerMonths = Math.max(1, yearsExperience * 12 + rng.int(12));

    // Current job: never older than the company, nor than the career.
    const companyAgeMonths = Math.max(1, Math.floor(company.ageDays / 30.44));
    let tenure: number;
    if (seniority === 'OWNER' && /Founder/.test(title)) tenure = companyAgeMonths;
    else if (seniority === 'ENTRY') tenure = rng.between(1, 30);
    else tenure = Math.max(1, Math.round(rng.logNormal(30, 0.8)));
    tenure = Math.min(tenure, careerMonths, companyAgeMonths);

    const experiences: GeneratedWorkExperience[] = [
      {
        company_name: company.name,
        company_slug: company.slug,
        company_domain: company.domain,
        title,
        start_date: isoFromMonth(AS_OF_MONTH - tenure),
        end_date: null,
        is_current: true,
      },
    ];
    let promotedInPlace = false;
    let cursor = AS_OF_MONTH - tenure;
    let remaining = careerMonths - tenure;
    let pastSeniority = seniority;
    while (remaining >= 6 && experiences.length < 5) {
      const last = experiences.length === 4;
      const duration = last ? remaining : Math.min(remaining, rng.between(10, 60));
      pastSeniority = stepDown(rng, pastSeniority);
      const sameCompany =
        experiences.length === 1 && seniority !== 'OWNER' && seniority !== 'ENTRY' && rng.chance(0.15);
      const pastCompany = sameCompany ? company : identityOf(pickCompanyId(rng));
      if (sameCompany) promotedInPlace = true;
      const pastFunction =
        jobFunction === 'general-management' || rng.chance(0.12) ? anyFunctionFor(rng, pastCompany) : jobFunction;
      const end = cursor - (sameCompany ? 0 : rng.int(3));
      experiences.push({
        company_name: pastCompany.name,
        company_slug: pastCompany.slug,
        company_domain: pastCompany.domain,
        title: titleFor(rng, pastFunction, pastSeniority),
        start_date: isoFromMonth(end - duration),
        end_date: isoFromMonth(end),
        is_current: false,
      });
      cursor = end - duration;
      remaining -= duration;
    }

    const education = educationFor(rng, country, jobFunction, seniority, title, AS_OF_MONTH - careerMonths);
    const languages = languagesFor(rng, country, culture);

    const tags: string[] = [];
    const senior = seniority === 'DIRECTOR' || seniority === 'VP' || seniority === 'CXO' || seniority === 'OWNER';
    if (senior && rng.chance(0.9)) tags.push('decision-maker');
    if ((seniority === 'VP' || seniority === 'CXO' || seniority === 'OWNER') && rng.chance(0.75))
      tags.push('budget-holder');
    if (seniority !== 'ENTRY' && seniority !== 'SENIOR' && rng.chance(0.3)) tags.push('hiring-manager');
    if (promotedInPlace && tenure <= 12) tags.push('recently-promoted');
    if (tenure <= 12) tags.push('new-in-role');
    if (tenure <= 3 && !promotedInPlace && experiences.length > 1) tags.push('job-changer');
    if (TECHNICAL_FUNCTIONS.has(jobFunction)) tags.push('technical');
    if (/Founder/.test(title)) tags.push('founder');
    if (rng.chance(seniority === 'ENTRY' ? 0.1 : 0.04)) tags.push('open-to-work');
    if (rng.chance(0.08)) tags.push('remote');
    if (senior && rng.chance(0.05)) tags.push('speaker');
    if (rng.chance(0.02)) tags.push('influencer');
    if (tags.length > 4) tags.length = 4;

    const userId = uniqueNumber(id, 30, userIds, 10_000_000);
    const slugSuffix = (id <= 4294967296 ? slugPermutation.apply(id - 1) : id).toString(16).padStart(8, '0');
    const first = emailPart(firstName) || 'member';
    const lastPart = emailPart(lastName) || 'profile';
    const person: GeneratedPerson = {
      id,
      first_name: firstName,
      last_name: lastName,
      title,
      headline: headlineFor(rng, title, company, industry),
      city: place.city,
      country_code: country.code2,
      country3: country.code3,
      company_id: company.id,
      company_name: company.name,
      company_slug: company.slug,
      company_domain: company.domain,
      network_slug: `${slugPart(firstName) || 'member'}-${slugPart(lastName) || 'profile'}-${slugSuffix}`,
      network_user_id: userId,
      years_experience: yearsExperience,
      tags,
      languages,
      degree_types: [...new Set(education.map((e) => e.degree_type))],
      schools: [...new Set(education.map((e) => e.school))],
      education,
      work_experiences: experiences,
    };

    const contacts: GeneratedContact[] = [];
    if (rng.chance(0.6)) {
      const pattern = mix32(rowSeed(patternKey, company.id)) % 100;
      contacts.push({
        person_id: id,
        kind: 'work_email',
        value: `${workLocalPart(pattern, first, lastPart)}@${company.domain}`,
      });
    }
    if (rng.chance(0.3)) {
      contacts.push({ person_id: id, kind: 'personal_email', value: personalEmail(rng, first, lastPart) });
    }
    if (rng.chance(0.4)) {
      contacts.push({ person_id: id, kind: 'phone', value: phoneNumber(rng, country) });
    }
    return { person, contacts };
  }

  return { person };
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

function titleFor(rng: Rng, jobFunction: JobFunction, seniority: Seniority): string {
  const titles =
    TITLES[jobFunction][seniority] ?? TITLES['general-management'][seniority] ?? TITLES['general-management'].CXO;
  return rng.pick(titles as readonly string[]);
}

/** The seniority of the job before: the same or one step down, never below entry level. */
function stepDown(rng: Rng, seniority: Seniority): Seniority {
  if (seniority === 'OWNER') return rng.pick(['DIRECTOR', 'VP', 'MANAGER', 'SENIOR'] as const);
  const rank = SENIORITY_RANK[seniority];
  if (rank === 0 || rng.chance(0.35)) return seniority;
  return SENIORITIES[rank - 1] as Seniority;
}

function anyFunctionFor(rng: Rng, company: CompanyIdentity): JobFunction {
  const industry = company.industries[0] as Industry;
  const jobFunction = (functionTables.get(industry.slug) as Weighted<JobFunction>).pick(rng);
  return jobFunction === 'general-management' ? 'operations' : jobFunction;
}

function headlineFor(rng: Rng, title: string, company: CompanyIdentity, industry: Industry): string {
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

function educationFor(
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

function languagesFor(rng: Rng, country: Country, culture: NameCulture): GeneratedLanguage[] {
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

function workLocalPart(pattern: number, first: string, last: string): string {
  if (pattern < 45) return `${first}.${last}`;
  if (pattern < 62) return first;
  if (pattern < 80) return `${first[0] ?? ''}${last}`;
  if (pattern < 88) return `${first}${last}`;
  if (pattern < 93) return `${first}_${last}`;
  if (pattern < 97) return `${first}${last[0] ?? ''}`;
  return `${last}.${first}`;
}

function personalEmail(rng: Rng, first: string, last: string): string {
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

function phoneNumber(rng: Rng, country: Country): string {
  let national = rng.pick(country.mobilePrefixes);
  while (national.length < country.phoneDigits) national += String(rng.int(10));
  return `+${country.callingCode}${national.slice(0, country.phoneDigits)}`;
}
