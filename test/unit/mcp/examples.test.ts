import MiniSearch, { type Query } from 'minisearch';
import { describe, expect, it } from 'vitest';
import { corrected, readQuery, stem, stopWords, words } from '../../../src/mcp/concepts.js';
import { ExampleIndex } from '../../../src/mcp/examples.js';
import { phrasings } from '../../../src/mcp/phrasings/generalisation.js';
import { examplePhrasings } from '../../../src/mcp/phrasings/index.js';

/**
 * ExampleIndex scores examples over plain postings for speed; it must find the nearest examples
 * exactly as MiniSearch itself would over the same two fields. The reference here is MiniSearch.
 */
function miniSearchVotes(): (text: string) => Map<string, number> {
  const index = new MiniSearch<{ id: number; text: string; concepts: string; expected: string }>({
    fields: ['text', 'concepts'],
    storeFields: ['expected'],
    tokenize: (text, field) => (field === 'concepts' ? text.split(' ').filter(Boolean) : words(text).filter((word) => !/^[0-9]+$/.test(word))),
    processTerm: (term, field) => (field === 'concepts' ? term : stopWords.has(term) ? null : stem(term)),
  });
  index.addAll(examplePhrasings.map((example, id) => {
    const text = corrected(example.query);
    return { id, text, concepts: [...readQuery(text).concepts].join(' '), expected: example.expected };
  }));
  return (text: string) => {
    const concepts = readQuery(text).concepts;
    const queries: Query[] = [{ queries: words(text), fields: ['text'], fuzzy: false, prefix: false }];
    if (concepts.size) queries.push({ queries: [...concepts], fields: ['concepts'], tokenize: (token: string) => [token], processTerm: (token: string) => token } as Query);
    const hits = index.search({ combineWith: 'OR', queries }).slice(0, 30);
    const byOperation = new Map<string, number[]>();
    for (const hit of hits) byOperation.set(hit['expected'] as string, [...(byOperation.get(hit['expected'] as string) ?? []), hit.score]);
    const best = hits[0]?.score ?? 1;
    return new Map([...byOperation].map(([id, [first = 0, second = 0]]) => [id, (first + 0.5 * second) / best]));
  };
}

describe('ExampleIndex', () => {
  it('gives every operation the vote MiniSearch would, for every phrasing and every example', () => {
    const reference = miniSearchVotes();
    const examples = new ExampleIndex(examplePhrasings);
    const queries = [...phrasings.map((p) => p.query), ...examplePhrasings.map((p) => p.query), 'show saved search 12', 'kinds'];
    let compared = 0;
    for (const query of queries) {
      const text = corrected(query);
      const votes = examples.votes(text, readQuery(text).concepts);
      const expected = reference(text);
      expect(new Set(votes.keys()), query).toEqual(new Set(expected.keys()));
      for (const [operationId, vote] of expected) expect(votes.get(operationId), `${query}: ${operationId}`).toBeCloseTo(vote, 9);
      compared += expected.size;
    }
    expect(compared).toBeGreaterThan(queries.length * 3);
  });

  it('leaves numbers out: a thing named by its number is not near an example for sharing the number', () => {
    const examples = new ExampleIndex([
      { query: 'axe saved search 12', expected: 'deleteSavedSearch', source: 'test' },
      { query: 'axe saved search 7', expected: 'updateSavedSearch', source: 'test' },
    ]);
    // Its concepts name the thing; the number itself weighs nothing, so both examples are equally near.
    const text = corrected('show saved search 12');
    const votes = examples.votes(text, readQuery(text).concepts);
    expect(votes.get('deleteSavedSearch')).toBeGreaterThan(0);
    expect(votes.get('deleteSavedSearch')).toBeCloseTo(votes.get('updateSavedSearch') ?? 0, 9);
    expect(new ExampleIndex([]).votes(text, readQuery(text).concepts).size).toBe(0);
  });
});
