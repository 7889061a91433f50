import { operations } from '../../../operations/index.js';
import { COUNTRIES, INDUSTRIES, REGIONS, TITLES } from '../../../reference/index.js';
import { actionConcepts, objectConcepts } from './lexicon.js';
import { lexiconStem, stem, stopWords, terms, words } from './text.js';

/**
 * The concepts a request speaks of, as features of the ranker beside its words: the groups of words of lexicon.ts for the
 * things (`o_`) and acts (`a_`) of the service ("segment", "my list" and "audience" are one thing), what the reference
 * data adds (places and industries describe the records a search is for, job titles describe people), and a few shapes
 * of sentence (what or who is in a thing asks for its contents, "make saved search 8 weekly" changes it). The request
 * is read without what it refuses, with its slips corrected and its literals said in words (`corrected`). The phrasings
 * say which concept points to which operation: the regression learns it. Kept because it gains more than a point of
 * top-1 on phrasings the model never learnt from (docs/decisions/0002-ranker.md).
 */

/** Every concept of a request, as the ranker's features. */
export function conceptsOfRequest(text: string): string[] {
  return [...conceptsOf(corrected(text))];
}

interface Phrase {
  concept: string;
  stems: string[];
}

function phrasesOf(groups: Record<string, readonly string[]>, prefix: string): Phrase[] {
  return Object.entries(groups).flatMap(([concept, list]) =>
    list.map((phrase) => ({ concept: `${prefix}${concept}`, stems: words(phrase).map(lexiconStem) })),
  );
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
      if (word.length > 3 && !stopWords.has(word) && !registryStems.has(stemmed) && !phrasesByFirstStem.has(stemmed))
        found.add(stemmed);
    }
  }
  return found;
}
const registryStems = new Set(
  operations.flatMap((operation) =>
    terms(`${operation.title} ${operation.summary} ${operation.description} ${operation.keywords.join(' ')}`),
  ),
);
const placeStems = referenceStems([
  ...REGIONS,
  ...COUNTRIES.flatMap((country) => [
    country.name,
    ...country.cities,
    ...country.states.flatMap((state) => [state.name, ...state.cities]),
  ]),
]);
const industryStems = referenceStems(INDUSTRIES.flatMap((industry) => [industry.name, ...industry.keywords]));
const titleStems = referenceStems(Object.values(TITLES).flatMap((bySeniority) => Object.values(bySeniority).flat()));

/** Words that are nouns after these ("the run", "each run"); "run" is an act otherwise. */
const determiners = new Set([
  'the',
  'a',
  'an',
  'each',
  'every',
  'last',
  'latest',
  'past',
  'previous',
  'this',
  'that',
  'its',
  'my',
  'our',
  'one',
  'first',
  'next',
]);

/** The things an account keeps several of and lists: "my audiences", "our alerts". */
const listedThings = new Set(['o_audience', 'o_savedSearch', 'o_exclusion', 'o_run', 'o_webhook', 'o_delivery']);

function conceptsOfWords(list: string[]): Set<string> {
  const found = new Set<string>();
  for (const word of list)
    for (const phrase of phrasesByFirstStem.get(lexiconStem(word)) ?? [])
      if (phrase.stems.length === 1) found.add(phrase.concept);
  return found;
}

/** Whether the word at this place names a thing of the lexicon (a one-word phrase of an `o_` concept). */
function thingAt(stems: string[], index: number): boolean {
  const word = stems[index];
  return (
    word !== undefined &&
    (phrasesByFirstStem.get(word) ?? []).some((phrase) => phrase.stems.length === 1 && phrase.concept.startsWith('o_'))
  );
}

/**
 * The lexicon's phrases in a text's stemmed words, left to right, the longest at each place (with every concept a phrase of
 * that length gives there). The words of a phrase are its own: "exclusion list" is not also the act of listing.
 */
