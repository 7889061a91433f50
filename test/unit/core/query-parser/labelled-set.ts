import { readFileSync } from 'node:fs';
import { parseSearchQuery, type ParsedQuery } from '../../../../src/core/query-parser/parse-search-query.js';
import { titleVariants } from '../../../../src/core/titles/normalise.js';

/**
 * The labelled sentences of data/query-parser/labelled.jsonl and how a reading is scored against
 * them: field by field, each value one (field, value) pair; a place (a list of country codes) is one
 * value, so that "Europe" weighs as one filter, not forty.
 */

export interface Expected {
  kind: ParsedQuery['kind'];
  company?: Record<string, unknown>;
  people?: Record<string, unknown>;
  currentCompanies?: Array<{ domain: string }>;
}

export interface Labelled {
  set: 'training' | 'evaluation';
  text: string;
  expected: Expected;
}

export const labelled: Labelled[] = readFileSync(
  new URL('../../../../data/query-parser/labelled.jsonl', import.meta.url),
  'utf8',
)
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as Labelled);

const title = (text: string) => (titleVariants(text)[0] ?? []).join(' ');
const atom = (value: unknown) => JSON.stringify(value);

function pairsOf(side: 'company' | 'people', params: Record<string, unknown> | undefined): string[] {
  const pairs: string[] = [];
  for (const [field, value] of Object.entries(params ?? {})) {
    if (field === 'jobTitleV2') {
      const titles = value as { included?: string[]; excluded?: string[] };
      for (const t of titles.included ?? []) pairs.push(`${side}.jobTitleV2.included=${title(t)}`);
      for (const t of titles.excluded ?? []) pairs.push(`${side}.jobTitleV2.excluded=${title(t)}`);
    } else if (field === 'tags' || field === 'education') {
      for (const [sub, list] of Object.entries(value as Record<string, string[]>))
        for (const item of list) pairs.push(`${side}.${field}.${sub}=${item}`);
    } else if (field === 'headquartersCountryCode' || field === 'country3LetterCode') {
      pairs.push(`${side}.${field}=${[...(value as string[])].sort().join(',')}`);
    } else if (Array.isArray(value)) {
      for (const item of value) pairs.push(`${side}.${field}=${String(item).toLowerCase()}`);
    } else {
      pairs.push(`${side}.${field}=${typeof value === 'string' ? value.toLowerCase() : atom(value)}`);
    }
  }
  return pairs;
}

export function expectedPairs(expected: Expected): string[] {
  return [
    `kind=${expected.kind}`,
    ...pairsOf('company', expected.company),
    ...pairsOf('people', expected.people),
    ...(expected.currentCompanies ?? []).map((c) => `currentCompanies=${c.domain}`),
  ];
}

export function readPairs(parsed: ParsedQuery): string[] {
  return [
    `kind=${parsed.kind}`,
    ...pairsOf('company', parsed.companySearchParams),
    ...pairsOf('people', parsed.prospectSearchParams),
    ...(parsed.currentCompanies ?? []).map((c) => `currentCompanies=${c.domain}`),
  ];
}

export interface Score {
  precision: number;
  recall: number;
  misses: Array<{ text: string; missing: string[]; extra: string[] }>;
}

export function score(set: Labelled['set']): Score {
  let predicted = 0;
  let expected = 0;
  let correct = 0;
  const misses: Score['misses'] = [];
  for (const row of labelled.filter((r) => r.set === set)) {
    const want = expectedPairs(row.expected);
    const got = readPairs(parseSearchQuery(row.text));
    const hits = got.filter((pair) => want.includes(pair));
    predicted += got.length;
    expected += want.length;
    correct += hits.length;
    const missing = want.filter((pair) => !got.includes(pair));
    const extra = got.filter((pair) => !want.includes(pair));
    if (missing.length || extra.length) misses.push({ text: row.text, missing, extra });
  }
  return { precision: correct / predicted, recall: correct / expected, misses };
}
