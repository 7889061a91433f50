import MiniSearch, { type Query } from 'minisearch';
import { describe, expect, it } from 'vitest';
import { corrected } from '../../../src/mcp/concepts.js';
import { DescriptionIndex, type FieldsQuery } from '../../../src/mcp/description-index.js';
import { blind } from '../../../src/mcp/phrasings/blind.js';
import { phrasings } from '../../../src/mcp/phrasings/generalisation.js';
import { examplePhrasings } from '../../../src/mcp/phrasings/index.js';
import { describedDocuments, descriptionFields, queryOf } from '../../../src/mcp/search.js';

/**
 * DescriptionIndex asks MiniSearch each term's scores once and adds them up at each search; it must score every query
 * exactly as MiniSearch's own query tree does over the same documents and fields. The reference here is a second MiniSearch
 * index, asked the whole query.
 */

function miniSearchHits(
  query: readonly FieldsQuery[],
): Array<{ document: number; score: number; fields: Set<string> }> {
  const miniQuery: Query = {
    combineWith: 'OR',
    queries: query.map((part) => ({
      queries: [...part.terms],
      fields: Object.keys(part.boosts),
      boost: { ...part.boosts },
      fuzzy: part.fuzzy ?? false,
      prefix: false,
      weights: { fuzzy: 0.3, prefix: 0.4 },
      ...(part.termBoost ? { boostTerm: part.termBoost } : {}),
    })),
  };
  return reference
    .search(miniQuery, { tokenize: (text) => [text], processTerm: (term) => term })
    .map((hit) => ({ document: hit.id as number, score: hit.score, fields: new Set(Object.values(hit.match).flat()) }));
}

const reference = new MiniSearch<Record<string, string | number>>({
  fields: [...descriptionFields.names],
  tokenize: (text, field) => descriptionFields.tokensOf(text, field ?? ''),
  processTerm: (term, field) => descriptionFields.termOf(term, field ?? ''),
});
reference.addAll(describedDocuments.map((document, at) => ({ ...document, id: at })));

describe('DescriptionIndex', () => {
  const index = new DescriptionIndex(
    describedDocuments,
    descriptionFields.names,
    descriptionFields.tokensOf,
    descriptionFields.termOf,
  );

  it(
    'scores every operation as MiniSearch would, and names the fields matched, for every labelled phrasing and misspelt ones',
    { timeout: 120_000 },
    () => {
      // Unknown words are matched within one or two edits: misspellings the spelling corrector leaves, and words of no operation.
      const misspelt = [
        'exprot the segmnet to a spreadshet',
        'enrichmnet of a compnay',
        'how many credts are left',
        'kubernetes fintech payroll',
        'maxProspectsToEnrich for audiense 12',
        'delte the blocklst',
        'organisation lookup',
      ];
      const queries = [...phrasings, ...blind, ...examplePhrasings.filter((_, at) => at % 3 === 0)]
        .map((p) => p.query)
        .concat(misspelt);
      let fuzzyQueries = 0;
      let compared = 0;
      for (const asTyped of queries) {
        const { query } = queryOf(corrected(asTyped));
        if (query.some((part) => part.terms.some((term) => part.fuzzy?.(term)))) fuzzyQueries += 1;
        const expected = miniSearchHits(query);
        const hits = index.search(query);
        // The same documents with the same scores, best first; two scores equal but for rounding (MiniSearch sums a document's
        // parts of the query in another order) may come in either order.
        expect(new Set(hits.map((hit) => hit.document)), asTyped).toEqual(new Set(expected.map((hit) => hit.document)));
        const wanted = new Map(expected.map((hit) => [hit.document, hit]));
        hits.forEach((hit, at) => {
          const want = wanted.get(hit.document) as (typeof expected)[number];
          expect(hit.score, `${asTyped}: ${hit.document}`).toBeCloseTo(want.score, 9);
          expect(hit.score, `${asTyped}: ${at}`).toBeCloseTo((expected[at] as (typeof expected)[number]).score, 9);
          expect(
            descriptionFields.names.filter((name) => (hit.matchedFields & index.fieldBit(name)) !== 0),
            `${asTyped}: ${hit.document}`,
          ).toEqual(descriptionFields.names.filter((name) => want.fields.has(name)));
        });
        compared += hits.length;
      }
      expect(compared).toBeGreaterThan(queries.length * 5);
      // The comparison covered the fuzzy path, not only exact terms.
      expect(fuzzyQueries).toBeGreaterThan(100);
    },
  );
});
