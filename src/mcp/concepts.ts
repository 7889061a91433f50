import { stemmer } from 'stemmer';
import { operations } from '../../operations/index.js';
import { COUNTRIES, INDUSTRIES, REGIONS, TITLES } from '../../reference/index.js';
import { actionConcepts, objectConcepts } from './lexicon.js';

/**
 * Reading text for search_endpoints, the same way for a query and for an operation's own words:
 * words (camelCase split), stems (Porter, by the stemmer package), the index's terms (without
 * stop words), and the concepts of lexicon.ts it speaks of (`o_` things, `a_` acts), with what
 * the reference data adds: places and industries describe the records a search is for, job
 * titles describe people.
 */

// Words that say nothing about which operation is meant ("I want to get ...").
export const stopWords = new Set([
  'a', 'an', 'the', 'of', 'to', 'for', 'i', 'we', 'me', 'my', 'our', 'you', 'your', 'want', 'wanna', 'need', 'would', 'like',
  'how', 'do', 'does', 'can', 'could', 'in', 'on', 'at', 'with', 'and', 'or', 'is', 'are', 'be', 'it', 'its', 'this', 'that',
  'these', 'those', 'please', 'some', 'from', 'by', 'which', 'what', 'who', 'get', 'give', 'show', 'tell', 'let', 'use',
  'there', 'about', 'into', 'any', 'should', 'will', 'just', 'now', 'then', 'so', 'up', 'via', 'using', 'them', 'their',
  'api', 'endpoint', 'operation', 'tool', 'call', 'user', 'asked', 'says', 'said', 'wants', 'ok', 'okay', 'yes', 'am', 'was', 'were',
  'has', 'have', 'had', 'did', 'been', 'being', 'if', 'else', 'than', 'too', 'very', 'also', 'only', 'all', 'one', 'i', 'im', 'us',
  'he', 'she', 'they', 'his', 'her', 'him', 'where', 'when', 'why', 'not', 'no', 'dont', 'don', 't', 's', 'yet', 'still', 'again',
  'each', 'every', 'before', 'after', 'here', 'more', 'most', 'much', 'many', 'new', 'already', 'right', 'away',
]);

