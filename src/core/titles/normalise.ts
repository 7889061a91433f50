import {
  JOB_FUNCTION_RULES,
  SENIORITY_RULES,
  TITLE_ABBREVIATIONS,
  TITLE_RANK_WORDS,
  TITLE_SINGULAR_EXCEPTIONS,
  TITLE_STOP_WORDS,
} from '../../../reference/job-titles.js';
import type { PersonRow } from '../../store/tables/people.js';

/*
 * A job title read as words, the same way for a profile's title and for a title filter, so that
 * both meet in PostgreSQL as plain word sequences (docs/concepts.md, "Titles"):
 * - lowercase, accents dropped; decorations cut: what follows `|`, `@` or " at ", and `(…)`;
 * - dots and apostrophes joined ("Sr." is "sr"), `&` between two letters joined ("R&D" is "rd"),
 *   every other mark a space ("VP, Sales" and "Vice President - Sales" are the same words);
 * - stop words dropped ("of", "and", "&");
 * - abbreviations expanded from reference/job-titles.ts ("vp" is "vice president");
 * - plurals made singular ("engineers" is "engineer"); "engineering" stays "engineering", a
 *   department and not a person, so "Engineer" does not find "Engineering Manager".
 * An abbreviation with several meanings ("pm") gives one variant per meaning.
 */

/** Cap on the variants of one title: each ambiguous abbreviation multiplies them. */
const MAX_VARIANTS = 4;

const stopWords = new Set(TITLE_STOP_WORDS);
const singularExceptions = new Set(TITLE_SINGULAR_EXCEPTIONS);

/** "engineers" → "engineer", "technologies" → "technology", "sales" stays. */
export function singular(word: string): string {
  if (word.length <= 3 || singularExceptions.has(word) || !word.endsWith('s')) return word;
  if (word.endsWith('ss') || word.endsWith('us') || word.endsWith('is')) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(?:ch|sh|x|sses)es$/.test(word)) return word.slice(0, -2);
  return word.slice(0, -1);
}

