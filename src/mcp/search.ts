import type { AnyOperation, OperationCategory } from '../../operations/define.js';
import { operations } from '../../operations/index.js';
import { audienceWorkflowStep, catalog, type CatalogEntry } from './catalog.js';
import { conceptsOf, corrected, instanceOf, readQuery, stem, stopWords, terms, words } from './concepts.js';
import { DescriptionIndex, type FieldsQuery } from './description-index.js';
import { ExampleIndex } from './examples.js';
import { examplePhrasings } from './phrasings/index.js';

/**
 * search_endpoints: plain-language intent in, ranked operations out. MiniSearch ranks the
 * operations' own words (title, summary, description, keywords, the words of the operationId)
 * against the query's (description-index.ts: its scores of each term, asked once and added up at
 * each search as its own query would), and two things are done around it for phrasings the
 * registry's authors did not think of (figures on unseen phrasings in BENCHMARKS.md):
 *  - concepts (lexicon.ts, read by concepts.ts): a query and every operation are read through the same groups of
 *    words for the things and acts of the service, and the groups they share are matched as
 *    terms of their own ("segment", "my list" and "audience" all mean the audience concept);
 *  - what an operation does (create, list, read, update, delete, run, status, ...) comes from
 *    its operationId's verb and its registry metadata (a polling interval makes it a status
 *    operation), its kind of answer and its things from its operationId and path: a query that
 *    asks for another act, answer or thing ranks it lower, and a question about progress finds
 *    the status operation, not the one that started the work.
 *  - examples (examples.ts): the query is also compared with labelled phrasings of each operation
 *    (src/mcp/phrasings): each operation's vote from its nearest ones, and its probability under two
 *    models of their words (naive Bayes, and a softmax regression that weighs the words telling
 *    neighbours apart), are added to its score.
 * Input field names are indexed only as whole identifiers (maxProspectsToEnrich), never as
 * words: a field called `name` must not pull its operation up for every query that says "name".
 * Everything is built once at module load; a search adds up scores and multiplies a few tables
 * (bench/ranker.ts measures its CPU).
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
    // Issue 25: a secret rotated and a threshold set are changes; a delivery resent is work run again.
    rotate: ['a_update'],
    set: ['a_update'],
    resend: ['a_run'],
    test: ['a_test'],
  };
  return byVerb[verb] ?? [];
}

/** The acts that are an operation's verb (actionOf); the other acts are kinds of answer (a count, a file), named by its words. */
const verbActs = new Set([
  'a_create',
  'a_update',
  'a_delete',
  'a_list',
  'a_status',
  'a_run',
  'a_read',
  'a_add',
  'a_lookup',
  'a_test',
]);
/** Acts that are what one does with a thing by default: a query need not say them. */
const weakVerbs = new Set(['a_read', 'a_lookup']);

interface Profile {
  /** The operation's act, when it is not a plain read or lookup. */
  verb: string | null;
  /** The kinds of answer its operationId names (a count, an export, suggestions, live data, ...). */
  answers: string[];
  /** The things its operationId names. */
  things: string[];
  /** The kinds of thing it takes one of by identifier (`i_audience` for audienceId). */
  instances: string[];
}

/**
 * What defines an operation: its act, and the kinds of answer and the things its operationId
 * names. A query that contradicts them (asks for another act, another kind of answer, other
 * things) is not asking for this operation, however many of its other words match.
 */
function profileOf(operation: AnyOperation): Profile {
  const identifiers = (catalog.get(operation.operationId)?.fields ?? [])
    .map((field) => field.name)
    .filter((name) => /I[dD]$/.test(name));
  const instances = identifiers
    .map((name) => instanceOf(words(name).slice(0, -1).join(' ')))
    .filter((instance): instance is string => instance !== null);
  const named = [...conceptsOf(words(operation.operationId).join(' '))];
  // The resources its path names by id are things it is about: /v1/audiences/{audienceId}/export/prospects is about an audience.
  const resources = [...operation.path.matchAll(/\/([a-z-]+)\/\{\w+\}/g)].map((match) =>
    (match[1] as string).replace(/-/g, ' '),
  );
  named.push(...[...conceptsOf(resources.join(' . '))].filter((c) => c.startsWith('o_')));
  const verb = actionOf(operation).find((act) => !weakVerbs.has(act)) ?? null;
  return {
    verb,
    answers: named.filter((c) => c.startsWith('a_') && !verbActs.has(c)),
    things: [...new Set(named.filter((c) => c.startsWith('o_') && c !== 'o_none'))],
    instances,
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
    factor *=
      matched === 0
        ? weights.otherThing
        : weights.unaskedThing ** (profile.things.length - matched) * weights.matchedThing ** (matched - 1);
  }
  // The things an account keeps (audiences, saved searches, exclusion lists) are what a query naming one is about: the people
  // and companies it also names are their contents ("monitor for new VPs", "the companies of my segment").
  const askedKept = askedThings.filter((thing) => keptThings.has(thing));
  if (askedKept.length && !askedKept.some((thing) => profile.things.includes(thing))) factor *= weights.otherKeptThing;
  // One thing named by its number: the operations about such things that take none (list them all, create one) are not meant.
  for (const instance of asked) {
    if (
      instance.startsWith('i_') &&
      !profile.instances.includes(instance) &&
      profile.things.includes(`o_${instance.slice(2)}`)
    )
      factor *= weights.noInstance;
  }
  return factor;
}

