import { COUNTRIES, type Country } from '../../../reference/countries.js';
import { INDUSTRIES, INDUSTRY_GROUPS } from '../../../reference/industries.js';
import { TITLE_ABBREVIATIONS } from '../../../reference/job-titles.js';
import { LANGUAGES } from '../../../reference/languages.js';
import {
  COMPANY_NOUNS,
  COUNTRY_ALIASES,
  COUNTRY_GROUPS,
  DEGREE_WORDS,
  DESCRIPTION_TERMS,
  EXCLUSION_WORDS,
  EXTRA_ROLE_WORDS,
  FILLER_WORDS,
  FLAG_WORDS,
  FUNCTION_WORDS,
  INDUSTRY_ALIASES,
  NOT_ROLE_WORDS,
  PEOPLE_NOUNS,
  REGION_ALIASES,
  SENIORITY_WORDS,
  SIZE_WORDS,
  STAGE_WORDS,
  TAG_WORDS,
  TITLE_FIELD_WORDS,
} from '../../../reference/query-words.js';
import { TITLES } from '../../../reference/titles.js';
import { singular } from '../titles/normalise.js';

/**
 * A sentence read into this service's own filters, deterministically: the same sentence gives the
 * same filters on every machine, from the reference taxonomies and the title vocabulary alone.
 * Words are read in passes (numbers with their units, titles, then phrases of the vocabularies,
 * longest first); what no pass takes and no filler word explains is reported as not understood.
 */

export interface Interpretation {
  /** The words of the sentence this reading took, as written. */
  words: string;
  /** Where the reading went: `companySearchParams.industriesV2`, `prospectSearchParams.seniority`, … */
  field: string;
  value: unknown;
  note?: string;
}

export interface Unsupported {
  words: string;
  reason: string;
}

export type PlanKind = 'companies' | 'people' | 'companiesThenPeople';

export interface ParsedQuery {
  companySearchParams?: Record<string, unknown>;
  prospectSearchParams?: Record<string, unknown>;
  /** People at these companies (domains named in a sentence about people). */
  currentCompanies?: Array<{ domain: string }>;
  kind: PlanKind;
  interpretations: Interpretation[];
  notUnderstood: string[];
  unsupported: Unsupported[];
}

interface Token {
  raw: string;
  norm: string;
}

type Side = 'company' | 'people' | 'location';

interface Reading {
  side: Side;
  /** Company-side or people-side field (for 'location' and 'either' both are filled at the end). */
  apply: (target: Builder, side: 'company' | 'people') => void;
  field: (side: 'company' | 'people') => string;
  value: unknown;
  valueFor?: (side: 'company' | 'people') => unknown;
  note?: (side: 'company' | 'people') => string | undefined;
  start: number;
  end: number;
}

class Builder {
  company: Record<string, unknown> = {};
  people: Record<string, unknown> = {};
  currentCompanies: Array<{ domain: string }> = [];

  addTo(side: 'company' | 'people', field: string, values: readonly unknown[]): void {
    const target = side === 'company' ? this.company : this.people;
    const list = (target[field] as unknown[] | undefined) ?? [];
    for (const value of values) if (!list.includes(value)) list.push(value);
    target[field] = list;
  }

  set(side: 'company' | 'people', field: string, value: unknown): void {
    (side === 'company' ? this.company : this.people)[field] = value;
  }

  addTitle(kind: 'included' | 'excluded', title: string): void {
    const current = (this.people.jobTitleV2 as { included: string[]; excluded: string[] } | undefined) ?? {
      included: [],
      excluded: [],
    };
    if (!current[kind].includes(title)) current[kind].push(title);
    this.people.jobTitleV2 = current;
  }

  addTag(tag: string): void {
    const tags = (this.people.tags as { anyOf?: string[] } | undefined) ?? {};
    tags.anyOf = [...new Set([...(tags.anyOf ?? []), tag])];
    this.people.tags = tags;
  }

  addDegree(degree: string): void {
    const education = (this.people.education as { degreeTypes?: string[] } | undefined) ?? {};
    education.degreeTypes = [...new Set([...(education.degreeTypes ?? []), degree])];
    this.people.education = education;
  }
}

// ---- The vocabularies, read once into phrase tables. ----

const words = (text: string): string =>
  tokenize(text)
    .map((t) => t.norm)
    .join(' ');

const phraseTable = new Map<string, Array<(start: number, end: number, tokens: Token[]) => Reading | null>>();
let longestPhrase = 1;

