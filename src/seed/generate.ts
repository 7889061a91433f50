import {
  BASE_FUNCTION_WEIGHTS,
  BUSINESS_SCHOOLS,
  CERTIFICATE_PROVIDERS,
  COMMON_SECOND_LANGUAGES,
  COUNTRIES,
  DEGREE_YEARS,
  DESCRIPTION_ADJECTIVES,
  DESCRIPTION_CLOSERS,
  DESCRIPTION_MIDDLES,
  DESCRIPTION_OPENERS,
  DOMAIN_FORMS,
  FIELDS_BY_FUNCTION,
  FIELDS_OF_STUDY,
  FIRST_CITY_WEIGHT,
  GENERIC_TLDS,
  GROUP_FUNCTION_WEIGHTS,
  GROUP_VOCABULARY,
  HIGH_SCHOOLS,
  INDUSTRIES,
  JOB_FUNCTIONS,
  MULTI_LABEL_TLDS,
  NAMES_BY_CULTURE,
  NAME_PREFIXES,
  NAME_SUFFIXES,
  NATIVE_PROFICIENCY,
  NON_PROFIT_INDUSTRIES,
  PERSONAL_EMAIL_DOMAINS,
  RESEARCH_HEAVY_INDUSTRIES,
  SENIORITIES,
  SENIORITY_EXPERIENCE,
  STATE_WEIGHTS,
  TECHNICAL_FUNCTIONS,
  TITLES,
  collegesOf,
  universitiesOf,
} from '../../reference/index.js';
import * as reference from '../../reference/index.js';
import type {
  Country,
  DegreeType,
  FundingStage,
  Industry,
  IndustryGroup,
  JobFunction,
  NameCulture,
  NamePool,
  Seniority,
} from '../../reference/index.js';

/*
 * Deterministic demo data. Every row is a pure function of (seed, id) — people also of the
 * number of companies, since they point into 1..N — so the same seed gives byte-identical
 * rows on every machine, rows can be produced in any order or in parallel, and nothing
 * has to be held in memory but a weight table of the companies.
 *
 * Randomness comes from a seeded 32-bit generator written here; the few Math functions
 * used (log, exp, pow, cos) are V8's own portable implementations, not the platform's C
 * library; and all dates are computed from a fixed snapshot date, never from the clock.
 */

/** The day the dataset describes: dates and durations are computed back from it. */
export const DATASET_AS_OF = '2025-06-30';

export interface CompanyRow {
  id: number;
  preferred_name: string;
  description: string;
  domains: string[];
  tlds: string[];
  network_primary_slug: string;
  network_org_id: number;
  standard_industries: string[];
  employee_count_min: number;
  employee_count_max: number;
  city: string;
  state_name: string | null;
  country_code: string;
  location_text: string;
  total_funding_usd: number | null;
  last_funding_usd: number | null;
  last_funded_on: string | null;
  founded_on: string | null;
  stage: FundingStage | null;
  special_flags: string[];
}

export interface LanguageEntry {
  name: string;
  proficiency_name: string;
}

export interface EducationEntry {
  school: string;
  degree_type: DegreeType;
  field_of_study: string | null;
  start_year: number;
  end_year: number;
}

export interface WorkExperienceEntry {
  company_name: string;
  company_slug: string;
  company_domain: string;
  title: string;
  start_date: string;
  end_date: string | null;
  is_current: boolean;
}

export interface PersonRow {
  id: number;
  first_name: string;
  last_name: string;
  title: string;
  headline: string;
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
  tags: string[];
  languages: LanguageEntry[];
  degree_types: DegreeType[];
  schools: string[];
  education: EducationEntry[];
  work_experiences: WorkExperienceEntry[];
}

export type ContactKind = 'work_email' | 'personal_email' | 'phone';

export interface ContactRow {
  person_id: number;
  kind: ContactKind;
  value: string;
}

/** The headcount buckets of the professional network; the last one is open-ended in reality. */
export const EMPLOYEE_BUCKETS: readonly { min: number; max: number }[] = [
  { min: 1, max: 10 },
  { min: 11, max: 50 },
  { min: 51, max: 200 },
  { min: 201, max: 500 },
  { min: 501, max: 1000 },
  { min: 1001, max: 5000 },
  { min: 5001, max: 10000 },
  { min: 10001, max: 1000000 },
];

// Share of companies per bucket: most companies are tiny, a handful are huge.
const BUCKET_SHARES = [0.52, 0.26, 0.12, 0.05, 0.022, 0.018, 0.005, 0.005];
// How strongly each bucket attracts people: sub-linear in headcount, so that giants hold a
// large share of all profiles without leaving small companies empty.
const BUCKET_PEOPLE_WEIGHT = [1, 4.2, 13.3, 30, 55, 166, 350, 1600];

// ---------------------------------------------------------------------------------------
// Random numbers

/** The murmur3 finaliser: spreads the bits of a 32-bit integer. */
function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** A 32-bit key from any integer seed, including negative and large ones. */
function seedKey(seed: number): number {
  const low = seed >>> 0;
  const high = Math.floor(seed / 4294967296) >>> 0;
  return mix32(low ^ mix32(high ^ 0x5eed5eed));
}

function streamKey(seed: number, stream: number): number {
  return mix32(seedKey(seed) ^ Math.imul(stream, 0x9e3779b9));
}

function rowSeed(key: number, id: number): number {
  return mix32(mix32(key ^ (id >>> 0)) ^ Math.floor(id / 4294967296));
}

/** mulberry32: tiny, fast and good enough for synthetic data. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed | 0;
  }

  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** An integer in [min, max]. */
  between(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** A standard normal deviate (Box–Muller). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** A log-normal value with the given median and log-space spread. */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }
}

