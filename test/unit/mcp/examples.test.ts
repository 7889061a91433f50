import MiniSearch, { type Query } from 'minisearch';
import { describe, expect, it } from 'vitest';
import { corrected, readQuery, stem, stopWords, words } from '../../../src/mcp/concepts.js';
import { ExampleIndex } from '../../../src/mcp/examples.js';
import { phrasings } from '../../../src/mcp/phrasings/generalisation.js';
import { examplePhrasings } from '../../../src/mcp/phrasings/index.js';

/** An index of labelled phrasings, each [query, expected operation]. */
const examplesOf = (...labelled: [string, string][]) =>
  new ExampleIndex(labelled.map(([query, expected]) => ({ query, expected, source: 'test' })));

/**
 * ExampleIndex scores examples over plain postings for speed; it must find the nearest examples
 * exactly as MiniSearch itself would over the same two fields. The reference here is MiniSearch.
 */
function miniSearchVotes(): (text: string) => Map<string, number> {
  const index = new MiniSearch<{ id: number; text: string; concepts: string; expected: string }>({
    fields: ['text', 'concepts'],
    storeFields: ['expected'],
    tokenize: (text, field) =>
      field === 'concepts' ? text.split(' ').filter(Boolean) : words(text).filter((word) => !/^[0-9]+$/.test(word)),
    processTerm: (term, field) => (field === 'concepts' ? term : stopWords.has(term) ? null : stem(term)),
  });
  index.addAll(
    examplePhrasings.map((example, id) => {
      const text = corrected(example.query);
      return { id, text, concepts: [...readQuery(text).concepts].join(' '), expected: example.expected };
    }),
  );
  return (text: string) => {
    const concepts = readQuery(text).concepts;
    const queries: Query[] = [{ queries: words(text), fields: ['text'], fuzzy: false, prefix: false }];
    if (concepts.size)
      queries.push({
        queries: [...concepts],
        fields: ['concepts'],
        tokenize: (token: string) => [token],
        processTerm: (token: string) => token,
      } as Query);
    // Examples of equal score are in no particular order in MiniSearch's answer; ExampleIndex keeps the first written of them.
    const hits = index
      .search({ combineWith: 'OR', queries })
      .sort((a, b) => (Math.abs(a.score - b.score) < 1e-9 ? (a.id as number) - (b.id as number) : b.score - a.score))
      .slice(0, 30);
    const byOperation = new Map<string, number[]>();
    for (const hit of hits)
      byOperation.set(hit['expected'] as string, [...(byOperation.get(hit['expected'] as string) ?? []), hit.score]);
    const best = hits[0]?.score ?? 1;
    return new Map([...byOperation].map(([id, [first = 0, second = 0]]) => [id, (first + 0.5 * second) / best]));
  };
}

describe('ExampleIndex', () => {
  // Every example is in both indexes; a sixth of them are also asked, in the order written, so that every set is: asking all
  // of them cost MiniSearch over a minute on two busy cores once there were 5,000, and the comparison is of the scoring, not the data.
  it(
    'gives every operation the vote MiniSearch would, for the generalisation set and every sixth example',
    { timeout: 180_000 },
    () => {
      const reference = miniSearchVotes();
      const examples = new ExampleIndex(examplePhrasings);
      const asked = examplePhrasings.filter((_, at) => at % 6 === 0).map((p) => p.query);
      const queries = [...phrasings.map((p) => p.query), ...asked, 'show saved search 12', 'kinds'];
      let compared = 0;
      for (const query of queries) {
        const text = corrected(query);
        const votes = examples.votes(text, readQuery(text).concepts);
        const expected = reference(text);
        expect(new Set(votes.keys()), query).toEqual(new Set(expected.keys()));
        for (const [operationId, vote] of expected)
          expect(votes.get(operationId), `${query}: ${operationId}`).toBeCloseTo(vote, 9);
        compared += expected.size;
      }
      expect(compared).toBeGreaterThan(queries.length * 3);
    },
  );

  it('leaves numbers out: a thing named by its number is not near an example for sharing the number', () => {
    const examples = examplesOf(
      ['axe saved search 12', 'deleteSavedSearch'],
      ['axe saved search 7', 'updateSavedSearch'],
    );
    // Its concepts name the thing; the number itself weighs nothing, so both examples are equally near.
    const text = corrected('show saved search 12');
    const votes = examples.votes(text, readQuery(text).concepts);
    expect(votes.get('deleteSavedSearch')).toBeGreaterThan(0);
    expect(votes.get('deleteSavedSearch')).toBeCloseTo(votes.get('updateSavedSearch') ?? 0, 9);
    expect(new ExampleIndex([]).votes(text, readQuery(text).concepts).size).toBe(0);
  });
});

/** A query as the ranker hands it to the examples: spelling-corrected, with its concepts. */
const read = (query: string): [string, Set<string>] => {
  const text = corrected(query);
  return [text, readQuery(text).concepts];
};