function addPhrase(phrase: string, reading: (start: number, end: number, tokens: Token[]) => Reading | null): void {
  const key = words(phrase);
  if (!key) return;
  longestPhrase = Math.max(longestPhrase, key.split(' ').length);
  const list = phraseTable.get(key) ?? [];
  list.push(reading);
  phraseTable.set(key, list);
}

const companyField = (name: string) => () => `companySearchParams.${name}`;
const peopleField = (name: string) => () => `prospectSearchParams.${name}`;

function companyList(field: string, values: readonly unknown[]) {
  return (start: number, end: number): Reading => ({
    side: 'company',
    apply: (b) => b.addTo('company', field, values),
    field: companyField(field),
    value: values.length === 1 ? values[0] : values,
    start,
    end,
  });
}

function location(countries: readonly Country[], kind: 'country' | 'state' | 'city', name?: string) {
  return (start: number, end: number): Reading => ({
    side: 'location',
    apply: (b, side) => {
      if (side === 'people')
        b.addTo(
          'people',
          'country3LetterCode',
          countries.map((c) => c.code3),
        );
      else if (kind === 'country')
        b.addTo(
          'company',
          'headquartersCountryCode',
          countries.map((c) => c.code2),
        );
      else if (kind === 'state') b.addTo('company', 'headquartersStateName', [name]);
      else b.addTo('company', 'headquartersLocation', [name]);
    },
    field: (side) =>
      side === 'people'
        ? 'prospectSearchParams.country3LetterCode'
        : kind === 'country'
          ? 'companySearchParams.headquartersCountryCode'
          : kind === 'state'
            ? 'companySearchParams.headquartersStateName'
            : 'companySearchParams.headquartersLocation',
    value: kind === 'country' ? countries.map((c) => c.code2) : name,
    valueFor: (side) =>
      side === 'people' ? countries.map((c) => c.code3) : kind === 'country' ? countries.map((c) => c.code2) : name,
    note: (side) =>
      side === 'people' && kind !== 'country'
        ? `people search filters by country: ${name} is read as ${countries.map((c) => c.code3).join(', ')}`
        : undefined,
    start,
    end,
  });
}

const byCode2 = new Map(COUNTRIES.map((c) => [c.code2, c]));
const countriesOf = (codes: readonly string[]) => codes.map((c) => byCode2.get(c)).filter((c): c is Country => !!c);

for (const industry of INDUSTRIES) {
  addPhrase(industry.name, companyList('industriesV2', [industry.slug]));
  addPhrase(industry.slug.replace(/-/g, ' '), companyList('industriesV2', [industry.slug]));
}
for (const group of INDUSTRY_GROUPS) {
  const slugs = INDUSTRIES.filter((i) => i.group === group).map((i) => i.slug);
  if (!phraseTable.has(words(group))) addPhrase(group, companyList('industriesV2', slugs));
}
for (const [phrase, slugs] of Object.entries(INDUSTRY_ALIASES)) addPhrase(phrase, companyList('industriesV2', slugs));
for (const [phrase, stages] of Object.entries(STAGE_WORDS)) addPhrase(phrase, companyList('stage', stages));
for (const [phrase, flag] of Object.entries(FLAG_WORDS)) addPhrase(phrase, companyList('specialFlags', [flag]));
for (const term of DESCRIPTION_TERMS) {
  addPhrase(term, (start, end, tokens) =>
    companyList('keywords', [
      tokens
        .slice(start, end)
        .map((t) => t.raw)
        .join(' '),
    ])(start, end),
  );
}
for (const [phrase, range] of Object.entries(SIZE_WORDS)) {
  addPhrase(phrase, (start, end) => ({
    side: 'company',
    apply: (b) => b.set('company', 'employeeCountV2', range),
    field: companyField('employeeCountV2'),
    value: range,
    start,
    end,
  }));
}
for (const [phrase, tag] of Object.entries(TAG_WORDS)) {
  addPhrase(phrase, (start, end) => ({
    side: 'people',
    apply: (b) => b.addTag(tag),
    field: peopleField('tags.anyOf'),
    value: tag,
    start,
    end,
  }));
}
for (const [phrase, degree] of Object.entries(DEGREE_WORDS)) {
  addPhrase(phrase, (start, end) => ({
    side: 'people',
    apply: (b) => b.addDegree(degree),
    field: peopleField('education.degreeTypes'),
    value: degree,
    start,
    end,
  }));
}
for (const [phrase, levels] of Object.entries(SENIORITY_WORDS)) {
  addPhrase(phrase, (start, end) => ({
    side: 'people',
    apply: (b) => b.addTo('people', 'seniority', levels),
    field: peopleField('seniority'),
    value: levels,
    start,
    end,
  }));
}
for (const [phrase, jobFunction] of Object.entries(FUNCTION_WORDS)) {
  addPhrase(phrase, (start, end) => ({
    side: 'people',
    apply: (b) => b.addTo('people', 'jobFunction', [jobFunction]),
    field: peopleField('jobFunction'),
    value: jobFunction,
    start,
    end,
  }));
}
for (const noun of COMPANY_NOUNS) addPhrase(noun, (start, end) => marker('company', start, end));
for (const noun of PEOPLE_NOUNS) addPhrase(noun, (start, end) => marker('people', start, end));