class Weighted<T> {
  readonly items: readonly T[];
  private readonly cumulative: Float64Array;
  private readonly total: number;

  constructor(entries: ReadonlyArray<readonly [T, number]>) {
    const usable = entries.filter(([, w]) => w > 0);
    if (usable.length === 0) throw new Error('a weighted table needs at least one positive weight');
    this.items = usable.map(([item]) => item);
    this.cumulative = new Float64Array(usable.length);
    let sum = 0;
    usable.forEach(([, w], i) => {
      sum += w;
      this.cumulative[i] = sum;
    });
    this.total = sum;
  }

  pick(rng: Rng): T {
    const target = rng.next() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.cumulative[mid] as number) > target) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo] as T;
  }
}

/**
 * A bijection on [0, 2^bits): rounds of add-a-key, multiply-by-odd and xorshift, each of
 * which is invertible modulo a power of two. Used to hand out unique identifiers that do
 * not look sequential.
 */
class Permutation {
  private readonly mask: number;
  private readonly shift: number;
  private readonly keys: readonly [number, number, number];

  constructor(bits: number, key: number) {
    this.mask = bits >= 32 ? 0xffffffff : (1 << bits) - 1;
    this.shift = Math.max(1, bits >>> 1);
    this.keys = [mix32(key), mix32(key + 1), mix32(key + 2)];
  }

  apply(x: number): number {
    const { mask, shift } = this;
    let y = x;
    for (const k of this.keys) {
      y = ((y + k) & mask) >>> 0;
      y = (Math.imul(y, (k | 1) >>> 0) & mask) >>> 0;
      y = (y ^ (y >>> shift)) >>> 0;
    }
    return y;
  }
}

/** A bijection on [0, size) by cycle walking inside the enclosing power of two. */
class RangePermutation {
  private readonly permutation: Permutation;

  constructor(
    private readonly size: number,
    key: number,
  ) {
    let bits = 1;
    while (2 ** bits < size) bits++;
    this.permutation = new Permutation(bits, key);
  }

  apply(x: number): number {
    let y = this.permutation.apply(x);
    while (y >= this.size) y = this.permutation.apply(y);
    return y;
  }
}

// ---------------------------------------------------------------------------------------
// Text helpers

const FOLDS: Record<string, string> = {
  ß: 'ss', æ: 'ae', Æ: 'AE', ø: 'o', Ø: 'O', ł: 'l', Ł: 'L', đ: 'd', Đ: 'D', ı: 'i', œ: 'oe', Œ: 'OE', þ: 'th',
};

/** Latin-script text without diacritics, for slugs and email addresses. */
export function foldToAscii(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[ßæÆøØłŁđĐıœŒþ]/g, (c) => FOLDS[c] ?? c);
}