describe('ExampleIndex.likelihoods', () => {
  const likelihoodsOf = (examples: ExampleIndex, query: string) => examples.likelihoods(...read(query));

  it('gives every operation of the examples a likelihood, and they sum to 1', () => {
    const examples = new ExampleIndex(examplePhrasings);
    const operationsOfExamples = new Set(examplePhrasings.map((example) => example.expected));
    for (const query of ['how many breweries are in Portugal', 'kinds', 'zzzz qqqq']) {
      const likelihoods = likelihoodsOf(examples, query);
      expect(new Set(likelihoods.keys())).toEqual(operationsOfExamples);
      expect([...likelihoods.values()].reduce((sum, likelihood) => sum + likelihood, 0)).toBeCloseTo(1, 9);
      for (const likelihood of likelihoods.values()) expect(likelihood).toBeGreaterThan(0);
    }
    // Words no example has change nothing: two such queries leave every operation as likely as the other does.
    const unknown = likelihoodsOf(examples, 'zzzz qqqq');
    for (const [operationId, likelihood] of likelihoodsOf(examples, 'xxxx wwww'))
      expect(unknown.get(operationId)).toBeCloseTo(likelihood, 12);
    expect(new ExampleIndex([]).likelihoods('tally', new Set()).size).toBe(0);
  });

  it('counts an act the query does not ask for against the operations whose phrasings ask for it', () => {
    const examples = examplesOf(
      ['is the segment build finished', 'getAudienceStatus'],
      ['has the segment build completed', 'getAudienceStatus'],
      ['is my segment build done yet', 'getAudienceStatus'],
      ['segment build status', 'getAudienceStatus'],
      ['run the segment build now', 'buildAudience'],
      ['kick off the segment build', 'buildAudience'],
    );
    // The status's phrasings say "segment build" more often; that the query asks about no progress weighs more (without it,
    // 0.54 against 0.46 for the status).
    const build = likelihoodsOf(examples, 'the segment build');
    expect(build.get('buildAudience')).toBeGreaterThan(build.get('getAudienceStatus') as number);
    const progress = likelihoodsOf(examples, 'is the segment build finished');
    expect(progress.get('getAudienceStatus')).toBeGreaterThan(progress.get('buildAudience') as number);
  });

  it('adds up words that no single example combines, and leaves numbers out', () => {
    const examples = examplesOf(
      ['tally the breweries', 'companyCount'],
      ['tally the wineries', 'companyCount'],
      ['wineries and breweries near Porto', 'companySearch'],
    );
    // "tally" is only ever said for a count: with both words the count wins, though the search's phrasing has more of them.
    const tally = likelihoodsOf(examples, 'tally wineries breweries');
    expect(tally.get('companyCount')).toBeGreaterThan(tally.get('companySearch') as number);
    const near = likelihoodsOf(examples, 'wineries near Porto');
    expect(near.get('companySearch')).toBeGreaterThan(near.get('companyCount') as number);
    const twelve = likelihoodsOf(examples, 'tally 12');
    const seven = likelihoodsOf(examples, 'tally 7');
    expect(twelve.get('companyCount')).toBeCloseTo(seven.get('companyCount') as number, 12);
  });
});

describe('ExampleIndex.probabilities', () => {
  const probabilitiesOf = (examples: ExampleIndex, query: string) => examples.probabilities(...read(query));

  it('gives every operation of the examples a probability, they sum to 1, and every build of the same examples gives the same', () => {
    const examples = new ExampleIndex(examplePhrasings);
    const again = new ExampleIndex(examplePhrasings);
    const operationsOfExamples = new Set(examplePhrasings.map((example) => example.expected));
    for (const query of ['how many breweries are in Portugal', 'is the build of audience 4 done', 'zzzz qqqq']) {
      const probabilities = probabilitiesOf(examples, query);
      expect(new Set(probabilities.keys())).toEqual(operationsOfExamples);
      expect([...probabilities.values()].reduce((sum, probability) => sum + probability, 0)).toBeCloseTo(1, 9);
      for (const probability of probabilities.values()) expect(probability).toBeGreaterThan(0);
      // Trained in a fixed order: the ranking of a query does not change from one start of the service to the next.
      expect(probabilitiesOf(again, query)).toEqual(probabilities);
    }
    expect(probabilitiesOf(examples, 'how many breweries are in Portugal').get('companyCount')).toBeGreaterThan(0.5);
    expect(new ExampleIndex([]).probabilities('tally', new Set()).size).toBe(0);
  });

  it('decides by the word that tells two operations apart, not by the words they share', () => {
    const examples = examplesOf(
      ['remove the saved search', 'deleteSavedSearch'],
      ['remove saved search 3', 'deleteSavedSearch'],
      ['please remove my saved search', 'deleteSavedSearch'],
      ['execute the saved search', 'runSavedSearch'],
      ['execute saved search 3', 'runSavedSearch'],
      ['please execute my saved search', 'runSavedSearch'],
    );
    const execute = probabilitiesOf(examples, 'execute my saved search please');
    expect(execute.get('runSavedSearch')).toBeGreaterThan(0.75);
    const remove = probabilitiesOf(examples, 'remove my saved search please');
    expect(remove.get('deleteSavedSearch')).toBeGreaterThan(0.75);
    // The shared words alone decide less than either word that tells them apart.
    const shared = probabilitiesOf(examples, 'my saved search please');
    const surest = Math.min(execute.get('runSavedSearch') as number, remove.get('deleteSavedSearch') as number);
    expect(Math.max(...shared.values())).toBeLessThan(surest - 0.1);
  });
});