// Places: a city only when written with a capital or after "in"/"from", as many city names are words too.
const LOCATION_PREPOSITIONS = new Set(['in', 'from', 'near', 'around', 'based', 'across']);
for (const country of COUNTRIES) {
  addPhrase(country.name, location([country], 'country'));
  addPhrase(country.code3, upperOnly(country.code3, location([country], 'country')));
}
for (const [phrase, code] of Object.entries(COUNTRY_ALIASES))
  addPhrase(phrase, location(countriesOf([code]), 'country'));
addPhrase('US', location(countriesOf(['US']), 'country'));
for (const [phrase, codes] of Object.entries(COUNTRY_GROUPS))
  addPhrase(phrase, location(countriesOf(codes), 'country'));
for (const [phrase, regions] of Object.entries(REGION_ALIASES)) {
  addPhrase(
    phrase,
    location(
      COUNTRIES.filter((c) => (regions as readonly string[]).includes(c.region)),
      'country',
    ),
  );
}
// A city before a state of its name (New York, Berlin); the most common country first: London, England before
// London, Ontario.
const byWeight = [...COUNTRIES].sort((a, b) => b.weight - a.weight);
for (const country of byWeight) {
  for (const state of country.states) for (const city of state.cities) addPhrase(city, cityReading(country, city));
  for (const city of country.cities) addPhrase(city, cityReading(country, city));
}
for (const country of byWeight)
  for (const state of country.states) addPhrase(state.name, location([country], 'state', state.name));

function cityReading(country: Country, city: string) {
  return (start: number, end: number, tokens: Token[]): Reading | null => {
    const first = tokens[start];
    const before = tokens[start - 1]?.norm;
    const capitalised = first !== undefined && /^\p{Lu}/u.test(first.raw);
    if (!capitalised && !(before && LOCATION_PREPOSITIONS.has(before))) return null;
    return location([country], 'city', city)(start, end);
  };
}

function upperOnly(code: string, reading: (start: number, end: number) => Reading) {
  return (start: number, end: number, tokens: Token[]): Reading | null =>
    tokens[start]?.raw === code ? reading(start, end) : null;
}

function marker(side: 'company' | 'people', start: number, end: number): Reading {
  return { side, apply: () => undefined, field: () => '', value: null, start, end };
}

const languagesByWord = new Map(LANGUAGES.map((l) => [l.toLowerCase(), l]));
const filler = new Set(FILLER_WORDS);
const exclusionWords = new Set(EXCLUSION_WORDS);

// ---- Titles: a run of title words holding a role word ("VPs of engineering", "senior data scientists"). ----

const titleWords = new Set<string>();
const roleWords = new Set<string>(['vp', 'svp', 'evp', 'avp', 'head', 'chief', 'founder', 'cofounder', 'president']);
const notRoles = new Set([
  ...Object.keys(SENIORITY_WORDS)
    .filter((p) => !p.includes(' '))
    .map(singular),
  ...NOT_ROLE_WORDS,
]);
const fullTitles = new Set<string>();
const titleFieldWords = new Set(TITLE_FIELD_WORDS);
for (const byLevel of Object.values(TITLES)) {
  for (const titles of Object.values(byLevel)) {
    for (const title of titles ?? []) {
      const canonical = words(title)
        .split(' ')
        .map(singular)
        .filter((w) => !/^(i|ii|iii|iv)$/.test(w));
      for (const word of canonical) titleWords.add(word);
      fullTitles.add(canonical.join(' '));
      const last = canonical[canonical.length - 1];
      if (last && !notRoles.has(last)) roleWords.add(last);
    }
  }
}
for (const [abbreviation, meanings] of Object.entries(TITLE_ABBREVIATIONS)) {
  titleWords.add(abbreviation);
  const roleMeaning = meanings.some((m) => {
    const last = singular(m.split(' ').pop() ?? '');
    return roleWords.has(last) || last === 'officer' || last === 'president';
  });
  if (roleMeaning) roleWords.add(abbreviation);
}
roleWords.add('officer');
for (const word of EXTRA_ROLE_WORDS) {
  roleWords.add(word);
  titleWords.add(word);
}
// Words of titles that, alone, name places or trades better than titles.
for (const word of ['in', 'at', 'to', 'for', 'on', 'the', 'a', 'an']) titleWords.delete(word);

