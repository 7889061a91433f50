import {
  BASE_FUNCTION_WEIGHTS,
  COUNTRIES,
  FIRST_CITY_WEIGHT,
  GENERIC_TLDS,
  GROUP_FUNCTION_WEIGHTS,
  INDUSTRIES,
  JOB_FUNCTIONS,
  PERSONAL_EMAIL_DOMAINS,
  RESEARCH_HEAVY_INDUSTRIES,
  SENIORITIES,
  STATE_WEIGHTS,
  type Country,
  type Industry,
  type IndustryGroup,
  type JobFunction,
  type NameCulture,
} from '../../../reference/index.js';
import { Weighted, type Rng } from './random.js';

// Weighted tables built once from the reference data: where companies and people are, what
// they do, and at which level.

export interface Place {
  country: Country;
  state: string | null;
  city: string;
}

export const countryTable = new Weighted(COUNTRIES.map((c) => [c, c.weight] as const));

export const cityTables = new Map<string, Weighted<{ state: string | null; city: string }>>(
  COUNTRIES.map((country) => {
    const entries: Array<readonly [{ state: string | null; city: string }, number]> = [];
    if (country.states.length > 0) {
      const stateWeights = STATE_WEIGHTS[country.code2] ?? {};
      for (const state of country.states) {
        const stateWeight = stateWeights[state.name] ?? 1;
        const cityWeightSum = FIRST_CITY_WEIGHT + state.cities.length - 1;
        state.cities.forEach((city, i) => {
          entries.push([
            { state: state.name, city },
            (stateWeight * (i === 0 ? FIRST_CITY_WEIGHT : 1)) / cityWeightSum,
          ]);
        });
      }
    } else {
      country.cities.forEach((city, i) => entries.push([{ state: null, city }, i === 0 ? FIRST_CITY_WEIGHT : 1]));
    }
    return [country.code2, new Weighted(entries)] as const;
  }),
);

export function pickPlace(rng: Rng, country: Country): Place {
  const { state, city } = (cityTables.get(country.code2) as Weighted<{ state: string | null; city: string }>).pick(rng);
  return { country, state, city };
}

export function locationText(place: Place): string {
  return place.state && place.state !== place.city
    ? `${place.city}, ${place.state}, ${place.country.name}`
    : `${place.city}, ${place.country.name}`;
}

export const cultureTables = new Map<string, Weighted<NameCulture>>(
  COUNTRIES.map((c) => [c.code2, new Weighted(Object.entries(c.cultures) as Array<[NameCulture, number]>)] as const),
);

export const industryTable = new Weighted(INDUSTRIES.map((i) => [i, i.weight] as const));
export const industriesByGroup = new Map<IndustryGroup, Weighted<Industry>>();
for (const industry of INDUSTRIES) {
  if (!industriesByGroup.has(industry.group)) {
    industriesByGroup.set(
      industry.group,
      new Weighted(INDUSTRIES.filter((i) => i.group === industry.group).map((i) => [i, i.weight] as const)),
    );
  }
}

export const genericTldTable = new Weighted(GENERIC_TLDS.map((t) => [t.tld, t.weight] as const));
export const personalEmailTable = new Weighted(PERSONAL_EMAIL_DOMAINS.map((d) => [d.domain, d.weight] as const));

export const functionTables = new Map<string, Weighted<JobFunction>>(
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
export const seniorityTables = SENIORITY_BY_BUCKET.map(
  (weights) => new Weighted(SENIORITIES.map((s, i) => [s, weights[i] ?? 0] as const)),
);
