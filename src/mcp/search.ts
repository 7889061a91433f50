import MiniSearch from 'minisearch';
import type { OperationCategory } from '../../operations/define.js';
import { operations } from '../../operations/index.js';
import { audienceWorkflowStep, catalog, type CatalogEntry } from './catalog.js';

/**
 * search_endpoints: plain-language intent in, ranked operations out. One MiniSearch index over
 * each operation's words (title, summary, description, keywords, field names, the words of its
 * operationId), built once at module load.
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
  'api', 'endpoint', 'operation', 'tool', 'call',
]);

/** A light suffix stemmer: enough that "companies", "building" and "enriched" meet "company", "build", "enrich". */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed') && !word.endsWith('eed')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1);
  return word;
}

/** Splits camelCase and punctuation, lowercases, drops stop words, stems. */
export function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0 && !stopWords.has(word));
}

function processTerm(term: string): string | null {
  return stopWords.has(term) ? null : stem(term);
}

interface IndexedOperation {
  id: string;
  title: string;
  summary: string;
  description: string;
  keywords: string;
  fields: string;
  words: string;
}

function documentOf(entry: CatalogEntry): IndexedOperation {
  const { operation } = entry;
  return {
    id: operation.operationId,
    title: operation.title,
    summary: operation.summary,
    description: operation.description,
    keywords: operation.keywords.join(' '),
    fields: entry.fields.map((f) => f.name).join(' '),
    words: `${operation.operationId} ${operation.category}`,
  };
}

const documents = operations.map((op) => documentOf(catalog.get(op.operationId) as CatalogEntry));
const indexedFields = ['title', 'summary', 'description', 'keywords', 'fields', 'words'] as const;

/**
 * Every term of the index. Fuzzy matching is the costly part of a search, and only a word the
 * index does not know (a typo) needs it: known words match exactly or by prefix.
 */
const vocabulary = new Set(
  documents.flatMap((doc) => indexedFields.flatMap((field) => tokenize(doc[field]).map(processTerm))).filter((t): t is string => t !== null),
);

const index = new MiniSearch<IndexedOperation>({
  fields: [...indexedFields],
  tokenize,
  processTerm,
  searchOptions: {
    boost: { title: 3, keywords: 3, words: 2.5, summary: 1.5, description: 0.6, fields: 0.5 },
    fuzzy: (term) => (vocabulary.has(term) ? false : term.length >= 6 ? 2 : term.length >= 4 ? 1 : false),
    prefix: (term) => term.length >= 4 && !vocabulary.has(term),
    weights: { fuzzy: 0.3, prefix: 0.4 },
    combineWith: 'OR',
  },
});
index.addAll(documents);

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

/**
 * A query's ranking is the sum, per document, of its terms' scores, times the number of distinct
 * query terms the document matched: MiniSearch's OR combination. The index never changes after
 * start, so each term's scores (its exact, prefix and fuzzy matches over every field) are
 * computed once by MiniSearch and kept; a query then costs a few additions per term instead of
 * a walk of the index. Bounded, least recently used first out.
 */
interface TermScores {
  docIds: string[];
  scores: number[];
}

const termScoreLimit = 20_000;
const termScores = new Map<string, TermScores>();
const asIs = (text: string): string[] => [text];
const keep = (term: string): string => term;

function scoresOf(term: string): TermScores {
  const known = termScores.get(term);
  if (known) {
    termScores.delete(term);
    termScores.set(term, known);
    return known;
  }
  // The term is already tokenized and stemmed: MiniSearch must take it as it is.
  const hits = index.search(term, { tokenize: asIs, processTerm: keep });
  const computed = { docIds: hits.map((hit) => String(hit.id)), scores: hits.map((hit) => hit.score) };
  if (termScores.size >= termScoreLimit) termScores.delete(termScores.keys().next().value as string);
  termScores.set(term, computed);
  return computed;
}

/** The same ranking as `index.search(query)` (ids, scores and order; a test holds them side by side). */
export function rankOperations(query: string): { id: string; score: number }[] {
  const terms = tokenize(query)
    .map(processTerm)
    .filter((term): term is string => term !== null && term.length > 0);
  const totals = new Map<string, { score: number; matchedTerms: Set<string> }>();
  for (const term of terms) {
    const { docIds, scores } = scoresOf(term);
    for (let i = 0; i < docIds.length; i += 1) {
      const id = docIds[i] as string;
      const total = totals.get(id);
      if (total) {
        total.score += scores[i] as number;
        total.matchedTerms.add(term);
      } else {
        totals.set(id, { score: scores[i] as number, matchedTerms: new Set([term]) });
      }
    }
  }
  return [...totals]
    .map(([id, total]) => ({ id, score: total.score * total.matchedTerms.size }))
    .sort((a, b) => b.score - a.score);
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

/** MiniSearch's own answer for a query, for the test that holds rankOperations to it. */
export function rankOperationsByMiniSearch(query: string): { id: string; score: number }[] {
  return index.search(query).map((hit) => ({ id: String(hit.id), score: hit.score }));
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