/** A title word in its canonical form: "engineers" → "engineer", "VPs" → "vp" (short plurals of abbreviations too). */
function canonical(norm: string): string {
  if (norm.length <= 5 && norm.endsWith('s') && TITLE_ABBREVIATIONS[norm.slice(0, -1)]) return norm.slice(0, -1);
  return singular(norm);
}
const isTitleWord = (norm: string) => titleWords.has(canonical(norm)) || titleWords.has(norm);
const isRoleWord = (norm: string) => roleWords.has(canonical(norm)) || roleWords.has(norm);

function displayTitle(tokens: Token[]): string {
  return tokens
    .map((t) => {
      const one = canonical(t.norm);
      if (one === 'of' || one === 'and') return one;
      if (TITLE_ABBREVIATIONS[one] && one.length <= 4) return one.toUpperCase();
      return one.charAt(0).toUpperCase() + one.slice(1);
    })
    .join(' ');
}

// ---- Numbers with their units. ----

const EMPLOYEE_WORDS = new Set([
  'employees',
  'employee',
  'people',
  'staff',
  'workers',
  'fte',
  'ftes',
  'headcount',
  'persons',
  'person',
]);
const MORE = new Set(['more than', 'over', 'above', 'greater than', 'bigger than', 'larger than']);
const AT_LEAST = new Set(['at least', 'minimum', 'min', 'no fewer than', 'no less than']);
const LESS = new Set(['fewer than', 'less than', 'under', 'below', 'smaller than']);
const AT_MOST = new Set(['up to', 'at most', 'maximum', 'max', 'no more than']);

function parseNumber(token: Token | undefined, next?: Token): { value: number; plus: boolean; width: number } | null {
  if (!token) return null;
  const match = /^\$?(\d+(?:[.,]\d+)*)(k|m|mm|b|bn)?(\+)?$/.exec(token.norm);
  if (!match) return null;
  let value = Number((match[1] as string).replace(/,(?=\d{3}\b)/g, '').replace(',', '.'));
  if (!Number.isFinite(value)) return null;
  let width = 1;
  const unit = match[2] ?? (next && ['thousand', 'million', 'billion'].includes(next.norm) ? next.norm : undefined);
  if (unit && !match[2]) width = 2;
  const factor =
    unit === 'k' || unit === 'thousand'
      ? 1_000
      : unit === 'm' || unit === 'mm' || unit === 'million'
        ? 1_000_000
        : unit === 'b' || unit === 'bn' || unit === 'billion'
          ? 1_000_000_000
          : 1;
  value = Math.round(value * factor);
  return { value, plus: Boolean(match[3]), width };
}

const isMoney = (token: Token | undefined, next?: Token) =>
  !!token &&
  (token.norm.startsWith('$') ||
    /\d(k|m|mm|b|bn)\+?$/.test(token.norm) ||
    (!!next && ['million', 'billion'].includes(next.norm)));

/** A comparator phrase at i ("more than", "under"): its kind and its length in tokens. */
function comparatorAt(
  tokens: Token[],
  i: number,
): { kind: 'more' | 'atLeast' | 'less' | 'atMost'; width: number } | null {
  for (const width of [3, 2, 1]) {
    const phrase = tokens
      .slice(i, i + width)
      .map((t) => t.norm)
      .join(' ');
    if (tokens.length < i + width) continue;
    if (MORE.has(phrase)) return { kind: 'more', width };
    if (AT_LEAST.has(phrase)) return { kind: 'atLeast', width };
    if (LESS.has(phrase)) return { kind: 'less', width };
    if (AT_MOST.has(phrase)) return { kind: 'atMost', width };
  }
  return null;
}

interface NumberRange {
  min?: number;
  max?: number;
}

