import {
  COMPANY_SIZE_BANDS,
  DESCRIPTION_ADJECTIVES,
  DESCRIPTION_CLOSERS,
  DESCRIPTION_MIDDLES,
  DESCRIPTION_OPENERS,
  DOMAIN_FORMS,
  GROUP_VOCABULARY,
  NAME_PREFIXES,
  NAME_SUFFIXES,
  NON_PROFIT_INDUSTRIES,
  type FundingStage,
  type Industry,
  type IndustryGroup,
} from '../../../reference/index.js';
import type { CompanyRow } from '../../store/tables/companies.js';
import { AS_OF_DAYS, DAYS_PER_YEAR, asOfYear, daysFromIso, isoFromDays } from './dates.js';
import {
  Permutation,
  RangePermutation,
  Rng,
  STREAM_BUCKET,
  STREAM_COMPANY_CORE,
  STREAM_COMPANY_DETAIL,
  STREAM_ORG_ID,
  STREAM_STEM,
  Weighted,
  mix32,
  rowSeed,
  streamKey,
  uniqueNumber,
} from './random.js';
import { compile, render, slugPart, tldsOf, withArticle, withThousands } from './text.js';
import {
  countryTable,
  genericTldTable,
  industriesByGroup,
  industryTable,
  locationText,
  pickPlace,
  type Place,
} from './weighted-tables.js';

// Generated companies: a pure function of (seed, id); see random.ts.

/** A generated company: a row of `companies` without the gaps imported ones may have. */
export interface GeneratedCompany extends CompanyRow {
  network_primary_slug: string;
  network_org_id: number;
  employee_count_min: number;
  employee_count_max: number;
  city: string;
  country_code: string;
  location_text: string;
  stage: FundingStage | null;
}

/** The headcount buckets of the professional network (reference/company-sizes.ts). */
export const EMPLOYEE_BUCKETS = COMPANY_SIZE_BANDS;

// Share of companies per bucket: most companies are tiny, a handful are huge.
const BUCKET_SHARES = [0.52, 0.26, 0.12, 0.05, 0.022, 0.018, 0.005, 0.005];

const STEM_SPACE = NAME_PREFIXES.length * NAME_SUFFIXES.length;
const STAGE_ORDER: readonly FundingStage[] = [
  'PRE_SEED',
  'SEED',
  'SERIES_A',
  'SERIES_B',
  'SERIES_C',
  'LATE_STAGE',
  'IPO',
];

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
const STAGE_FUNDING: Readonly<
  Record<string, { median: number; sigma: number; lastShare: readonly [number, number]; recentYears: number }>
> = {
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

export function bucketOf(key: number, id: number): number {
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
function stemOf(
  layers: Map<number, RangePermutation>,
  stemKey: number,
  id: number,
): { stem: string; form: number; round: number } {
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
  company(id: number): GeneratedCompany;
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
    const fundedChance = nonProfit
      ? 0
      : Math.min(0.9, (FUNDED_BY_BUCKET[bucket] as number) * FUNDING_PROPENSITY[first.group]);
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
      country.code2 !== 'US' && rng.chance(country.region === 'Europe' ? 0.6 : 0.45)
        ? country.tld
        : genericTldTable.pick(rng);
    const domains = [`${label}${primaryTld}`];
    if (rng.chance(0.22)) {
      const alternative =
        primaryTld !== '.com' ? '.com' : country.code2 !== 'US' ? country.tld : rng.pick(['.io', '.co', '.net', '.us']);
      domains.push(`${label}${alternative}`);
    }
    return { id, name, slug, domain: domains[0] as string, domains, bucket, industries, place, stage, ageDays, funded };
  }

  function company(id: number): GeneratedCompany {
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
    if (rng.chance((stage && stage !== 'IPO' && stage !== 'BOOTSTRAPPED' ? 0.22 : 0.05) + (tech ? 0.05 : 0)))
      flags.push('HIGH_GROWTH');
    if (rng.chance(Math.min(0.85, 0.12 + bucket * 0.1))) flags.push('HIRING');
    if (stage === 'BOOTSTRAPPED') flags.push('BOOTSTRAPPED');
    if (core.funded && stage !== 'IPO') flags.push('VC_BACKED');
    if (stage === 'IPO') flags.push('PUBLIC');
    if (rng.chance(tech ? 0.14 : 0.03)) flags.push('REMOTE_FIRST');
    const consumerFacing =
      industry.group === 'Retail' ||
      industry.group === 'Accommodation Services' ||
      industry.group === 'Consumer Services' ||
      industry.group === 'Entertainment Providers';
    if (NON_PROFIT_INDUSTRIES.has(industry.slug)) flags.push('NON_PROFIT');
    else flags.push(consumerFacing ? (rng.chance(0.85) ? 'B2C' : 'B2B') : rng.chance(0.8) ? 'B2B' : 'B2C');
    if (stage === 'IPO' && bucket === 7 && place.country.code2 === 'US' && rng.chance(0.35)) flags.push('FORTUNE_500');
    if (lastFundedOn && AS_OF_DAYS - daysFromIso(lastFundedOn) <= 365) flags.push('RECENTLY_FUNDED');
    if (bucket >= 1 && rng.chance(0.02)) flags.push('ACQUIRED');
    if (!core.funded && stage !== 'IPO' && core.ageDays > 15 * DAYS_PER_YEAR && rng.chance(0.12))
      flags.push('FAMILY_OWNED');

    const second = core.industries[1];
    const keywords = second ? [...new Set([...industry.keywords, ...second.keywords.slice(0, 3)])] : industry.keywords;
    // Three distinct keywords: a random start and two random steps that cannot wrap around to it.
    const n = keywords.length;
    const i1 = rng.int(n);
    const i2 = (i1 + 1 + rng.int(n - 2)) % n;
    const i3 = (i2 + 1 + rng.int(Math.max(1, ((i1 - i2 + n) % n) - 1))) % n;
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

function sizePhrase(rng: Rng, range: { min: number; max: number }): string {
  if (range.max <= 10) return `a team of ${rng.between(Math.max(2, range.min), range.max)}`;
  if (range.max <= 50) return `a team of ${rng.between(range.min, range.max)}`;
  const top = Math.min(range.max, range.min * 6);
  const n = rng.between(range.min, top);
  const rounded = n >= 1000 ? Math.floor(n / 1000) * 1000 : Math.floor(n / 10) * 10;
  return `more than ${withThousands(rounded)} people`;
}