function* phrasesIn(stems: readonly string[]): Generator<{ at: number; phrases: Phrase[] }> {
  for (let at = 0; at < stems.length;) {
    const phrases: Phrase[] = [];
    for (const phrase of phrasesByFirstStem.get(stems[at] as string) ?? []) {
      if (phrases.length && phrase.stems.length < (phrases[0] as Phrase).stems.length) break;
      if (phrase.stems.every((s, k) => stems[at + k] === s)) phrases.push(phrase);
    }
    if (phrases.length) yield { at, phrases };
    at += Math.max(1, phrases[0]?.stems.length ?? 0);
  }
}

/** The concepts a text speaks of: every lexicon phrase found in it, on whole stemmed words (stop words kept, for phrases such as "do not contact"). */
function conceptsOf(text: string): Set<string> {
  const all = words(text);
  const stems = all.map(lexiconStem);
  const found = new Set<string>();
  for (const { at, phrases } of phrasesIn(stems)) {
    for (const phrase of phrases) {
      // "a finished segment": a word of state before the thing it describes says what the thing is, not a question about progress.
      const describesNext = phrase.concept === 'a_status' && phrase.stems.length === 1 && thingAt(stems, at + 1);
      if (!describesNext) found.add(phrase.concept);
    }
  }
  // "run" after a determiner, "runs" and "executions" name runs, not the act of running.
  all.forEach((word, i) => {
    if (
      (word === 'run' && (determiners.has(all[i - 1] ?? '') || /^\d/.test(all[i + 1] ?? ''))) ||
      word === 'runs' ||
      word === 'execution' ||
      word === 'executions'
    ) {
      found.add('o_run');
      if (
        !all.some((other, k) => k !== i && (other === 'run' || other === 'rerun') && !determiners.has(all[k - 1] ?? ''))
      )
        found.delete('a_run');
    }
  });
  // "300 profile URLs", "50 people": many of them at once.
  if (
    /\b([2-9]|\d{2,})\s+(\w+\s+)?(profiles|profile|links|urls|people|persons|contacts|prospects|leads)\b/.test(
      text.toLowerCase(),
    )
  )
    found.add('a_batch');
  for (const stemmed of stems) {
    if (placeStems.has(stemmed) || industryStems.has(stemmed)) found.add('o_criteria');
    if (titleStems.has(stemmed)) found.add('o_person');
  }
  // "new list for my campaign", "a new alert": "new" before a thing one keeps makes one; "also suppress …" adds to what is there.
  all.forEach((word, i) => {
    if (word !== 'new') return;
    const next = all.slice(i + 1, i + 3).join(' ');
    if (/^lists?\b/.test(next) || [...conceptsOf(next)].some((concept) => listedThings.has(concept)))
      found.add('a_create');
  });
  if (/^\W*(?:\w+:\s*["“]?)?(?:also|additionally|plus)\b/.test(text.toLowerCase())) found.add('a_add');
  // "make saved search 8 manual only": making one that exists, named by its number, something else changes it.
  if (/\bmake\s+(?:my\s+|the\s+|our\s+)?(?:[a-z-]+\s+){1,2}(?:#|no\.?\s*)?\d+\b/.test(text.toLowerCase())) {
    found.delete('a_create');
    found.add('a_update');
  }
  // "who is jane@acme.com": who, asked of an email address, is the person behind it.
  if (found.has('o_emailAddress') && /\bwho(?:m|se)?\b/.test(text.toLowerCase())) found.add('a_reverseLookup');
  // "which domains are on exclusion list 4": a question about what is in a thing asks for its contents.
  if (/^\W*(?:\w+:\s*["“]?)?(?:which|what)\s+\w+\s+(?:are|is)\s+(?:on|in|inside)\b/.test(text.toLowerCase()))
    found.add('a_list');
  // "who's on list 39", "who lives in segment 12": so is one about what or who is in it.
  if (
    /\b(?:what|who)(?:['’]s|\s+(?:is|are|sits?|lives?|stays?|remains?))\s+(?:on|in|inside)\b/.test(text.toLowerCase())
  )
    found.add('a_list');
  // "what am I tracking", "what have we built": a question about what one has is asked for as a list.
  if (/\b(?:what|which)\s+(?:\w+\s+){0,3}(?:do|have|am|are|did)\s+(?:i|we)\b/.test(text.toLowerCase())) {
    found.add('a_list');
    // "what have I built": what one made is what one has.
    found.delete('a_run');
    found.delete('a_create');
  }
  // "my audiences", "all our saved searches": things of one's own, in the plural, are asked for as a list.
  // The word before the plural may be the one that names the thing: "my standing queries".
  const ownPlural = /\b(my|our|all|which|what)\s+(?:(\w+)\s+)?(\w+s)\b/.exec(text.toLowerCase());
  if (
    ownPlural &&
    [...conceptsOfWords([ownPlural[3] as string, ...(ownPlural[2] ? [ownPlural[2]] : [])])].some((c) =>
      listedThings.has(c),
    )
  )
    found.add('a_list');
  return found;
}

/**
 * Every word the ranker knows: the registry's text, the lexicon's phrases and the reference data's names. A query word
 * outside it is likely a typo ("compnay", "enrichement", "adress"); spellingOf finds the known word it was meant as.
 */
const knownWords = new Set<string>([
  ...stopWords,
  ...operations.flatMap((operation) =>
    words(
      `${operation.operationId} ${operation.title} ${operation.summary} ${operation.description} ${operation.keywords.join(' ')}`,
    ),
  ),
  ...Object.values(objectConcepts).flatMap((list) => list.flatMap((phrase) => words(phrase))),
  ...Object.values(actionConcepts).flatMap((list) => list.flatMap((phrase) => words(phrase))),
  ...REGIONS.flatMap((region) => words(region)),
  ...COUNTRIES.flatMap((country) =>
    words(
      [country.name, ...country.cities, ...country.states.flatMap((state) => [state.name, ...state.cities])].join(' '),
    ),
  ),
  ...INDUSTRIES.flatMap((industry) => words([industry.name, ...industry.keywords].join(' '))),
  ...Object.values(TITLES).flatMap((bySeniority) =>
    Object.values(bySeniority)
      .flat()
      .flatMap((title) => words(title)),
  ),
]);
const knownStems = new Set([...knownWords].map(stem));
/** Known words of four letters or more by their first letter: a typo rarely changes the first letter. */
const correctable = new Map<string, string[]>();
for (const word of knownWords) {
  if (word.length < 4 || /\d/.test(word)) continue;
  const list = correctable.get(word[0] as string) ?? [];
  list.push(word);
  correctable.set(word[0] as string, list);
}

const vowels = new Set(['a', 'e', 'i', 'o', 'u', 'y']);

/**
 * Whether `typed` is one slip away from `known`: two neighbouring letters swapped ("serach", "compnay"), one vowel for another
 * ("audiance"), a vowel left out or put in ("peple"), a letter doubled or undoubled ("adress"). Other edits too often turn
 * one English word into another ("selling" is not "spelling") to be read as slips.
 */
function isSlipOf(typed: string, known: string): boolean {
  if (typed.length === known.length) {
    const differ: number[] = [];
    for (let i = 0; i < typed.length && differ.length <= 2; i += 1) if (typed[i] !== known[i]) differ.push(i);
    if (differ.length === 1)
      return vowels.has(typed[differ[0] as number] as string) && vowels.has(known[differ[0] as number] as string);
    const [i, j] = differ as [number, number];
    return differ.length === 2 && j === i + 1 && typed[i] === known[j] && typed[j] === known[i];
  }
  const [longer, shorter] = typed.length > known.length ? [typed, known] : [known, typed];
  if (longer.length !== shorter.length + 1) return false;
  let at = 0;
  while (at < shorter.length && longer[at] === shorter[at]) at += 1;
  if (longer.slice(at + 1) !== shorter.slice(at)) return false;
  const extra = longer[at] as string;
  return vowels.has(extra) || extra === longer[at - 1] || extra === longer[at + 1];
}

const spellingCache = new Map<string, string>();
/** The known word a query word was meant as: itself when known, else the known word it is one slip away from. */
export function spellingOf(word: string): string {
  if (word.length < 5 || knownWords.has(word) || knownStems.has(stem(word)) || /\d/.test(word)) return word;
  let meant = spellingCache.get(word);
  if (meant === undefined) {
    meant = (correctable.get(word[0] as string) ?? []).find((candidate) => isSlipOf(word, candidate)) ?? word;
    if (spellingCache.size < 10_000) spellingCache.set(word, meant);
  }
  return meant;
}

/**
 * What a query quotes, said in words: a profile URL and an email address are things of the service, a domain names one
 * company and says nothing of what is asked (its parts, "acme" and "com", are no words), and "with 50 people" is a
 * company's headcount, not people to find.
 */
const literals: [RegExp, string][] = [
  [/\b(?:https?:\/\/)?(?:[a-z]{2,3}\.)?linkedin\.com\/in\/[\w%-]+\/?/gi, ' this profile '],
  [/\b(?:https?:\/\/)?(?:[a-z]{2,3}\.)?linkedin\.com\/company\/[\w%-]+\/?/gi, ' this company '],
  [/\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g, ' email address '],
  [
    /\b(?:https?:\/\/)?(?:www\.)?[a-z0-9-]+\.(?:com|io|ai|co|net|org|de|fr|uk|es|it|nl|se|dk|no|fi|ch|at|be|eu|app|dev|tech|us|ca|au|in|jp|br)\b(?:\/\S*)?/gi,
    ' ',
  ],
  [
    /\b(with|than|over|under|above|below|between|to|and|of|from|least|most|about|around)\s+(\d[\d,.]*(?:\s*(?:-|–|to|and)\s*\d[\d,.]*)?\s*[km+]?)\s*(?:people|employees|staff|persons|workers|heads|ftes?)\b/gi,
    '$1 $2 headcount',
  ],
];

/**
 * What a request says it does not want ("not the run's status", "don't create a new one", "no need to fetch its runs
 * again", "instead of deleting it"), up to the end of its clause or a word that turns back to the request ("but", "just",
 * "then"). Its words name the neighbour the request is not for, and read as asked they pulled that neighbour up. Left
 * alone: a refusal that is the request itself, to keep someone out ("do not contact list", "never show me them again",
 * "don't target audience 3 again").
 */
const refusal =
  /\b(?:don'?t|do not|no need to|never|instead of|rather than|not)\s+(?!yet\b|sure\b|only\b|just\b|contact\b|call\b|email\b|e-mail\b|target\b|show\b|prospect\b|reach\b|pitch\b|approach\b|sell\b|market\b|touch\b|bother\b|needed\b|want\b)(?:(?!\b(?:but|just|only|instead|then|and|again)\b|\s[-–—]+\s)[^,.;:!?])*(?![^,.;:!?]*\bagain\b)/gi;

/**
 * A query as the ranker reads it: without what it refuses (`refusal`; a comma keeps the clauses around it apart), its quoted
 * literals said in words and its typos corrected in place (punctuation kept for readQuery, camelCase identifiers left as they are).
 */
export function corrected(text: string): string {
  const refused = text.replace(refusal, ' , ');
  // A request that is all refusal ("not that one") still says what it is about: better its neighbour than no answer.
  let plain = /[A-Za-z]{2}/.test(refused) ? refused : text;
  for (const [pattern, words] of literals) plain = plain.replace(pattern, words);
  return plain.replace(/[A-Za-z]+/g, (word) => (/^[A-Z]?[a-z]+$/.test(word) ? spellingOf(word.toLowerCase()) : word));
}
