import MiniSearch, { type Query } from 'minisearch';
import { stemmer } from 'stemmer';
import type { AnyOperation, OperationCategory } from '../../operations/define.js';
import { operations } from '../../operations/index.js';
import { COUNTRIES, INDUSTRIES, REGIONS, TITLES } from '../../reference/index.js';
import { audienceWorkflowStep, catalog, type CatalogEntry } from './catalog.js';
import { actionConcepts, objectConcepts } from './lexicon.js';

/**
 * search_endpoints: plain-language intent in, ranked operations out. MiniSearch ranks the
 * operations' own words (title, summary, description, keywords, the words of the operationId)
 * against the query's, and two things are done around it so that phrasings never seen before
 * rank as well as the ones the registry's authors thought of:
 *  - concepts (lexicon.ts): a query and every operation are read through the same groups of
 *    words for the things and acts of the service, and the groups they share are matched as
 *    terms of their own ("segment", "my list" and "audience" all mean the audience concept);
 *  - what an operation does (create, list, read, update, delete, run, status, ...) comes from
 *    its operationId's verb and its registry metadata (a polling interval makes it a status
 *    operation), so a question about progress finds the status operation, not the one that
 *    started the work.
 * Input field names are indexed only as whole identifiers (maxProspectsToEnrich), never as
 * words: a field called `name` must not pull its operation up for every query that says "name".
 * Everything is built once at module load; a search is one MiniSearch query plus a few
 * multiplications.
 */

export interface SearchFilters {
  freeOnly?: boolean;
  maxCreditsPerCall?: number;
  readOnlyOnly?: boolean;
  category?: OperationCategory;
  limit?: number;
}

export interface EndpointRecommendation {
  operationId: string;
  title: string;
  summary: string;
  score: number;
  method: string;
  path: string;
  credits: string;
  charged: string;
  typicalCreditsPerCall: number | null;
  requiredFields: string[];
  category: OperationCategory;
  readOnly: boolean;
  workflow: { audienceWorkflowStep: number | null; before: string[]; after: string[] };
}