/** The title's raw words: lowercased, decorations and punctuation gone, stop words kept. */
export function titleTokens(text: string): string[] {
  let title = text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  const cut = title.split(/[|@]| at /)[0] ?? '';
  if (/[\p{L}\p{N}]/u.test(cut)) title = cut;
  const bare = title.replace(/\([^)]*\)|\[[^\]]*\]/g, ' ');
  if (/[\p{L}\p{N}]/u.test(bare)) title = bare;
  return title
    .replace(/[.'’]/g, '')
    .replace(/(?<=\p{L})&(?=\p{L})/gu, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
}

const expansions = new Map<string, string[][]>(
  Object.entries(TITLE_ABBREVIATIONS).map(([abbreviation, meanings]) => [
    abbreviation,
    meanings.map((meaning) => titleTokens(meaning).map(singular)),
  ]),
);

/** The meanings of one raw word, each a list of canonical words. */
function meaningsOf(token: string): string[][] {
  const direct = expansions.get(token);
  if (direct) return direct;
  const one = singular(token);
  return expansions.get(one) ?? [[one]];
}

/**
 * The title as canonical words, one list per variant (more than one only when an ambiguous
 * abbreviation is in it); no list when the title holds nothing but stop words and punctuation.
 */
export function titleVariants(text: string): string[][] {
  let variants: string[][] = [[]];
  for (const token of titleTokens(text)) {
    if (stopWords.has(token)) continue;
    const meanings = meaningsOf(token);
    variants = variants
      .flatMap((variant) => meanings.map((meaning) => [...variant, ...meaning]))
      .slice(0, MAX_VARIANTS);
  }
  return variants[0]?.length ? variants : [];
}

/** Does `phrase` occur in `words`, word for word and in order? */
function containsPhrase(words: readonly string[], phrase: readonly string[]): boolean {
  outer: for (let start = 0; start + phrase.length <= words.length; start++) {
    for (let i = 0; i < phrase.length; i++) if (words[start + i] !== phrase[i]) continue outer;
    return true;
  }
  return false;
}

const toWords = (phrase: string) => titleVariants(phrase)[0] ?? [];
const seniorityRules = SENIORITY_RULES.map(([phrase, level]) => [toWords(phrase), level] as const);
const functionRules = JOB_FUNCTION_RULES.map(([phrase, jobFunction]) => [toWords(phrase), jobFunction] as const);
// Longest first, so that "vice president" is one rank and not "president" after a word.
const rankPhrases = TITLE_RANK_WORDS.map(toWords)
  .filter((phrase) => phrase.length)
  .sort((a, b) => b.length - a.length);

/** What a stored profile keeps of its title for search (migration 150). */
export interface TitleTerms {
  /** The variants' words, each variant between spaces and variants apart by " | ": " vice president sales ". */
  words: string;
  /** The word mask of every word of every variant. */
  mask: number;
  seniority: string | null;
  jobFunction: string | null;
}

/**
 * One bit of 53 per word, by a 32-bit FNV-1a hash of its UTF-8 bytes: a title that holds a phrase
 * holds each of its words, so its mask has every bit of the phrase's. 53 bits, so that a mask is
 * an exact JavaScript number (a bigint column, never negative).
 */
export function wordBit(word: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(word)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % 53;
}

export function wordMask(words: Iterable<string>): number {
  const bits = new Set<number>();
  for (const word of words) bits.add(wordBit(word));
  let mask = 0;
  for (const bit of bits) mask += 2 ** bit;
  return mask;
}

/** The search terms of a profile's title: its words, their mask, its seniority and job function. */
export function titleTerms(title: string | null | undefined): TitleTerms {
  const variants = titleVariants(title ?? '');
  const first = variants[0];
  if (!first) return { words: '', mask: 0, seniority: null, jobFunction: null };
  const ruled = (rules: ReadonlyArray<readonly [readonly string[], string]>, fallback: string) =>
    rules.find(([phrase]) => phrase.length && containsPhrase(first, phrase))?.[1] ?? fallback;
  return {
    words: ` ${variants.map((variant) => variant.join(' ')).join(' | ')} `,
    mask: wordMask(variants.flat()),
    seniority: ruled(seniorityRules, 'entry'),
    jobFunction: ruled(functionRules, 'other'),
  };
}

const sameWords = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((w, i) => w === b[i]);

/** How many of the words at the start (or, `fromEnd`, at the end) of `words` are rank words. */
function rankRun(words: readonly string[], fromEnd: boolean): number {
  let taken = 0;
  for (;;) {
    const rest = fromEnd ? words.slice(0, words.length - taken) : words.slice(taken);
    const rank = rankPhrases.find((phrase) =>
      sameWords(fromEnd ? rest.slice(rest.length - phrase.length) : rest.slice(0, phrase.length), phrase),
    );
    if (!rank || rank.length > rest.length) return taken;
    taken += rank.length;
  }
}

/**
 * The phrases a title filter matches, any of: one per variant, and for a filter made of rank
 * words and function words its other order too ("sales director" also as "director sales").
 * Empty when the filter holds nothing but stop words and punctuation.
 */
export function titlePhrases(filter: string): string[][] {
  const phrases: string[][] = [];
  const add = (words: string[]) => {
    if (!phrases.some((p) => p.join(' ') === words.join(' '))) phrases.push(words);
  };
  for (const words of titleVariants(filter)) {
    add(words);
    const leading = rankRun(words, false);
    const trailing = rankRun(words, true);
    if (leading > 0 && leading < words.length) add([...words.slice(leading), ...words.slice(0, leading)]);
    else if (trailing > 0 && trailing < words.length)
      add([...words.slice(words.length - trailing), ...words.slice(0, words.length - trailing)]);
  }
  return phrases;
}

/** The columns of `people` a title gives (migration 150): at seed, import and live fetch alike. */
export function titleColumns(
  title: string | null | undefined,
): Pick<PersonRow, 'title_words' | 'title_mask' | 'seniority' | 'job_function'> {
  const terms = titleTerms(title);
  return {
    title_words: terms.words,
    title_mask: terms.mask,
    seniority: terms.seniority,
    job_function: terms.jobFunction,
  };
}

/**
 * Does a title filter match a title? The test the SQL runs (people-filters.ts), in memory: for
 * the tests and the relevance benchmark, which hold the SQL to it.
 */
export function titleMatches(filter: string, title: string): boolean {
  const { words } = titleTerms(title);
  return titlePhrases(filter).some((phrase) => words.includes(` ${phrase.join(' ')} `));
}
