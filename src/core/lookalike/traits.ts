import { COMPANY_SIZE_BANDS, sizeBandOf } from '../../../reference/company-sizes.js';
import { INDUSTRIES, industryBySlug } from '../../../reference/industries.js';
import type { SqlConditions } from '../search/sql.js';

/**
 * What lookalikes compare: the traits of the seeds, gathered into sets, and the SQL that tests a
 * candidate against them. The industry group is the taxonomy's top level (reference/industries.ts);
 * an industry the taxonomy does not hold (an imported one) is a group of its own. The size band is
 * the headcount band of reference/company-sizes.ts that a company's smallest headcount falls in.
 */

/** The industries of the seeds' groups, the seeds' own included: the candidates' industries. */
export function industriesOfGroups(seedIndustries: Iterable<string>): string[] {
  const slugs = new Set<string>();
  for (const slug of seedIndustries) {
    slugs.add(slug);
    const group = industryBySlug(slug)?.group;
    if (group) for (const industry of INDUSTRIES) if (industry.group === group) slugs.add(industry.slug);
  }
  return [...slugs].sort();
}

/** The distinct size bands of the seeds whose headcount is known. */
export function sizeBandsOf(employeeCountMins: Iterable<number | null>): number[] {
  const bands = new Set<number>();
  for (const min of employeeCountMins) {
    const band = sizeBandOf(min);
    if (band !== null) bands.add(band);
  }
  return [...bands].sort((a, b) => a - b);
}

/**
 * `column` (a smallest headcount) lies in one of the bands: contiguous bands are one range, each
 * range a BETWEEN, so that the headcount index answers it.
 */
export function inSizeBands(sql: SqlConditions, column: string, bands: readonly number[]): string {
  const ranges: Array<{ min: number; max: number }> = [];
  for (const band of bands) {
    const { min, max } = COMPANY_SIZE_BANDS[band] as { min: number; max: number };
    const last = ranges.at(-1);
    if (last && last.max + 1 === min) last.max = max;
    else ranges.push({ min, max });
  }
  // The last band is open-ended: a headcount above its stated top still falls in it.
  const top = COMPANY_SIZE_BANDS.length - 1;
  const tests = ranges.map((range) =>
    range.max >= (COMPANY_SIZE_BANDS[top] as { max: number }).max && bands.includes(top)
      ? `${column} >= ${sql.bind(range.min)}::integer`
      : `${column} BETWEEN ${sql.bind(range.min)}::integer AND ${sql.bind(range.max)}::integer`,
  );
  return tests.length ? `(${tests.join(' OR ')})` : 'false';
}

/** A lexeme as a tsquery of that one word, to be bound and cast once (`$n::tsquery`). */
export function lexemeQuery(lexeme: string): string {
  return `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/**
 * The similarity of a score: its points over the points the seeds' known traits make possible,
 * so that a seed without a funding stage does not cap every result below 1.
 */
export function similarityOf(points: number, possible: number): number {
  return possible > 0 ? Math.round((points / possible) * 1000) / 1000 : 0;
}

/** The integer weights of the traits, out of 100 for a seed that has them all. */
export const COMPANY_TRAIT_POINTS = {
  industry: 35,
  /** Earned instead of `industry` by a company of the same group but another industry. */
  industryGroup: 15,
  sizeBand: 20,
  country: 15,
  stage: 10,
  descriptionTerms: 20,
} as const;

export const PERSON_TRAIT_POINTS = {
  titleWords: 30,
  seniority: 15,
  jobFunction: 15,
  industry: 15,
  /** Earned instead of `industry` by a person whose company is of the same group but another industry. */
  industryGroup: 7,
  sizeBand: 10,
  country: 15,
} as const;
