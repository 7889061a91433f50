import type { OperationCategory } from '../../operations/define.js';
import { audienceWorkflowStep, catalog, effectOf, type CatalogEntry } from './catalog.js';
import { ranker } from './ranker/index.js';

/**
 * search_endpoints: plain-language intent in, ranked operations out, filtered by cost, effect and category. The ranking
 * is the ranker's (src/mcp/ranker); this module filters it and says what an agent needs to call each operation.
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
  /** Changes no data; says nothing of cost (chargesCredits). */
  readOnly: boolean;
  chargesCredits: boolean;
  /** Free and changes nothing: what a read-only API key may run. */
  runsWithReadOnlyKey: boolean;
  /** readOnly and chargesCredits in a sentence. */
  effect: string;
  workflow: { audienceWorkflowStep: number | null; before: string[]; after: string[] };
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

/** `score` is the ranker's probability that the operation is the one meant, to three decimals. */
function recommendationOf(entry: CatalogEntry, score: number): EndpointRecommendation {
  const { operation } = entry;
  return {
    operationId: operation.operationId,
    title: operation.title,
    summary: operation.summary,
    score: Math.round(score * 1000) / 1000,
    method: operation.method,
    path: operation.path,
    credits: operation.credits.rule,
    charged: operation.credits.charged,
    typicalCreditsPerCall: entry.typicalWorstCase,
    requiredFields: entry.requiredFields,
    category: operation.category,
    ...effectOf(operation),
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
  for (const hit of ranker().rank(query)) {
    const entry = catalog.get(hit.id);
    if (!entry || !passes(entry, filters)) continue;
    results.push(recommendationOf(entry, hit.score));
    if (results.length >= limit) break;
  }
  return results;
}