/** "50 to 200", "between 50 and 200", "more than 500", "500+", "under 10" at i: the range and its length. */
function rangeAt(tokens: Token[], i: number, money: boolean): { range: NumberRange; width: number } | null {
  let at = i;
  if (tokens[at]?.norm === 'between') at++;
  const comparator = comparatorAt(tokens, at);
  if (comparator) {
    const n = parseNumber(tokens[at + comparator.width], tokens[at + comparator.width + 1]);
    if (!n || (money && !isMoney(tokens[at + comparator.width], tokens[at + comparator.width + 1]))) return null;
    const range: NumberRange =
      comparator.kind === 'more' || comparator.kind === 'atLeast' ? { min: n.value } : { max: n.value };
    return { range, width: at + comparator.width + n.width - i };
  }
  const first = parseNumber(tokens[at], tokens[at + 1]);
  if (!first || (money && !isMoney(tokens[at], tokens[at + 1]))) return null;
  const joiner = tokens[at + first.width]?.norm;
  if (joiner === 'to' || joiner === 'and' || joiner === '-') {
    const second = parseNumber(tokens[at + first.width + 1], tokens[at + first.width + 2]);
    if (second) {
      // "$5 to 20M": the unit written once applies to both.
      let low = first.value;
      if (money && low < second.value / 1000 && !isMoney(tokens[at])) low *= second.value >= 1e9 ? 1e9 : 1e6;
      const range = low <= second.value ? { min: low, max: second.value } : { min: second.value, max: low };
      return { range, width: at + first.width + 1 + second.width - i };
    }
  }
  if (first.plus) return { range: { min: first.value }, width: at + first.width - i };
  if (tokens[at + first.width]?.norm === 'or' && ['more', 'above'].includes(tokens[at + first.width + 1]?.norm ?? ''))
    return { range: { min: first.value }, width: at + first.width + 2 - i };
  return { range: { min: first.value, max: first.value }, width: at + first.width - i };
}

const joined = (tokens: Token[], start: number, end: number) =>
  tokens
    .slice(start, end)
    .map((t) => t.raw)
    .join(' ');

/** Number readings at i: headcount, funding, founding year, years of experience. */
function numberReadingAt(tokens: Token[], i: number): Reading | null {
  const norm = (k: number) => tokens[k]?.norm ?? '';
  // Years of experience: "10+ years of experience", "at least 5 years experience".
  {
    const r = rangeAt(tokens, i, false);
    if (r && ['years', 'year', 'yrs'].includes(norm(i + r.width))) {
      let end = i + r.width + 1;
      if (norm(end) === 'of') end++;
      if (norm(end) === 'experience') {
        end++;
        // "5 years of experience" means at least five.
        const value = r.range.min !== undefined && r.range.max === r.range.min ? { min: r.range.min } : r.range;
        return {
          side: 'people',
          apply: (b) => b.set('people', 'yearsOfExperience', value),
          field: peopleField('yearsOfExperience'),
          value,
          start: i,
          end,
        };
      }
    }
  }
  // Headcount: "50 to 200 employees", "over 1,000 people"; "headcount of 50-200".
  {
    let lead = 0;
    if (norm(i) === 'headcount' || (norm(i) === 'team' && norm(i + 1) === 'size')) {
      lead = norm(i) === 'headcount' ? 1 : 2;
      if (norm(i + lead) === 'of') lead++;
    }
    const r = rangeAt(tokens, i + lead, false);
    if (r && (lead > 0 || EMPLOYEE_WORDS.has(norm(i + lead + r.width)))) {
      const end = i + lead + r.width + (lead > 0 ? 0 : 1);
      const value = r.range;
      return {
        side: 'company',
        apply: (b) => b.set('company', 'employeeCountV2', value),
        field: companyField('employeeCountV2'),
        value,
        start: i,
        end,
      };
    }
  }
  // Funding: "raised over $10M", "with more than $50 million in funding", "$5M to $20M in funding".
  {
    let lead = 0;
    if (norm(i) === 'raised' || norm(i) === 'raising') lead = 1;
    else if (norm(i) === 'funding' || norm(i) === 'funded') lead = norm(i + 1) === 'of' ? 2 : 1;
    else if (norm(i) === 'total' && norm(i + 1) === 'funding') lead = norm(i + 2) === 'of' ? 3 : 2;
    const r = rangeAt(tokens, i + lead, true);
    if (r) {
      let end = i + lead + r.width;
      const after = norm(end);
      let tail = 0;
      if (after === 'in' && ['funding', 'total'].includes(norm(end + 1))) tail = norm(end + 1) === 'total' ? 3 : 2;
      else if (after === 'funding' || after === 'raised') tail = 1;
      else if (after === 'of' && norm(end + 1) === 'funding') tail = 2;
      if (lead > 0 || tail > 0) {
        end += tail;
        const value = r.range.min !== undefined && r.range.max === r.range.min ? { min: r.range.min } : r.range;
        return {
          side: 'company',
          apply: (b) => b.set('company', 'totalFundingUSD', value),
          field: companyField('totalFundingUSD'),
          value,
          start: i,
          end,
        };
      }
    }
  }
  // Founding year: "founded after 2015", "founded in 2020", "founded between 2010 and 2015".
  if (norm(i) === 'founded' || norm(i) === 'established' || norm(i) === 'started') {
    const word = norm(i + 1);
    const year = (k: number) => (/^(1[89]|20)\d\d$/.test(norm(k)) ? Number(norm(k)) : null);
    let value: { min?: string; max?: string } | null = null;
    let end = i + 2;
    const y = year(i + 2);
    if (word === 'between' && y && ['and', 'to'].includes(norm(i + 3)) && year(i + 4)) {
      value = { min: `${y}-01-01`, max: `${year(i + 4)}-12-31` };
      end = i + 5;
    } else if (y && (word === 'after' || word === 'since' || word === 'in' || word === 'before')) {
      value =
        word === 'after'
          ? { min: `${y + 1}-01-01` }
          : word === 'since'
            ? { min: `${y}-01-01` }
            : word === 'before'
              ? { max: `${y - 1}-12-31` }
              : { min: `${y}-01-01`, max: `${y}-12-31` };
      end = i + 3;
    }
    if (value) {
      const found = value;
      return {
        side: 'company',
        apply: (b) => b.set('company', 'foundedOn', found),
        field: companyField('foundedOn'),
        value: found,
        start: i,
        end,
      };
    }
  }
  return null;
}

