import {
  NAMES_BY_CULTURE,
  SENIORITY_EXPERIENCE,
  TECHNICAL_FUNCTIONS,
  TITLES,
  type DegreeType,
  type Industry,
  type JobFunction,
  type NameCulture,
  type NamePool,
  type Seniority,
} from '../../../reference/index.js';
import { titleColumns } from '../../core/titles/normalise.js';
import type { PersonRow, WorkExperienceEntry } from '../../store/tables/people.js';
import type { PersonContactRow } from '../../store/tables/person-contacts.js';
import { bucketOf, createCompanyGenerator, type CompanyGenerator, type CompanyIdentity } from './companies.js';
import { AS_OF_MONTH, isoFromMonth } from './dates.js';
import type { Weighted } from './random.js';
import {
  Permutation,
  Rng,
  STREAM_BUCKET,
  STREAM_EMAIL_PATTERN,
  STREAM_PERSON,
  STREAM_PERSON_SLUG,
  STREAM_TITLE_FORM,
  STREAM_USER_ID,
  mix32,
  rowSeed,
  streamKey,
  uniqueNumber,
} from './random.js';
import { emailPart, slugPart } from './text.js';
import {
  anyFunctionFor,
  educationFor,
  headlineFor,
  languagesFor,
  personalEmail,
  phoneNumber,
  stepDown,
  titleFor,
  workLocalPart,
  writtenTitle,
  type GeneratedEducation,
  type GeneratedLanguage,
} from './person-details.js';
import { countryTable, cultureTables, functionTables, pickPlace, seniorityTables } from './weighted-tables.js';

// Generated people and their contact points: a pure function of (seed, id, number of
// companies); see random.ts.

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
  /** The current title before it was written in one of the forms people use (bench/relevance.ts labels by it). */
  canonicalTitle: string;
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
  const titleFormKey = streamKey(seed, STREAM_TITLE_FORM);

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
    // A stream of its own: the written form changes no other number of the profile.
    const { form, decoration } = writtenTitle(new Rng(rowSeed(titleFormKey, id)), title, company.name, industry.name);
    const written = form + decoration;

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
        title: written,
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
      title: written,
      headline: headlineFor(rng, form, company, industry),
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
      ...titleColumns(written),
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
    return { person, contacts, canonicalTitle: title };
  }

  return { person };
}
