import { COUNTRIES, ISO_COUNTRIES } from '../../reference/index.js';
import type { Queryable } from '../store/db.js';

/**
 * Typeahead: companies by the start of their name, and locations (cities, states, countries)
 * written as the filters take them.
 *
 * Companies: a prefix of the lowercased name, answered by the index on it (bytewise order, so
 * the prefix is a range of the index) in name order: the shortest name with the prefix first, so
 * an exact name leads. The read stops after `limit` rows, however many names share the prefix.
 */

export interface CompanySuggestion {
  companyId: string;
  name: string;
  domain: string | null;
  networkSlug: string | null;
  employeeCount: { min: number | null; max: number | null };
}

export async function suggestCompanies(db: Queryable, prefix: string, limit: number): Promise<CompanySuggestion[]> {
  const pattern = `${prefix
    .trim()
    .toLowerCase()
    .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const result = await db.query<{
    id: number;
    preferred_name: string;
    domain: string | null;
    network_primary_slug: string | null;
    employee_count_min: number | null;
    employee_count_max: number | null;
  }>(
    `SELECT id, preferred_name, domains[1] AS domain, network_primary_slug, employee_count_min, employee_count_max
       FROM companies
      WHERE lower(preferred_name) COLLATE "C" LIKE $1
      ORDER BY lower(preferred_name) COLLATE "C", id
      LIMIT $2`,
    [pattern, limit],
  );
  return result.rows.map((row) => ({
    companyId: String(row.id),
    name: row.preferred_name,
    domain: row.domain,
    networkSlug: row.network_primary_slug,
    employeeCount: { min: row.employee_count_min, max: row.employee_count_max },
  }));
}

export type LocationKind = 'country' | 'state' | 'city';

export interface LocationSuggestion {
  kind: LocationKind;
  name: string;
  /** The whole place, as the catalog writes a company's location. */
  label: string;
  countryCode: string;
  country3LetterCode: string | null;
  state: string | null;
  /** The filters that select this place, with the values to give them. */
  filters: {
    headquartersCountryCode?: string[];
    country3LetterCode?: string[];
    headquartersStateName?: string[];
    headquartersLocation?: string[];
  };
}

interface Place extends LocationSuggestion {
  /** Lowercased, accents removed: what a query is compared with. */
  folded: string;
  words: string[];
  /** Countries, then states, then cities; bigger countries first. */
  rank: number;
}

const fold = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

let places: Place[] | null = null;

/**
 * Every place of the reference data the catalog is made from: the ISO countries, the states of
 * the countries listed with them, and their cities. A few thousand: a scan per request costs
 * well under a millisecond.
 */
function allPlaces(): Place[] {
  if (places) return places;
  const built: Place[] = [];
  const add = (place: Omit<Place, 'folded' | 'words'>): void => {
    const folded = fold(place.name);
    built.push({ ...place, folded, words: folded.split(/[\s\-'.,/()]+/).filter(Boolean) });
  };
  const weights = new Map(COUNTRIES.map((c) => [c.code2, c.weight]));
  for (const country of ISO_COUNTRIES) {
    add({
      kind: 'country',
      name: country.name,
      label: country.name,
      countryCode: country.code2,
      country3LetterCode: country.code3,
      state: null,
      filters: { headquartersCountryCode: [country.code2], country3LetterCode: [country.code3] },
      rank: 1 - (weights.get(country.code2) ?? 0) / 1000,
    });
  }
  for (const country of COUNTRIES) {
    const weight = country.weight / 1000;
    for (const state of country.states) {
      add({
        kind: 'state',
        name: state.name,
        label: `${state.name}, ${country.name}`,
        countryCode: country.code2,
        country3LetterCode: country.code3,
        state: state.name,
        filters: { headquartersCountryCode: [country.code2], headquartersStateName: [state.name] },
        rank: 2 - weight,
      });
      for (const city of state.cities) {
        const label = city === state.name ? `${city}, ${country.name}` : `${city}, ${state.name}, ${country.name}`;
        add({
          kind: 'city',
          name: city,
          label,
          countryCode: country.code2,
          country3LetterCode: country.code3,
          state: state.name,
          filters: { headquartersCountryCode: [country.code2], headquartersLocation: [label] },
          rank: 3 - weight,
        });
      }
    }
    for (const city of country.cities) {
      const label = `${city}, ${country.name}`;
      add({
        kind: 'city',
        name: city,
        label,
        countryCode: country.code2,
        country3LetterCode: country.code3,
        state: null,
        filters: { headquartersCountryCode: [country.code2], headquartersLocation: [label] },
        rank: 3 - weight,
      });
    }
  }
  places = built;
  return built;
}

/**
 * Places whose name starts with the query (case and accents ignored), then places with a word
 * that does ("york" finds New York); countries before states before cities, larger countries first.
 */
export function suggestLocations(query: string, kinds: readonly LocationKind[], limit: number): LocationSuggestion[] {
  const wanted = fold(query.trim());
  if (!wanted) return [];
  const scored: Array<{ place: Place; score: number }> = [];
  for (const place of allPlaces()) {
    if (!kinds.includes(place.kind)) continue;
    const score =
      place.folded === wanted
        ? 0
        : place.folded.startsWith(wanted)
          ? 1
          : place.words.some((w) => w.startsWith(wanted))
            ? 2
            : -1;
    if (score >= 0) scored.push({ place, score });
  }
  scored.sort((a, b) => a.score - b.score || a.place.rank - b.place.rank || a.place.name.localeCompare(b.place.name));
  return scored.slice(0, limit).map(({ place }) => {
    const { folded: _folded, words: _words, rank: _rank, ...suggestion } = place;
    return suggestion;
  });
}