const keptThings = new Set(['o_audience', 'o_savedSearch', 'o_exclusion']);

/** A status operation's starter: an operation whose workflow goes on to a status operation. */
function startsPolledWork(operation: AnyOperation): boolean {
  return operation.workflow.after.some((id) => catalog.get(id)?.operation.pollIntervalSeconds !== undefined);
}

/** A type, not an interface, so that it is a record of strings to the index. */
type IndexedOperation = {
  id: string;
  title: string;
  summary: string;
  description: string;
  keywords: string;
  name: string;
  concepts: string;
  defines: string;
  identifiers: string;
};

/** Field names made of several words (maxProspectsToEnrich) are identifiers a query may quote; one-word names (name, kind, email) are not indexed. */
function identifiersOf(entry: CatalogEntry): string[] {
  return entry.fields
    .map((field) => field.name)
    .filter((name) => /[a-z][A-Z]/.test(name))
    .map((name) => name.toLowerCase());
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
const fieldNames = [...textFields, ...tokenFields];
const isTokenField = (field: string): boolean => (tokenFields as readonly string[]).includes(field);

/** How the index reads its fields: concepts and identifiers are whole tokens; the text fields are words, stemmed, without stop words. */
export const descriptionFields = {
  names: fieldNames,
  tokensOf: (text: string, field: string): string[] =>
    isTokenField(field) ? text.split(' ').filter(Boolean) : words(text),
  termOf: (token: string, field: string): string | null =>
    isTokenField(field) ? token : stopWords.has(token) ? null : stem(token),
};

const index = new DescriptionIndex(documents, fieldNames, descriptionFields.tokensOf, descriptionFields.termOf);
const identifiersBit = index.fieldBit('identifiers');
/** The index's documents, for the test that compares its scores with MiniSearch's whole query. */
export { documents as describedDocuments };

export const weights = {
  text: { title: 2, keywords: 2, name: 2, summary: 1.5, description: 0.4 },
  concept: 1.5,
  /** A word said only where the query sets the scene ("… before it is built"). */
  settingTerm: 0.3,
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
  /** An operation about a kind of thing that takes no identifier of it, when the query names one such thing by number. */
  noInstance: 0.5,
  /** An operation about none of the kept things (audiences, saved searches, exclusion lists) the query names. */
  otherKeptThing: 0.6,
  /** The examples' vote (up to 1.5) beside the description score, which is scaled so that the best operation's is 1. */
  examples: 0.5,
  /** The examples' word model: each operation's likelihood (0 to 1, summing to 1 over all). */
  likelihood: 2,
  /**
   * The examples' softmax regression: each operation's probability (0 to 1, summing to 1). Every labelled set left out in
   * turn (7,068): without it 89.5 % top-1; at 1, 1.5, 2.5, 3.5 and 5, 90.7, 91.0, 91.2, 91.0 and 90.8 %.
   */
  classifier: 2.5,
};

/** The index query of a text: its words (fuzzy only when unknown), the concepts it speaks of, and any identifier it quotes. */
export function queryOf(text: string): { query: FieldsQuery[]; concepts: Set<string> } {
  const queryTerms = [...new Set(terms(text))];
  const { concepts, settingTerms } = readQuery(text);
  const identifiers = identifierTokens(text);
  const query: FieldsQuery[] = [];
  if (queryTerms.length) {
    query.push({
      terms: queryTerms,
      boosts: weights.text,
      fuzzy: (term) => (vocabulary.has(term) ? false : term.length >= 6 ? 2 : term.length >= 4 ? 1 : false),
      termBoost: (term) => (settingTerms.has(term) ? weights.settingTerm : 1),
    });
  }
  if (concepts.size)
    query.push({ terms: [...concepts], boosts: { concepts: weights.concept, defines: weights.defines } });
  if (identifiers.length) query.push({ terms: identifiers, boosts: { identifiers: weights.identifier } });
  return { query, concepts };
}

/** camelCase identifiers as a query quotes them (maxProspectsToEnrich), lowercased whole. */
function identifierTokens(text: string): string[] {
  return (text.match(/[A-Za-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+/g) ?? []).map((token) => token.toLowerCase());
}

const operationById = new Map(operations.map((operation) => [operation.operationId, operation]));
const profiles = new Map(operations.map((operation) => [operation.operationId, profileOf(operation)]));

const defaultExamples = new ExampleIndex(examplePhrasings);

/**
 * The operations for a query, best first, with their scores. `examples` is for measuring: the
 * tests score each set of phrasings against examples without that set.
 *
 * The first is the one with the highest summed score. The places after it go by how high each operation stands in each of
 * the five rankings (the description index, the nearest examples, the word model, the regression and the sum): an operation
 * that two or three rankers put second is a better second guess than one that a single ranker's large score carried there.
 * The sum alone put the operation meant in the top three for 98.3 % of every labelled set left out in turn (7,068); this
 * order, 98.6 %, the first place unchanged (BENCHMARKS.md). A score never rises down the list: a later operation shows at
 * most the score of the one before it.
 */
export function rankOperations(
  asTyped: string,
  examples: ExampleIndex = defaultExamples,
): { id: string; score: number }[] {
  const text = corrected(asTyped);
  const { query, concepts } = queryOf(text);
  if (query.length === 0) return [];
  const described = describedScores(query, concepts);
  const best = described[0]?.score ?? 1;
  const scores = new Map(described.map((hit) => [hit.id, hit.score / best]));
  const rankings: Ranking[] = [{ order: described.map((hit) => hit.id), weight: 1 }];
  const addModel = (model: Map<string, number>, weight: number) => {
    const known = [...model].filter(([operationId]) => operationById.has(operationId));
    // Every operation, even when the query quotes a field that only some take: a request that names a field may name where
    // the answer goes next ("… so I can fill the currentCompanies filter", asked of the company typeahead). Letting the
    // examples order only the operations that take a quoted field cost every labelled set left out in turn 91.7 → 91.2 %
    // top-1. A quoted field still lifts the operations that take it, through the description index.
    for (const [operationId, score] of known) scores.set(operationId, (scores.get(operationId) ?? 0) + weight * score);
    rankings.push({ order: known.sort((a, b) => b[1] - a[1]).map(([operationId]) => operationId), weight: 1 });
  };
  addModel(examples.votes(text, concepts), weights.examples);
  addModel(examples.likelihoods(text, concepts), weights.likelihood);
  addModel(examples.probabilities(text, concepts), weights.classifier);
  const summed = [...scores.entries()].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score);
  rankings.push({ order: summed.map((hit) => hit.id), weight: 1 });
  return fused(summed, rankings);
}

/**
 * Reciprocal rank fusion of the rankings' first ten, after the summed ranking's first. The constant is small (2, where the
 * literature's is 60) because only the first few places of each ranking are worth anything here. Every labelled set left out
 * in turn (7,068), top three: constant 60, 5, 3, 2 and 1, 98.2, 98.5, 98.6, 98.6 and 98.5 %. A ranking counts as much as
 * any other (`weight` is for measuring): with the regression's ranking counted twice, 98.68 % against 98.57 %, 8 phrasings
 * of 7,068 and within noise, while the held-out set lost one (BENCHMARKS.md); other weights and the first five places only,
 * 98.57 to 98.68 %.
 */
const fusion = { depth: 10, constant: 2 };

interface Ranking {
  order: readonly string[];
  weight: number;
}

/** `summed` (best first) reordered after its first by the rankings' agreement, its scores made never to rise down the list. */
export function fused(
  summed: readonly { id: string; score: number }[],
  rankings: readonly Ranking[],
): { id: string; score: number }[] {
  const [first, ...rest] = summed;
  if (!first) return [];
  const agreement = new Map<string, number>();
  for (const { order, weight } of rankings) {
    order
      .slice(0, fusion.depth)
      .forEach((operationId, place) =>
        agreement.set(operationId, (agreement.get(operationId) ?? 0) + weight / (fusion.constant + place)),
      );
  }
  // Stable: operations no ranking holds in its first ten keep the summed order, after the others.
  rest.sort((a, b) => (agreement.get(b.id) ?? 0) - (agreement.get(a.id) ?? 0));
  const ordered = [first];
  for (const hit of rest)
    ordered.push({ id: hit.id, score: Math.min(hit.score, (ordered[ordered.length - 1] as { score: number }).score) });
  return ordered;
}

/** The operations' own words against the query's, weighed by how far each operation's profile agrees with what it asks. */
function describedScores(query: readonly FieldsQuery[], concepts: Set<string>): { id: string; score: number }[] {
  const progress = concepts.has('a_status');
  return index
    .search(query)
    .map((hit) => {
      const operation = operations[hit.document] as AnyOperation;
      let score = hit.score;
      // A query that quotes one of an operation's fields by name means that operation, whatever else it says.
      const quotesField = (hit.matchedFields & identifiersBit) !== 0;
      if (!quotesField) score *= agreement(profiles.get(operation.operationId) as Profile, concepts);
      if (progress && operation.pollIntervalSeconds) score *= weights.progressStatus;
      else if (progress && startsPolledWork(operation)) score *= weights.progressStarter;
      return { id: operation.operationId, score };
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