// ---- The sentence. ----

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const cleaned = text
    .normalize('NFKC')
    .replace(/[’‘]/g, "'")
    .replace(/(\d)\s*[-–]\s*(\d)/g, '$1 - $2');
  for (const piece of cleaned.split(/[\s,;:!?()]+/)) {
    if (!piece) continue;
    if (piece === '-' || piece === '–') {
      tokens.push({ raw: '-', norm: '-' });
      continue;
    }
    const trimmed = piece.replace(/^["']+|["']+$/g, '').replace(/\.+$/, '');
    if (!trimmed) continue;
    if (/^\.[a-z]{2,}$/i.test(trimmed) || /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(trimmed) || /^\$?\d/.test(trimmed)) {
      tokens.push({ raw: trimmed, norm: trimmed.toLowerCase() });
      continue;
    }
    for (const part of trimmed.replace(/&/g, ' and ').split(/[-/–]+|\s+/)) {
      const bare = part.replace(/['.]/g, '');
      if (bare) tokens.push({ raw: bare, norm: bare.toLowerCase() });
    }
  }
  return tokens;
}

export function parseSearchQuery(text: string): ParsedQuery {
  const tokens = tokenize(text);
  const used = new Array<boolean>(tokens.length).fill(false);
  const readings: Reading[] = [];
  const titles: Array<{ kind: 'included' | 'excluded'; title: string; start: number; end: number }> = [];
  const unsupported: Unsupported[] = [];
  const currentDomains: Array<{ domain: string; start: number }> = [];
  const take = (start: number, end: number) => {
    for (let k = start; k < end; k++) used[k] = true;
  };
  const free = (start: number, end: number) => used.slice(start, end).every((u) => !u);
  const headquartered = new Set<number>();

  // Quoted phrases, names, domains and top-level domains.
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (/^\.[a-z]{2,}$/.test(token.norm)) {
      readings.push(companyList('tlds', [token.norm])(i, i + 1));
      take(i, i + 1);
    } else if (/^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/.test(token.norm) && !/^\d/.test(token.norm)) {
      currentDomains.push({ domain: token.norm, start: i });
      take(i, i + 1);
    } else if ((token.norm === 'called' || token.norm === 'named') && tokens[i + 1]) {
      const name = tokens[i + 1]?.raw ?? '';
      readings.push({
        side: 'company',
        apply: (b) => b.set('company', 'nameLike', name),
        field: companyField('nameLike'),
        value: name,
        start: i,
        end: i + 2,
      });
      take(i, i + 2);
    }
  }
  for (const match of text.matchAll(/"([^"]{1,80})"/g)) {
    const phrase = match[1]?.trim();
    if (!phrase) continue;
    const inner = tokenize(phrase).map((t) => t.norm);
    for (let i = 0; i + inner.length <= tokens.length; i++) {
      if (free(i, i + inner.length) && inner.every((w, k) => tokens[i + k]?.norm === w)) {
        readings.push(companyList('keywords', [phrase])(i, i + inner.length));
        take(i, i + inner.length);
        break;
      }
    }
  }

  // Languages: "who speak French", "French-speaking": understood, but no filter carries them.
  for (let i = 0; i < tokens.length; i++) {
    const norm = tokens[i]?.norm ?? '';
    if (['speak', 'speaks', 'speaking', 'fluent'].includes(norm)) {
      let k = i + 1;
      if (tokens[k]?.norm === 'in') k++;
      const before = tokens[i - 1]?.norm;
      if (norm === 'speaking' && before && languagesByWord.has(before) && !used[i - 1]) {
        unsupported.push({ words: joined(tokens, i - 1, i + 1), reason: 'people search has no language filter' });
        take(i - 1, i + 1);
        continue;
      }
      const start = k;
      while (
        k < tokens.length &&
        (languagesByWord.has(tokens[k]?.norm ?? '') || ['and', 'or'].includes(tokens[k]?.norm ?? ''))
      )
        k++;
      if (k > start) {
        unsupported.push({ words: joined(tokens, i, k), reason: 'people search has no language filter' });
        take(i, k);
      }
    }
  }

  // Numbers with their units.
  for (let i = 0; i < tokens.length; i++) {
    if (used[i]) continue;
    const reading = numberReadingAt(tokens, i);
    if (reading && free(reading.start, reading.end)) {
      readings.push(reading);
      take(reading.start, reading.end);
      i = reading.end - 1;
    }
  }

  // Phrases of the vocabularies that also hold title words ("decision makers", "hiring managers"), before titles.
  const phraseAt = (i: number, only?: (key: string) => boolean): Reading | null => {
    for (let width = Math.min(longestPhrase, tokens.length - i); width >= 1; width--) {
      if (!free(i, i + width)) continue;
      const key = tokens
        .slice(i, i + width)
        .map((t) => t.norm)
        .join(' ');
      const singularKey = tokens
        .slice(i, i + width)
        .map((t) => singular(t.norm))
        .join(' ');
      for (const candidate of [key, singularKey]) {
        if (only && !only(candidate)) continue;
        for (const make of phraseTable.get(candidate) ?? []) {
          const reading = make(i, i + width, tokens);
          if (reading) return reading;
        }
      }
    }
    return null;
  };
  const earlyPhrases = new Set([...Object.keys(TAG_WORDS), ...Object.keys(SENIORITY_WORDS)].map(words));
  for (let i = 0; i < tokens.length; i++) {
    if (used[i]) continue;
    const reading = phraseAt(i, (key) => earlyPhrases.has(key) && key.includes(' '));
    if (reading) {
      readings.push(reading);
      take(reading.start, reading.end);
      i = reading.end - 1;
    }
  }

  // Titles.
  for (let i = 0; i < tokens.length; i++) {
    if (used[i] || !isTitleWord(tokens[i]?.norm ?? '')) continue;
    let end = i;
    while (end < tokens.length && !used[end]) {
      const norm = tokens[end]?.norm ?? '';
      if (isTitleWord(norm)) end++;
      else if (norm === 'of' && end > i && isTitleWord(tokens[end + 1]?.norm ?? '') && !used[end + 1]) end++;
      else break;
    }
    // Cut the run into titles at "and" between two role-bearing parts ("CTOs and CEOs").
    const run = tokens.slice(i, end);
    const parts: Array<[number, number]> = [];
    let from = 0;
    for (let k = 0; k < run.length; k++) {
      if (run[k]?.norm === 'and' || run[k]?.norm === 'or') {
        const left = run.slice(from, k);
        const rightEnd = run.findIndex((t, j) => j > k && (t.norm === 'and' || t.norm === 'or'));
        const right = run.slice(k + 1, rightEnd === -1 ? run.length : rightEnd);
        if (left.some((t) => isRoleWord(t.norm)) && right.some((t) => isRoleWord(t.norm))) {
          parts.push([from, k]);
          from = k + 1;
        }
      }
    }
    parts.push([from, run.length]);
    let anyTitle = false;
    for (const [a, b] of parts) {
      let s = a;
      let e = b;
      while (s < e && ['of', 'and', 'or'].includes(run[s]?.norm ?? '')) s++;
      while (e > s && ['of', 'and', 'or'].includes(run[e - 1]?.norm ?? '')) e--;
      let part = run.slice(s, e);
      const lastRole = part.map((t) => isRoleWord(t.norm)).lastIndexOf(true);
      if (lastRole === -1 && !fullTitles.has(part.map((t) => canonical(t.norm)).join(' '))) continue;
      // After its last role word a title goes on only with "of" and the name of a field ("Head of Sales"):
      // "founders of AI startups" is founders, at AI startups.
      if (lastRole !== -1 && lastRole < part.length - 1) {
        const tail = part.slice(lastRole + 1);
        const fieldTail =
          tail[0]?.norm === 'of' &&
          tail.length > 1 &&
          tail.slice(1).every((t) => titleFieldWords.has(canonical(t.norm)));
        if (!fieldTail) {
          part = part.slice(0, lastRole + 1);
          e = s + part.length;
        }
      }
      anyTitle = true;
      const before = tokens[i + a - 1]?.norm ?? '';
      const excluded = exclusionWords.has(before) || (a === 0 && exclusionWords.has(tokens[i - 1]?.norm ?? ''));
      titles.push({ kind: excluded ? 'excluded' : 'included', title: displayTitle(part), start: i + s, end: i + e });
      take(i + s, i + e);
      if (excluded && a === 0 && exclusionWords.has(tokens[i - 1]?.norm ?? '')) take(i - 1, i);
    }
    if (anyTitle) i = end - 1;
  }

  // Phrases of the vocabularies, longest first.
  for (let i = 0; i < tokens.length; i++) {
    if (used[i]) continue;
    const reading = phraseAt(i);
    if (reading) {
      if (
        reading.side === 'location' &&
        ['headquartered', 'hq', 'headquarters'].some((w) =>
          tokens.slice(Math.max(0, i - 2), i).some((t) => t.norm === w),
        )
      )
        headquartered.add(readings.length);
      readings.push(reading);
      take(reading.start, reading.end);
      i = reading.end - 1;
    }
  }

  // Which side the sentence is about.
  const hasPeople = titles.length > 0 || readings.some((r) => r.side === 'people');
  const builder = new Builder();
  const interpretations: Interpretation[] = [];
  for (const [index, reading] of readings.entries()) {
    if (!reading.field('company') && !reading.field('people')) continue;
    let side: 'company' | 'people';
    if (reading.side === 'location') side = hasPeople && !headquartered.has(index) ? 'people' : 'company';
    else side = reading.side;
    reading.apply(builder, side);
    const note = reading.note?.(side);
    interpretations.push({
      words: joined(tokens, reading.start, reading.end),
      field: reading.field(side),
      value: reading.valueFor ? reading.valueFor(side) : reading.value,
      ...(note ? { note } : {}),
    });
  }
  for (const title of titles) {
    builder.addTitle(title.kind, title.title);
    interpretations.push({
      words: joined(tokens, title.start, title.end),
      field: `prospectSearchParams.jobTitleV2.${title.kind}`,
      value: title.title,
    });
  }
  for (const { domain, start } of currentDomains) {
    if (hasPeople) {
      builder.currentCompanies.push({ domain });
      interpretations.push({ words: tokens[start]?.raw ?? domain, field: 'currentCompanies', value: { domain } });
    } else {
      builder.addTo('company', 'domains', [domain]);
      interpretations.push({
        words: tokens[start]?.raw ?? domain,
        field: 'companySearchParams.domains',
        value: domain,
      });
    }
  }
  interpretations.sort((a, b) => text.indexOf(a.words) - text.indexOf(b.words));

  // What nothing took.
  const notUnderstood: string[] = [];
  let run: string[] = [];
  for (let i = 0; i <= tokens.length; i++) {
    const token = tokens[i];
    if (token && !used[i] && !filler.has(token.norm) && !(token.norm === 'but')) {
      run.push(token.raw);
      continue;
    }
    if (run.length) notUnderstood.push(run.join(' '));
    run = [];
  }

  const people = Object.keys(builder.people).length > 0 || hasPeople;
  const company = Object.keys(builder.company).length > 0;
  const kind: PlanKind = people && company ? 'companiesThenPeople' : people ? 'people' : 'companies';
  return {
    ...(kind !== 'people' ? { companySearchParams: builder.company } : {}),
    ...(kind !== 'companies' ? { prospectSearchParams: builder.people } : {}),
    ...(builder.currentCompanies.length ? { currentCompanies: builder.currentCompanies } : {}),
    kind,
    interpretations,
    notUnderstood,
    unsupported,
  };
}