// Words that say nothing about which operation is meant ("I want to get ...").
const stopWords = new Set([
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
        found.add(phrase.concept);
        longest = phrase.stems.length;
      }
    }
    // The words of a phrase are its own: "exclusion list" is not also the act of listing.
    i += Math.max(1, longest);
  }
  // "run" and "runs" after a determiner, or "runs" at all, name runs, not the act of running.
  all.forEach((word, i) => {
    if ((word === 'run' && determiners.has(all[i - 1] ?? '')) || word === 'runs') {
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

/**
 * What an operation does, from its operationId's verb and its metadata: the status operations are
 * those with a polling interval, whatever their verb.
 */
export function actionOf(operation: AnyOperation): string[] {
  const verb = words(operation.operationId)[0] ?? '';
  if (operation.pollIntervalSeconds) return ['a_status'];
  const byVerb: Record<string, string[]> = {
    create: ['a_create'],
    update: ['a_update'],
    delete: ['a_delete'],
    remove: ['a_delete'],
    add: ['a_add'],
    list: ['a_list'],
    get: ['a_read'],
    build: ['a_run'],
    trigger: ['a_run'],
    run: ['a_run'],
    start: ['a_run'],
    estimate: [],
    reveal: ['a_lookup'],
    find: ['a_lookup'],
    validate: ['a_lookup'],
    live: ['a_lookup'],
  };
  return byVerb[verb] ?? [];
}

/** The acts that are an operation's verb (actionOf); the other acts are kinds of answer (a count, a file), named by its words. */
const verbActs = new Set(['a_create', 'a_update', 'a_delete', 'a_list', 'a_status', 'a_run', 'a_read', 'a_add', 'a_lookup']);
/** Acts that are what one does with a thing by default: a query need not say them. */
const weakVerbs = new Set(['a_read', 'a_lookup']);

interface Profile {
  /** The operation's act, when it is not a plain read or lookup. */
  verb: string | null;
  /** The kinds of answer its operationId names (a count, an export, suggestions, live data, ...). */
  answers: string[];
  /** The things its operationId names. */
  things: string[];
}

/**
 * What defines an operation: its act, and the kinds of answer and the things its operationId
 * names. A query that contradicts them (asks for another act, another kind of answer, other
 * things) is not asking for this operation, however many of its other words match.
 */
function profileOf(operation: AnyOperation): Profile {
  const named = [...conceptsOf(words(operation.operationId).join(' '))];
  // The resources its path names by id are things it is about: /v1/audiences/{audienceId}/export/prospects is about an audience.
  const resources = [...operation.path.matchAll(/\/([a-z-]+)\/\{\w+\}/g)].map((match) => (match[1] as string).replace(/-/g, ' '));
  named.push(...[...conceptsOf(resources.join(' . '))].filter((c) => c.startsWith('o_')));
  const verb = actionOf(operation).find((act) => !weakVerbs.has(act)) ?? null;
  return {
    verb,
    answers: named.filter((c) => c.startsWith('a_') && !verbActs.has(c)),
    things: [...new Set(named.filter((c) => c.startsWith('o_') && c !== 'o_none'))],
  };
}

/** How far an operation's profile agrees with what the query asks: 1 when nothing contradicts it, less for each contradiction. */
function agreement(profile: Profile, asked: Set<string>): number {
  let factor = 1;
  const askedVerbs = [...asked].filter((c) => verbActs.has(c) && !weakVerbs.has(c));
  if (profile.verb) {
    if (!asked.has(profile.verb)) factor *= askedVerbs.length ? weights.otherVerb : weights.unaskedVerb;
  } else if (askedVerbs.length) factor *= weights.verbOnPlainOperation;
  for (const answer of profile.answers) if (!asked.has(answer)) factor *= weights.unaskedAnswer;
  const askedAnswers = [...asked].filter((c) => c.startsWith('a_') && !verbActs.has(c));
  if (askedAnswers.length && !profile.answers.some((answer) => asked.has(answer))) factor *= weights.otherAnswer;
  const askedThings = [...asked].filter((c) => c.startsWith('o_'));
  if (askedThings.length && profile.things.length) {
    const matched = profile.things.filter((thing) => asked.has(thing)).length;
    factor *= matched === 0 ? weights.otherThing : weights.unaskedThing ** (profile.things.length - matched) * weights.matchedThing ** (matched - 1);
  }
  return factor;
}

/** A status operation's starter: an operation whose workflow goes on to a status operation. */
function startsPolledWork(operation: AnyOperation): boolean {
  return operation.workflow.after.some((id) => catalog.get(id)?.operation.pollIntervalSeconds !== undefined);
}

interface IndexedOperation {
  id: string;
  title: string;
  summary: string;
  description: string;
  keywords: string;
  name: string;
  concepts: string;
  defines: string;
  identifiers: string;
}

/** Field names made of several words (maxProspectsToEnrich) are identifiers a query may quote; one-word names (name, kind, email) are not indexed. */
function identifiersOf(entry: CatalogEntry): string[] {
  return entry.fields.map((field) => field.name).filter((name) => /[a-z][A-Z]/.test(name)).map((name) => name.toLowerCase());
}

function documentOf(entry: CatalogEntry): IndexedOperation {
  const { operation } = entry;
  const profile = profileOf(operation);
  const own = `${operation.title}. ${operation.summary} ${operation.keywords.join(', ')}. ${words(operation.operationId).join(' ')}`;
  const concepts = [...conceptsOf(own)].filter((concept) => concept.startsWith('o_') && concept !== 'o_criteria');
  // An operation that takes search filters is about the records they describe: places, industries, titles.
  if (entry.fields.some((field) => /searchParams$/i.test(field.name))) concepts.push('o_criteria');
  return {
    id: operation.operationId,
    title: operation.title,
    summary: operation.summary,
    description: operation.description,
    keywords: operation.keywords.join(' '),
    name: words(operation.operationId).join(' '),
    concepts: concepts.join(' '),
    defines: [...profile.things, ...profile.answers, ...(profile.verb ? [profile.verb] : [])].join(' '),
    identifiers: identifiersOf(entry).join(' '),
  };
}

const documents = operations.map((op) => documentOf(catalog.get(op.operationId) as CatalogEntry));
const textFields = ['title', 'summary', 'description', 'keywords', 'name'] as const;

/** Every term of the text fields: only a word the index does not know (a typo) is matched fuzzily. */
const vocabulary = new Set(documents.flatMap((doc) => textFields.flatMap((field) => terms(doc[field]))));

const tokenFields = ['concepts', 'defines', 'identifiers'] as const;
const isTokenField = (field: string | undefined): boolean => (tokenFields as readonly string[]).includes(field ?? '');
const asIs = (text: string): string[] => [text];
const keep = (term: string): string => term;

const index = new MiniSearch<IndexedOperation>({
  fields: [...textFields, ...tokenFields],
  // Concepts and identifiers are whole tokens; the text fields are words, stemmed.
  tokenize: (text, field) => (isTokenField(field) ? text.split(' ').filter(Boolean) : words(text)),
  processTerm: (term, field) => (isTokenField(field) ? term : stopWords.has(term) ? null : stem(term)),
});
index.addAll(documents);

export const weights = {
  text: { title: 2, keywords: 2, name: 2, summary: 1.5, description: 0.4 },
  concept: 1.5,
  defines: 4,
  identifier: 8,
  /** A question about progress: status operations up, the operations that start the work down. */
  progressStatus: 2,
  progressStarter: 0.5,
  /** An operation whose act the query does not ask for, when it asks for another act; when it asks for none. */
  otherVerb: 0.4,
  unaskedVerb: 0.8,
  /** A plain search or lookup, when the query asks for an act (delete, list, update, ...). */
  verbOnPlainOperation: 0.6,
  /** Each kind of answer an operation gives that the query does not ask for; none of the kinds the query asks for. */
  unaskedAnswer: 0.3,
  otherAnswer: 0.6,
  /** None of an operation's things among those the query names; each of its things the query does not name. */
  otherThing: 0.25,
  unaskedThing: 0.8,
  /** Each further thing of an operation the query names: the more completely a query names what an operation is about, the more it is that one. */
  matchedThing: 1.6,
};

/** The MiniSearch query of a text: its words (fuzzy only when unknown), the concepts it speaks of, and any identifier it quotes. */
function queryOf(text: string): { query: Query; concepts: Set<string> } {
  const queryTerms = [...new Set(terms(text))];
  const concepts = conceptsOf(text);
  const identifiers = identifierTokens(text);
  const queries: Query[] = [];
  if (queryTerms.length) {
    queries.push({
      queries: queryTerms,
      fields: [...textFields],
      boost: weights.text,
      fuzzy: (term) => (vocabulary.has(term) ? false : term.length >= 6 ? 2 : term.length >= 4 ? 1 : false),
      prefix: false,
      weights: { fuzzy: 0.3, prefix: 0.4 },
    });
  }
  if (concepts.size) {
    queries.push({ queries: [...concepts], fields: ['concepts', 'defines'], boost: { concepts: weights.concept, defines: weights.defines }, fuzzy: false, prefix: false });
  }
  if (identifiers.length) queries.push({ queries: identifiers, fields: ['identifiers'], boost: { identifiers: weights.identifier }, fuzzy: false, prefix: false });
  return { query: { combineWith: 'OR', queries }, concepts };
}

/** camelCase identifiers as a query quotes them (maxProspectsToEnrich), lowercased whole. */
function identifierTokens(text: string): string[] {
  return (text.match(/[A-Za-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+/g) ?? []).map((token) => token.toLowerCase());
}

const operationById = new Map(operations.map((operation) => [operation.operationId, operation]));
const profiles = new Map(operations.map((operation) => [operation.operationId, profileOf(operation)]));

/** The operations for a query, best first, with their scores. */
export function rankOperations(text: string): { id: string; score: number }[] {
  const { query, concepts } = queryOf(text);
  if ((query as { queries: Query[] }).queries.length === 0) return [];
  const progress = concepts.has('a_status');
  return index
    .search(query, { tokenize: asIs, processTerm: keep })
    .map((hit) => {
      const operation = operationById.get(String(hit.id)) as AnyOperation;
      let score = hit.score;
      // A query that quotes one of an operation's fields by name means that operation, whatever else it says.
      const quotesField = Object.values(hit.match).some((fields) => fields.includes('identifiers'));
      if (!quotesField) score *= agreement(profiles.get(operation.operationId) as Profile, concepts);
      if (progress && operation.pollIntervalSeconds) score *= weights.progressStatus;
      else if (progress && startsPolledWork(operation)) score *= weights.progressStarter;
      return { id: String(hit.id), score };
    })
    .sort((a, b) => b.score - a.score);
}

export const categories: readonly OperationCategory[] = ['search', 'audience', 'enrichment', 'contact', 'account'];

function passes(entry: CatalogEntry, filters: SearchFilters): boolean {
  const { operation } = entry;
  if (filters.freeOnly && operation.credits.charged !== 'free') return false;
  if (filters.readOnlyOnly && !operation.readOnly) return false;
  if (filters.category && operation.category !== filters.category) return false;
  if (filters.maxCreditsPerCall !== undefined) {
    if (entry.typicalWorstCase === null || entry.typicalWorstCase > filters.maxCreditsPerCall) return false;
  }
  return true;
}

export function recommendationOf(entry: CatalogEntry, score: number): EndpointRecommendation {
  const { operation } = entry;
  return {
    operationId: operation.operationId,
    title: operation.title,
    summary: operation.summary,
    score: Math.round(score * 100) / 100,
    method: operation.method,
    path: operation.path,
    credits: operation.credits.rule,
    charged: operation.credits.charged,
    typicalCreditsPerCall: entry.typicalWorstCase,
    requiredFields: entry.requiredFields,
    category: operation.category,
    readOnly: operation.readOnly,
    workflow: {
      audienceWorkflowStep: audienceWorkflowStep(operation.operationId),
      before: operation.workflow.before,
      after: operation.workflow.after,
    },
  };
}

export function searchEndpoints(query: string, filters: SearchFilters = {}): EndpointRecommendation[] {
  const limit = filters.limit ?? 5;
  const results: EndpointRecommendation[] = [];
  for (const hit of rankOperations(query)) {
    const entry = catalog.get(hit.id);
    if (!entry || !passes(entry, filters)) continue;
    results.push(recommendationOf(entry, hit.score));
    if (results.length >= limit) break;
  }
  return results;
}

/** The operationIds nearest to a mistyped one, for "unknown operationId" errors. */
export function closestOperationIds(candidate: string, count = 3): string[] {
  const target = candidate.toLowerCase();
  return [...catalog.keys()]
    .map((id) => ({ id, distance: editDistance(target, id.toLowerCase()) }))
    .sort((a, b) => a.distance - b.distance || a.id.localeCompare(b.id))
    .slice(0, count)
    .map((c) => c.id);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] as number;
}