/** "Brightpath Software GmbH & Co." → "brightpath-software-gmbh-co". */
export function slugify(text: string): string {
  return foldToAscii(text)
    .toLowerCase()
    .replace(/&/g, ' ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const emailPartCache = new Map<string, string>();
function emailPart(name: string): string {
  let part = emailPartCache.get(name);
  if (part === undefined) {
    part = foldToAscii(name).toLowerCase().replace(/[^a-z0-9]/g, '');
    emailPartCache.set(name, part);
  }
  return part;
}

const slugPartCache = new Map<string, string>();
function slugPart(name: string): string {
  let part = slugPartCache.get(name);
  if (part === undefined) {
    part = slugify(name);
    slugPartCache.set(name, part);
  }
  return part;
}

const multiLabelTlds = new Set(MULTI_LABEL_TLDS);

/** The TLD of a domain with its leading dot; ".co.uk" for "shop.co.uk". */
export function tldOf(domain: string): string {
  const labels = domain.toLowerCase().split('.');
  if (labels.length >= 3) {
    const lastTwo = `.${labels.slice(-2).join('.')}`;
    if (multiLabelTlds.has(lastTwo)) return lastTwo;
  }
  return `.${labels[labels.length - 1] ?? ''}`;
}

/** Distinct TLDs of a list of domains, in first-seen order. */
export function tldsOf(domains: readonly string[]): string[] {
  return [...new Set(domains.map(tldOf))];
}

/** Templates are parsed once into literal and placeholder parts. */
type Template = readonly string[];
function compile(template: string): Template {
  return template.split(/[{}]/);
}
function render(template: Template, values: Readonly<Record<string, string>>): string {
  let out = '';
  for (let i = 0; i < template.length; i++) {
    out += i % 2 === 0 ? template[i] : (values[template[i] as string] ?? '');
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Dates, as day numbers since 1970-01-01 and month numbers since year 0

function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : `${n}`;
}

function isoFromDays(days: number): string {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return `${year}-${pad2(month)}-${pad2(day)}`;
}

function isoFromMonth(monthNumber: number): string {
  const year = Math.floor(monthNumber / 12);
  return `${year}-${pad2((monthNumber % 12) + 1)}-01`;
}

const [asOfYear, asOfMonth, asOfDay] = DATASET_AS_OF.split('-').map(Number) as [number, number, number];
const AS_OF_DAYS = daysFromCivil(asOfYear, asOfMonth, asOfDay);
const AS_OF_MONTH = asOfYear * 12 + asOfMonth - 1;
const DAYS_PER_YEAR = 365.25;

// ---------------------------------------------------------------------------------------
// Weighted tables built once from the reference data

interface Place {
  country: Country;
  state: string | null;
  city: string;
}

const countryTable = new Weighted(COUNTRIES.map((c) => [c, c.weight] as const));

const cityTables = new Map<string, Weighted<{ state: string | null; city: string }>>(
  COUNTRIES.map((country) => {
    const entries: Array<readonly [{ state: string | null; city: string }, number]> = [];
    if (country.states.length > 0) {
      const stateWeights = STATE_WEIGHTS[country.code2] ?? {};
      for (const state of country.states) {
        const stateWeight = stateWeights[state.name] ?? 1;
        const cityWeightSum = FIRST_CITY_WEIGHT + state.cities.length - 1;
        state.cities.forEach((city, i) => {
          entries.push([{ state: state.name, city }, (stateWeight * (i === 0 ? FIRST_CITY_WEIGHT : 1)) / cityWeightSum]);
        });
      }
    } else {
      country.cities.forEach((city, i) => entries.push([{ state: null, city }, i === 0 ? FIRST_CITY_WEIGHT : 1]));
    }
    return [country.code2, new Weighted(entries)] as const;
  }),
);

function pickPlace(rng: Rng, country: Country): Place {
  const { state, city } = (cityTables.get(country.code2) as Weighted<{ state: string | null; city: string }>).pick(rng);
  return { country, state, city };
}

function locationText(place: Place): string {
  return place.state && place.state !== place.city
    ? `${place.city}, ${place.state}, ${place.country.name}`
    : `${place.city}, ${place.country.name}`;
}

const cultureTables = new Map<string, Weighted<NameCulture>>(
  COUNTRIES.map((c) => [c.code2, new Weighted(Object.entries(c.cultures) as Array<[NameCulture, number]>)] as const),
);

const industryTable = new Weighted(INDUSTRIES.map((i) => [i, i.weight] as const));
const industriesByGroup = new Map<IndustryGroup, Weighted<Industry>>();
for (const industry of INDUSTRIES) {
  if (!industriesByGroup.has(industry.group)) {
    industriesByGroup.set(
      industry.group,
      new Weighted(INDUSTRIES.filter((i) => i.group === industry.group).map((i) => [i, i.weight] as const)),
    );
  }
}

const genericTldTable = new Weighted(GENERIC_TLDS.map((t) => [t.tld, t.weight] as const));
const personalEmailTable = new Weighted(PERSONAL_EMAIL_DOMAINS.map((d) => [d.domain, d.weight] as const));

const functionTables = new Map<string, Weighted<JobFunction>>(
  INDUSTRIES.map((industry) => {
    const boosts = GROUP_FUNCTION_WEIGHTS[industry.group] ?? {};
    const weights = JOB_FUNCTIONS.map((f) => {
      let w = boosts[f] ?? BASE_FUNCTION_WEIGHTS[f];
      if (f === 'research' && RESEARCH_HEAVY_INDUSTRIES.has(industry.slug)) w = 18;
      return [f, w] as const;
    });
    return [industry.slug, new Weighted(weights)] as const;
  }),
);

// Seniority mix by company bucket: founders and executives are a large share of a
// five-person company and a tiny share of a multinational.
const SENIORITY_BY_BUCKET: readonly (readonly number[])[] = [
  // ENTRY SENIOR MANAGER DIRECTOR VP CXO OWNER
  [12, 30, 8, 5, 3, 12, 30],
  [18, 38, 13, 9, 5, 8, 9],
  [20, 42, 15, 10, 6, 4, 3],
  [22, 44, 16, 10, 5, 2, 1],
  [24, 45, 17, 9, 3.5, 1, 0.5],
  [24, 46, 17, 9, 3, 0.6, 0.3],
  [25, 46, 17, 8.5, 3, 0.4, 0.1],
  [25, 47, 17, 8, 2.7, 0.2, 0.1],
];
const seniorityTables = SENIORITY_BY_BUCKET.map(
  (weights) => new Weighted(SENIORITIES.map((s, i) => [s, weights[i] ?? 0] as const)),
);

// ---------------------------------------------------------------------------------------
// Companies

const STREAM_BUCKET = 1;
const STREAM_COMPANY_CORE = 2;
const STREAM_COMPANY_DETAIL = 3;
const STREAM_STEM = 4;
const STREAM_ORG_ID = 5;
const STREAM_PERSON = 6;
const STREAM_USER_ID = 7;
const STREAM_PERSON_SLUG = 8;
const STREAM_EMAIL_PATTERN = 9;

const STEM_SPACE = NAME_PREFIXES.length * NAME_SUFFIXES.length;
const STAGE_ORDER: readonly FundingStage[] = ['PRE_SEED', 'SEED', 'SERIES_A', 'SERIES_B', 'SERIES_C', 'LATE_STAGE', 'IPO'];

// Probability that a company of each bucket has raised outside money, before the industry factor.
const FUNDED_BY_BUCKET = [0.07, 0.2, 0.28, 0.3, 0.33, 0.42, 0.55, 0.65];
const FUNDING_PROPENSITY: Readonly<Record<IndustryGroup, number>> = {
  'Technology, Information and Media': 2.3,
  'Financial Services': 1.3,
  'Hospitals and Health Care': 1.2,
  Manufacturing: 0.8,
  'Professional Services': 0.55,
  Retail: 0.7,
  Wholesale: 0.4,
  Construction: 0.3,
  'Real Estate and Equipment Rental Services': 0.5,
  Education: 0.5,
  'Consumer Services': 0.4,
  'Entertainment Providers': 0.5,
  'Accommodation Services': 0.4,
  'Administrative and Support Services': 0.45,
  'Transportation, Logistics, Supply Chain and Storage': 0.6,
  Utilities: 0.8,
  'Oil, Gas, and Mining': 0.8,
  'Farming, Ranching, Forestry': 0.4,
  'Government Administration': 0,
  'Holding Companies': 0.6,
};
// Funding stage of funded companies by bucket, in STAGE_ORDER.
const STAGE_BY_BUCKET: readonly (readonly number[])[] = [
  [45, 50, 5, 0, 0, 0, 0],
  [10, 50, 35, 5, 0, 0, 0],
  [0, 15, 45, 30, 8, 2, 0],
  [0, 0, 15, 40, 30, 13, 2],
  [0, 0, 0, 20, 35, 35, 10],
  [0, 0, 0, 0, 15, 45, 40],
  [0, 0, 0, 0, 0, 40, 60],
  [0, 0, 0, 0, 0, 25, 75],
];
const stageTables = STAGE_BY_BUCKET.map((w) => new Weighted(STAGE_ORDER.map((s, i) => [s, w[i] ?? 0] as const)));
// Share of large companies that are listed without venture history (old industrial groups).
const PUBLIC_WITHOUT_FUNDING = [0, 0, 0, 0.01, 0.03, 0.12, 0.25, 0.45];

/** Age range of companies by stage, in years. */
const STAGE_AGE: Readonly<Record<FundingStage, readonly [number, number]>> = {
  PRE_SEED: [0.2, 3],
  SEED: [0.5, 5],
  SERIES_A: [1, 8],
  SERIES_B: [2, 11],
  SERIES_C: [3, 14],
  LATE_STAGE: [5, 25],
  IPO: [8, 80],
  BOOTSTRAPPED: [1, 30],
};
// Median age of companies without funding, by bucket.
const UNFUNDED_MEDIAN_AGE = [5, 9, 14, 19, 24, 30, 38, 50];

/** Total raised (median and log spread, USD) and the share of it the last round was. */
const STAGE_FUNDING: Readonly<Record<string, { median: number; sigma: number; lastShare: readonly [number, number]; recentYears: number }>> = {
  PRE_SEED: { median: 400_000, sigma: 0.7, lastShare: [0.7, 1], recentYears: 2.5 },
  SEED: { median: 2_800_000, sigma: 0.6, lastShare: [0.55, 1], recentYears: 3 },
  SERIES_A: { median: 16_000_000, sigma: 0.5, lastShare: [0.5, 0.75], recentYears: 3.5 },
  SERIES_B: { median: 48_000_000, sigma: 0.5, lastShare: [0.45, 0.65], recentYears: 4 },
  SERIES_C: { median: 120_000_000, sigma: 0.5, lastShare: [0.35, 0.6], recentYears: 5 },
  LATE_STAGE: { median: 380_000_000, sigma: 0.8, lastShare: [0.2, 0.5], recentYears: 6 },
  IPO: { median: 650_000_000, sigma: 0.9, lastShare: [0.2, 0.45], recentYears: 20 },
};

export interface CompanyIdentity {
  id: number;
  name: string;
  slug: string;
  domain: string;
  domains: string[];
  bucket: number;
  industries: Industry[];
  place: Place;
  stage: FundingStage | null;
  /** Age at the snapshot date, in days. */
  ageDays: number;
  funded: boolean;
}

function bucketOf(key: number, id: number): number {
  const u = mix32(rowSeed(key, id)) / 4294967296;
  let acc = 0;
  for (let b = 0; b < BUCKET_SHARES.length; b++) {
    acc += BUCKET_SHARES[b] as number;
    if (u < acc) return b;
  }
  return BUCKET_SHARES.length - 1;
}

/**
 * The company's unique domain label and slug parts. Ids fill the stems of the bare form
 * first, then of "get…", "…hq" and so on, each layer in a seed-dependent order; ids past
 * the whole space get a number appended. The stem alone is never reused within a layer,
 * so labels, domains and slugs are unique without any shared state.
 */
function stemOf(layers: Map<number, RangePermutation>, stemKey: number, id: number): { stem: string; form: number; round: number } {
  const n = id - 1;
  const layer = Math.floor(n / STEM_SPACE);
  const form = layer % DOMAIN_FORMS.length;
  const round = Math.floor(layer / DOMAIN_FORMS.length);
  let permutation = layers.get(layer);
  if (!permutation) {
    permutation = new RangePermutation(STEM_SPACE, mix32(stemKey ^ layer));
    layers.set(layer, permutation);
  }
  const index = permutation.apply(n % STEM_SPACE);
  const prefix = NAME_PREFIXES[index % NAME_PREFIXES.length] as string;
  const suffix = NAME_SUFFIXES[Math.floor(index / NAME_PREFIXES.length)] as string;
  return { stem: prefix + suffix, form, round };
}

// Forms whose word also reads well in the company name ("Brightpath Labs").
const FORM_NAME_WORDS: Readonly<Record<string, string>> = {
  labs: 'Labs',
  group: 'Group',
  global: 'Global',
  tech: 'Tech',
  digital: 'Digital',
  systems: 'Systems',
  solutions: 'Solutions',
  partners: 'Partners',
  ventures: 'Ventures',
  works: 'Works',
};

export interface CompanyGenerator {
  /** The fields other rows denormalise: cheap enough to call once per person. */
  identity(id: number): CompanyIdentity;
  company(id: number): CompanyRow;
}

export function createCompanyGenerator(seed: number): CompanyGenerator {
  const bucketKey = streamKey(seed, STREAM_BUCKET);
  const coreKey = streamKey(seed, STREAM_COMPANY_CORE);
  const detailKey = streamKey(seed, STREAM_COMPANY_DETAIL);
  const orgKey = streamKey(seed, STREAM_ORG_ID);
  const stemKey = streamKey(seed, STREAM_STEM);
  const stemLayers = new Map<number, RangePermutation>();
  const orgIds = new Permutation(27, orgKey);

  function identity(id: number): CompanyIdentity {
    const rng = new Rng(rowSeed(coreKey, id));
    const bucket = bucketOf(bucketKey, id);
    const country = countryTable.pick(rng);
    const place = pickPlace(rng, country);
    const first = industryTable.pick(rng);
    const industries = [first];
    if (rng.chance(0.22)) {
      const second = (industriesByGroup.get(first.group) as Weighted<Industry>).pick(rng);
      if (second !== first) industries.push(second);
    }

    const nonProfit = NON_PROFIT_INDUSTRIES.has(first.slug);
    let stage: FundingStage | null = null;
    let funded = false;
    const fundedChance = nonProfit ? 0 : Math.min(0.9, (FUNDED_BY_BUCKET[bucket] as number) * FUNDING_PROPENSITY[first.group]);
    if (rng.chance(fundedChance)) {
      funded = true;
      stage = (stageTables[bucket] as Weighted<FundingStage>).pick(rng);
    } else if (!nonProfit && rng.chance(PUBLIC_WITHOUT_FUNDING[bucket] as number)) {
      stage = 'IPO';
    } else if (!nonProfit && bucket <= 3 && rng.chance(0.3)) {
      stage = 'BOOTSTRAPPED';
    }
    let ageYears: number;
    if (stage && stage !== 'BOOTSTRAPPED') {
      const [lo, hi] = STAGE_AGE[stage];
      ageYears = lo + (hi - lo) * rng.next() * rng.next() ** 0.5;
    } else {
      ageYears = Math.min(150, Math.max(0.3, rng.logNormal(UNFUNDED_MEDIAN_AGE[bucket] as number, 0.65)));
    }
    const ageDays = Math.round(ageYears * DAYS_PER_YEAR);

    const { stem, form, round } = stemOf(stemLayers, stemKey, id);
    const formSpec = DOMAIN_FORMS[form] as { prefix: string; suffix: string };
    const lower = stem.toLowerCase();
    const label = `${formSpec.prefix}${lower}${formSpec.suffix}${round > 0 ? round + 1 : ''}`;
    const formWord = FORM_NAME_WORDS[formSpec.suffix];
    let name = stem;
    let slugBase: string;
    if (formWord) {
      name = `${stem} ${formWord}`;
      slugBase = label;
    } else {
      const nouns = first.nouns.length > 0 ? first.nouns : GROUP_VOCABULARY[first.group].nouns;
      const noun = rng.chance(0.6) ? rng.pick(nouns) : null;
      if (noun) name = `${stem} ${noun}`;
      slugBase = form === 0 && noun ? `${lower}-${slugPart(noun)}` : label;
    }
    const slug = round > 0 ? `${slugBase}-${round + 1}` : slugBase;
    if (rng.chance(0.18)) name = `${name} ${rng.pick(country.legalSuffixes)}`;

    const primaryTld =
      country.code2 !== 'US' && rng.chance(country.region === 'Europe' ? 0.6 : 0.45) ? country.tld : genericTldTable.pick(rng);
    const domains = [`${label}${primaryTld}`];
    if (rng.chance(0.22)) {
      const alternative =
        primaryTld !== '.com' ? '.com' : country.code2 !== 'US' ? country.tld : rng.pick(['.io', '.co', '.net', '.us']);
      domains.push(`${label}${alternative}`);
    }
    return { id, name, slug, domain: domains[0] as string, domains, bucket, industries, place, stage, ageDays, funded };
  }

  function company(id: number): CompanyRow {
    const core = identity(id);
    const rng = new Rng(rowSeed(detailKey, id));
    const { bucket, stage, place } = core;
    const industry = core.industries[0] as Industry;
    const vocabulary = GROUP_VOCABULARY[industry.group];
    const range = EMPLOYEE_BUCKETS[bucket] as { min: number; max: number };

    let totalFunding: number | null = null;
    let lastFunding: number | null = null;
    let lastFundedOn: string | null = null;
    if (stage && stage !== 'BOOTSTRAPPED' && (core.funded || rng.chance(0.5))) {
      const spec = STAGE_FUNDING[stage] as (typeof STAGE_FUNDING)[string];
      totalFunding = Math.max(25_000, Math.round(rng.logNormal(spec.median, spec.sigma) / 1000) * 1000);
      const [lo, hi] = spec.lastShare;
      lastFunding = Math.max(25_000, Math.round((totalFunding * (lo + (hi - lo) * rng.next())) / 1000) * 1000);
      if (lastFunding > totalFunding) lastFunding = totalFunding;
      const window = Math.min(spec.recentYears * DAYS_PER_YEAR, Math.max(30, core.ageDays - 30));
      lastFundedOn = isoFromDays(AS_OF_DAYS - Math.floor(rng.next() ** 1.3 * window));
    }
    const foundedOn = rng.chance(0.04) ? null : isoFromDays(AS_OF_DAYS - core.ageDays);

    const flags: string[] = [];
    const tech = industry.group === 'Technology, Information and Media';
    if (rng.chance((stage && stage !== 'IPO' && stage !== 'BOOTSTRAPPED' ? 0.22 : 0.05) + (tech ? 0.05 : 0))) flags.push('HIGH_GROWTH');
    if (rng.chance(Math.min(0.85, 0.12 + bucket * 0.1))) flags.push('HIRING');
    if (stage === 'BOOTSTRAPPED') flags.push('BOOTSTRAPPED');
    if (core.funded && stage !== 'IPO') flags.push('VC_BACKED');
    if (stage === 'IPO') flags.push('PUBLIC');
    if (rng.chance(tech ? 0.14 : 0.03)) flags.push('REMOTE_FIRST');
    const consumerFacing = industry.group === 'Retail' || industry.group === 'Accommodation Services' || industry.group === 'Consumer Services' || industry.group === 'Entertainment Providers';
    if (NON_PROFIT_INDUSTRIES.has(industry.slug)) flags.push('NON_PROFIT');
    else flags.push(consumerFacing ? (rng.chance(0.85) ? 'B2C' : 'B2B') : rng.chance(0.8) ? 'B2B' : 'B2C');
    if (stage === 'IPO' && bucket === 7 && place.country.code2 === 'US' && rng.chance(0.35)) flags.push('FORTUNE_500');
    if (lastFundedOn && AS_OF_DAYS - daysFromIso(lastFundedOn) <= 365) flags.push('RECENTLY_FUNDED');
    if (bucket >= 1 && rng.chance(0.02)) flags.push('ACQUIRED');
    if (!core.funded && stage !== 'IPO' && core.ageDays > 15 * DAYS_PER_YEAR && rng.chance(0.12)) flags.push('FAMILY_OWNED');

    const second = core.industries[1];
    const keywords = second ? [...new Set([...industry.keywords, ...second.keywords.slice(0, 3)])] : industry.keywords;
    // Three distinct keywords: a random start and two random steps that cannot wrap around to it.
    const n = keywords.length;
    const i1 = rng.int(n);
    const i2 = (i1 + 1 + rng.int(n - 2)) % n;
    const i3 = (i2 + 1 + rng.int(Math.max(1, (i1 - i2 + n) % n - 1))) % n;
    const [k1, k2, k3] = [keywords[i1], keywords[i2], keywords[i3]] as [string, string, string];
    const foundedYear = foundedOn ? foundedOn.slice(0, 4) : `${asOfYear - Math.floor(core.ageDays / DAYS_PER_YEAR)}`;
    const values = {
      name: core.name,
      industry: industry.name.toLowerCase(),
      keyword: k1,
      keyword2: k2,
      keyword3: k3,
      customer: rng.pick(vocabulary.customers),
      outcome: rng.pick(vocabulary.outcomes),
      city: place.city,
      country: place.country.name,
      year: foundedYear,
      adjective: withArticle(rng.pick(DESCRIPTION_ADJECTIVES)),
      size: sizePhrase(rng, range),
    };
    const description = [rng.pick(openers), rng.pick(middles), rng.pick(closers)]
      .map((t) => render(t, values))
      .filter(Boolean)
      .join(' ');

    return {
      id,
      preferred_name: core.name,
      description,
      domains: core.domains,
      tlds: tldsOf(core.domains),
      network_primary_slug: core.slug,
      network_org_id: uniqueNumber(id, 27, orgIds, 1000),
      standard_industries: core.industries.map((i) => i.slug),
      employee_count_min: range.min,
      employee_count_max: range.max,
      city: place.city,
      state_name: place.state,
      country_code: place.country.code2,
      location_text: locationText(place),
      total_funding_usd: totalFunding,
      last_funding_usd: lastFunding,
      last_funded_on: lastFundedOn,
      founded_on: foundedOn,
      stage,
      special_flags: flags,
    };
  }

  return { identity, company };
}

const openers = DESCRIPTION_OPENERS.map(compile);
const middles = DESCRIPTION_MIDDLES.map(compile);
const closers = DESCRIPTION_CLOSERS.map(compile);

function withArticle(word: string): string {
  return /^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`;
}

function daysFromIso(iso: string): number {
  return daysFromCivil(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)), Number(iso.slice(8, 10)));
}

function sizePhrase(rng: Rng, range: { min: number; max: number }): string {
  if (range.max <= 10) return `a team of ${rng.between(Math.max(2, range.min), range.max)}`;
  if (range.max <= 50) return `a team of ${rng.between(range.min, range.max)}`;
  const top = Math.min(range.max, range.min * 6);
  const n = rng.between(range.min, top);
  const rounded = n >= 1000 ? Math.floor(n / 1000) * 1000 : Math.floor(n / 10) * 10;
  return `more than ${withThousands(rounded)} people`;
}

// Not toLocaleString: its output depends on the ICU data the runtime was built with.
function withThousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * A unique, non-sequential number for the id: a bijection of id-1 on `bits` bits plus an
 * offset, and for the (never seen) ids beyond that space, a plain offset above it.
 */
function uniqueNumber(id: number, bits: number, permutation: Permutation, offset: number): number {
  const space = 2 ** bits;
  const n = id - 1;
  return n < space ? permutation.apply(n) + offset : space + offset + n;
}

// ---------------------------------------------------------------------------------------
// People

export interface PersonWithContacts {
  person: PersonRow;
  contacts: ContactRow[];
}

export interface PeopleGenerator {
  person(id: number): PersonWithContacts;
}

/**
 * People point at companies 1..companyCount, more often at big ones. The weight table
 * (8 bytes per company) is the only state; it is built from the companies' buckets,
 * which cost one hash each.
 */
export function createPeopleGenerator(seed: number, companyCount: number, companies?: CompanyGenerator): PeopleGenerator {
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
    const yearsExperience = Math.round(minYears + (maxYears - minYears) * (rng.next() + rng.next()) / 2);
    const careerMonths = Math.max(1, yearsExperience * 12 + rng.int(12));

    // Current job: never older than the company, nor than the career.
    const companyAgeMonths = Math.max(1, Math.floor(company.ageDays / 30.44));
    let tenure: number;
    if (seniority === 'OWNER' && /Founder/.test(title)) tenure = companyAgeMonths;
    else if (seniority === 'ENTRY') tenure = rng.between(1, 30);
    else tenure = Math.max(1, Math.round(rng.logNormal(30, 0.8)));
    tenure = Math.min(tenure, careerMonths, companyAgeMonths);

    const experiences: WorkExperienceEntry[] = [
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
      const sameCompany = experiences.length === 1 && seniority !== 'OWNER' && seniority !== 'ENTRY' && rng.chance(0.15);
      const pastCompany = sameCompany ? company : identityOf(pickCompanyId(rng));
      if (sameCompany) promotedInPlace = true;
      const pastFunction = jobFunction === 'general-management' || rng.chance(0.12) ? anyFunctionFor(rng, pastCompany) : jobFunction;
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
    if ((seniority === 'VP' || seniority === 'CXO' || seniority === 'OWNER') && rng.chance(0.75)) tags.push('budget-holder');
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
    const person: PersonRow = {
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

    const contacts: ContactRow[] = [];
    if (rng.chance(0.6)) {
      const pattern = mix32(rowSeed(patternKey, company.id)) % 100;
      contacts.push({ person_id: id, kind: 'work_email', value: `${workLocalPart(pattern, first, lastPart)}@${company.domain}` });
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
  const titles = TITLES[jobFunction][seniority] ?? TITLES['general-management'][seniority] ?? TITLES['general-management'].CXO;
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
  if (roll < 0.85) return `${title} at ${company.name} | Helping ${rng.pick(vocabulary.customers)} ${rng.pick(vocabulary.outcomes)}`;
  const a = rng.pick(industry.keywords);
  const b = rng.pick(industry.keywords);
  return a === b ? `${title} | ${capitalise(a)}` : `${title} | ${capitalise(a)} | ${capitalise(b)}`;
}

function capitalise(s: string): string {
  return s.length > 0 && s[0] === s[0]?.toLowerCase() ? (s[0] as string).toUpperCase() + s.slice(1) : s;
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
): EducationEntry[] {
  if (rng.chance(0.12)) return []; // many profiles list no education at all
  const careerStartYear = Math.floor(careerStartMonth / 12);
  const entries: EducationEntry[] = [];
  const frontline = jobFunction === 'frontline' && seniority === 'ENTRY';
  const firstRoll = rng.next();
  let undergradEnd = Math.min(asOfYear, careerStartYear - (rng.chance(0.7) ? 0 : 1));
  if (frontline && firstRoll < 0.45) {
    entries.push({ school: rng.pick(HIGH_SCHOOLS), degree_type: 'HIGH_SCHOOL', field_of_study: null, start_year: undergradEnd - 4, end_year: undergradEnd });
    return entries;
  }
  const colleges = collegesOf(country.code2);
  if (colleges.length > 0 && firstRoll < 0.09) {
    entries.push({ school: rng.pick(colleges), degree_type: 'ASSOCIATES', field_of_study: fieldFor(rng, jobFunction), start_year: undergradEnd - 2, end_year: undergradEnd });
  } else {
    entries.push({ school: schoolFor(rng, country), degree_type: 'BACHELORS', field_of_study: fieldFor(rng, jobFunction), start_year: undergradEnd - 4, end_year: undergradEnd });
  }

  const graduate: DegreeType | null = /Physician|Medical Director|Chief Medical/.test(title)
    ? 'MD'
    : /Attorney|Counsel|Solicitor|Partner/.test(title) && jobFunction === 'legal'
      ? 'JD'
      : rng.chance(jobFunction === 'research' ? 0.35 : jobFunction === 'education' || jobFunction === 'data' ? 0.12 : 0.025)
        ? 'PHD'
        : rng.chance(seniority === 'ENTRY' ? 0.05 : ['general-management', 'finance', 'consulting', 'sales'].includes(jobFunction) ? 0.22 : 0.1)
          ? 'MBA'
          : rng.chance(0.24)
            ? 'MASTERS'
            : null;
  if (graduate) {
    const years = DEGREE_YEARS[graduate];
    // An MBA comes after a few years of work; other degrees follow the first one directly.
    const start = graduate === 'MBA' ? Math.max(undergradEnd, careerStartYear + rng.between(3, 8)) : undergradEnd + (rng.chance(0.6) ? 0 : 1);
    const end = start + years;
    // Degrees still in progress are left out rather than dated in the future.
    if (end <= asOfYear) {
      const school = graduate === 'MBA' && rng.chance(0.4) ? rng.pick(BUSINESS_SCHOOLS) : schoolFor(rng, country);
      const field = graduate === 'MBA' ? 'Business Administration' : graduate === 'MD' ? 'Medicine' : graduate === 'JD' ? 'Law' : fieldFor(rng, jobFunction);
      entries.unshift({ school, degree_type: graduate, field_of_study: field, start_year: start, end_year: end });
      undergradEnd = end;
    }
  }
  if (rng.chance(0.08)) {
    const year = Math.min(asOfYear, Math.max(undergradEnd, careerStartYear) + rng.between(0, 6));
    entries.unshift({ school: rng.pick(CERTIFICATE_PROVIDERS), degree_type: 'CERTIFICATE', field_of_study: fieldFor(rng, jobFunction), start_year: year - 1, end_year: year });
  }
  return entries;
}

function languagesFor(rng: Rng, country: Country, culture: NameCulture): LanguageEntry[] {
  if (rng.chance(0.3)) return []; // many profiles list no languages
  const native = culture === 'anglo' && country.languages[0] !== 'English' && rng.chance(0.5) ? 'English' : (country.languages[0] as string);
  const out: LanguageEntry[] = [{ name: native, proficiency_name: NATIVE_PROFICIENCY }];
  if (native !== 'English' && rng.chance(0.75)) {
    out.push({ name: 'English', proficiency_name: rng.pick(['Full professional proficiency', 'Professional working proficiency', 'Professional working proficiency', 'Limited working proficiency']) });
  }
  if (rng.chance(native === 'English' ? 0.3 : 0.25)) {
    const candidates = [...country.languages.slice(1), ...COMMON_SECOND_LANGUAGES];
    const extra = rng.pick(candidates);
    if (!out.some((l) => l.name === extra)) {
      out.push({ name: extra, proficiency_name: rng.pick(['Elementary proficiency', 'Limited working proficiency', 'Professional working proficiency', 'Native or bilingual proficiency']) });
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

// ---------------------------------------------------------------------------------------
// Fast serialisation of generated rows

/*
 * Every string in a generated row is assembled from the reference data plus ASCII letters,
 * digits and punctuation of our own. When the reference data contains no character that
 * JSON or COPY would have to escape, generated rows can be written out without escaping,
 * which is a large share of the cost of a load. That precondition is checked once, over
 * every string reachable from the reference module, before the first fast line is made.
 */
function needsEscaping(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x7f) return true;
  }
  return false;
}
let referenceChecked = false;

function findUnsafeString(value: unknown, seen: Set<unknown>): string | null {
  if (typeof value === 'string') return needsEscaping(value) ? value : null;
  if (value === null || typeof value !== 'object' || seen.has(value)) return null;
  seen.add(value);
  for (const item of value instanceof Map ? value.values() : Object.values(value)) {
    const found = findUnsafeString(item, seen);
    if (found !== null) return found;
  }
  return null;
}

/** Throws when some reference string would need escaping (then the fast path is unsound). */
export function assertReferenceIsEscapeFree(): void {
  if (referenceChecked) return;
  const found = findUnsafeString(reference, new Set());
  if (found !== null) throw new Error(`reference data contains a character that needs escaping: ${JSON.stringify(found)}`);
  referenceChecked = true;
}

function jsonString(value: string | null): string {
  return value === null ? 'null' : `"${value}"`;
}

export function languagesJson(languages: readonly LanguageEntry[]): string {
  let out = '[';
  for (let i = 0; i < languages.length; i++) {
    const l = languages[i] as LanguageEntry;
    out += `${i > 0 ? ',' : ''}{"name":"${l.name}","proficiency_name":"${l.proficiency_name}"}`;
  }
  return `${out}]`;
}

export function educationJson(education: readonly EducationEntry[]): string {
  let out = '[';
  for (let i = 0; i < education.length; i++) {
    const e = education[i] as EducationEntry;
    out +=
      `${i > 0 ? ',' : ''}{"school":"${e.school}","degree_type":"${e.degree_type}","field_of_study":${jsonString(e.field_of_study)},` +
      `"start_year":${e.start_year},"end_year":${e.end_year}}`;
  }
  return `${out}]`;
}

export function workExperiencesJson(experiences: readonly WorkExperienceEntry[]): string {
  let out = '[';
  for (let i = 0; i < experiences.length; i++) {
    const w = experiences[i] as WorkExperienceEntry;
    out +=
      `${i > 0 ? ',' : ''}{"company_name":"${w.company_name}","company_slug":"${w.company_slug}","company_domain":"${w.company_domain}",` +
      `"title":"${w.title}","start_date":"${w.start_date}","end_date":${jsonString(w.end_date)},"is_current":${w.is_current}}`;
  }
  return `${out}]`;
}

/** A text[] literal of strings that need no quoting escapes. */
function arrayLiteral(values: readonly string[]): string {
  return values.length === 0 ? '{}' : `{"${values.join('","')}"}`;
}

function nullable(value: string | number | null): string {
  return value === null ? '\\N' : String(value);
}

/** The COPY text line of a generated company (see `assertReferenceIsEscapeFree`). */
export function generatedCompanyLine(c: CompanyRow): string {
  return (
    `${c.id}\t${c.preferred_name}\t${c.description}\t${arrayLiteral(c.domains)}\t${arrayLiteral(c.tlds)}\t${c.network_primary_slug}\t` +
    `${c.network_org_id}\t${arrayLiteral(c.standard_industries)}\t${c.employee_count_min}\t${c.employee_count_max}\t${c.city}\t` +
    `${nullable(c.state_name)}\t${c.country_code}\t${c.location_text}\t${nullable(c.total_funding_usd)}\t${nullable(c.last_funding_usd)}\t` +
    `${nullable(c.last_funded_on)}\t${nullable(c.founded_on)}\t${nullable(c.stage)}\t${arrayLiteral(c.special_flags)}\n`
  );
}

/** The COPY text line of a generated person (see `assertReferenceIsEscapeFree`). */
export function generatedPersonLine(p: PersonRow): string {
  return (
    `${p.id}\t${p.first_name}\t${p.last_name}\t${p.title}\t${p.headline}\t${p.city}\t${p.country_code}\t${p.country3}\t` +
    `${p.company_id}\t${p.company_name}\t${p.company_slug}\t${p.company_domain}\t${p.network_slug}\t${p.network_user_id}\t` +
    `${p.years_experience}\t${arrayLiteral(p.tags)}\t${languagesJson(p.languages)}\t${arrayLiteral(p.degree_types)}\t` +
    `${arrayLiteral(p.schools)}\t${educationJson(p.education)}\t${workExperiencesJson(p.work_experiences)}\n`
  );
}

// ---------------------------------------------------------------------------------------
// Streams

/** Companies `start..start+count-1` (ids are 1-based). */
export function* generateCompanies(seed: number, count: number, start = 1): Generator<CompanyRow> {
  const generator = createCompanyGenerator(seed);
  for (let id = start; id < start + count; id++) yield generator.company(id);
}

/** People `start..start+count-1`, working at companies 1..companyCount. */
export function* generatePeople(
  seed: number,
  count: number,
  companyCount: number,
  start = 1,
): Generator<PersonWithContacts> {
  const generator = createPeopleGenerator(seed, companyCount);
  for (let id = start; id < start + count; id++) yield generator.person(id);
}