/** Lowercase words of a text: camelCase and punctuation split, apostrophes dropped ("don't" is "dont"). */
export function words(text: string): string[] {
  return text
    // Plural acronyms are words: "VPs", "CTOs".
    .replace(/\b([A-Z]{2,})s\b/g, (_match, acronym: string) => `${acronym.toLowerCase()}s`)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .replace(/['’]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

const stemCache = new Map<string, string>();
export function stem(word: string): string {
  let stemmed = stemCache.get(word);
  if (stemmed === undefined) {
    stemmed = word.length > 2 ? stemmer(word) : word;
    if (stemCache.size < 50_000) stemCache.set(word, stemmed);
  }
  return stemmed;
}

/** The index's terms of a text: its words, stemmed, without stop words. */
export function terms(text: string): string[] {
  return words(text).filter((word) => !stopWords.has(word)).map(stem);
}

interface Phrase {
  concept: string;
  stems: string[];
}

function phrasesOf(groups: Record<string, readonly string[]>, prefix: string): Phrase[] {
  return Object.entries(groups).flatMap(([concept, list]) => list.map((phrase) => ({ concept: `${prefix}${concept}`, stems: words(phrase).map(stem) })));
}

/** Every phrase of the lexicon by its first stem, longest first. */
const phrasesByFirstStem = new Map<string, Phrase[]>();
for (const phrase of [...phrasesOf(objectConcepts, 'o_'), ...phrasesOf(actionConcepts, 'a_')]) {
  const first = phrase.stems[0];
  if (!first) continue;
  const list = phrasesByFirstStem.get(first) ?? [];
  list.push(phrase);
  list.sort((a, b) => b.stems.length - a.stems.length);
  phrasesByFirstStem.set(first, list);
}

/**
 * Words the reference data gives for what a search is about, beyond the lexicon: places
 * (countries, regions, states, cities), industries and job titles. A query that names a place or
 * an industry describes records to find; one that names a title describes people.
 */
function referenceStems(names: Iterable<string>): Set<string> {
  const found = new Set<string>();
  for (const name of names) {
    for (const word of words(name)) {
      const stemmed = stem(word);
      // Only words the operations' own text does not use, and that are no word of the lexicon: "Mobile" is a city, and a phone.
      if (word.length > 3 && !stopWords.has(word) && !registryStems.has(stemmed) && !phrasesByFirstStem.has(stemmed)) found.add(stemmed);
    }
  }
  return found;
}
const registryStems = new Set(operations.flatMap((operation) => terms(`${operation.title} ${operation.summary} ${operation.description} ${operation.keywords.join(' ')}`)));
const placeStems = referenceStems([
  ...REGIONS,
  ...COUNTRIES.flatMap((country) => [country.name, ...country.cities, ...country.states.flatMap((state) => [state.name, ...state.cities])]),
]);
const industryStems = referenceStems(INDUSTRIES.flatMap((industry) => [industry.name, ...industry.keywords]));
const titleStems = referenceStems(Object.values(TITLES).flatMap((bySeniority) => Object.values(bySeniority).flat()));

/** Words that are nouns after these ("the run", "each run"); "run" is an act otherwise. */
const determiners = new Set(['the', 'a', 'an', 'each', 'every', 'last', 'latest', 'past', 'previous', 'this', 'that', 'its', 'my', 'our', 'one', 'first', 'next']);

/** The things an account keeps several of and lists: "my audiences", "our alerts". */
const listedThings = new Set(['o_audience', 'o_savedSearch', 'o_exclusion', 'o_run']);

function conceptsOfWords(list: string[]): Set<string> {
  const found = new Set<string>();
  for (const word of list) for (const phrase of phrasesByFirstStem.get(stem(word)) ?? []) if (phrase.stems.length === 1) found.add(phrase.concept);
  return found;
}

/** Whether the word at this place names a thing of the lexicon (a one-word phrase of an `o_` concept). */
function thingAt(stems: string[], index: number): boolean {
  const word = stems[index];
  return word !== undefined && (phrasesByFirstStem.get(word) ?? []).some((phrase) => phrase.stems.length === 1 && phrase.concept.startsWith('o_'));
}

/** The concepts a text speaks of: every lexicon phrase found in it, on whole stemmed words (stop words kept, for phrases such as "do not contact"). */
export function conceptsOf(text: string): Set<string> {
  const all = words(text);
  const stems = all.map(stem);
  const found = new Set<string>();
  for (let i = 0; i < stems.length; ) {
    const candidates = phrasesByFirstStem.get(stems[i] as string) ?? [];
    let longest = 0;
    for (const phrase of candidates) {
      if (phrase.stems.length < longest) break;
      if (phrase.stems.every((s, k) => stems[i + k] === s)) {
        // "a finished segment": a word of state before the thing it describes says what the thing is, not a question about progress.
        const describesNext = phrase.concept === 'a_status' && phrase.stems.length === 1 && thingAt(stems, i + 1);
        if (!describesNext) found.add(phrase.concept);
        longest = phrase.stems.length;
      }
    }
    // The words of a phrase are its own: "exclusion list" is not also the act of listing.
    i += Math.max(1, longest);
  }
  // "run" after a determiner, "runs" and "executions" name runs, not the act of running.
  all.forEach((word, i) => {
    if ((word === 'run' && determiners.has(all[i - 1] ?? '')) || word === 'runs' || word === 'execution' || word === 'executions') {
      found.add('o_run');
      if (!all.some((other, k) => k !== i && (other === 'run' || other === 'rerun') && !determiners.has(all[k - 1] ?? ''))) found.delete('a_run');
    }
  });
  // "300 profile URLs", "50 people": many of them at once.
  if (/\b([2-9]|\d{2,})\s+(\w+\s+)?(profiles|profile|links|urls|people|persons|contacts|prospects|leads)\b/.test(text.toLowerCase())) found.add('a_batch');
  for (const stemmed of stems) {
    if (placeStems.has(stemmed) || industryStems.has(stemmed)) found.add('o_criteria');
    if (titleStems.has(stemmed)) found.add('o_person');
  }
  // "my audiences", "all our saved searches": things of one's own, in the plural, are asked for as a list.
  const ownPlural = /\b(my|our|all|which|what)\s+(?:\w+\s+)?(\w+s)\b/.exec(text.toLowerCase());
  if (ownPlural && [...conceptsOfWords([ownPlural[2] as string])].some((c) => listedThings.has(c))) found.add('a_list');
  return found;
}
