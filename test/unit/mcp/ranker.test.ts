import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { operations } from '../../../operations/index.js';
import { labelledPhrasings, ownWords, readExamples } from '../../../src/mcp/ranker/examples.js';
import { inputsDigest, modelHeader, ranker, serviceExamples, trainModel } from '../../../src/mcp/ranker/index.js';
import { Regression } from '../../../src/mcp/ranker/regression.js';
import { featuresOf, tokensOf } from '../../../src/mcp/ranker/words.js';
import { evalSets } from '../../eval/sets.js';

/**
 * The ranker as a model: how it reads a request, the files it learns from, that training is deterministic and the
 * committed model is what training gives, and that it answers. How well it ranks is the eval tier's (test/eval).
 */

describe('reading a request', () => {
  it('names literals, numbers and quoted identifiers instead of spelling them out', () => {
    expect(tokensOf('who is jane.doe@acme.com')).toEqual(['who', 'is', '@email']);
    expect(tokensOf('phone of linkedin.com/in/jdoe please')).toEqual(['phone', 'of', '@profile', 'pleas']);
    expect(tokensOf('firmographics for stripe.com')).toEqual(['firmograph', 'for', '@domain']);
    expect(tokensOf('show audience 42')).toEqual(['show', 'audienc', '#']);
    expect(tokensOf('set maxProspectsToEnrich')).toEqual(['set', 'max', 'prospect', 'to', 'enrich']);
    // Apostrophes go, so "don't" is one word, and a negation marks what follows it up to the end of its clause.
    expect(tokensOf("don't export it, just build")).toEqual(['dont', '!export', '!it', '|', 'just', 'build']);
    expect(tokensOf('not the list but the entries')).toEqual(['not', '!the', '!list', 'but', 'the', 'entri']);
  });

  it('weighs each word and each pair of neighbouring words within a clause', () => {
    expect(featuresOf('count companies. in Spain')).toEqual([
      'count',
      'compani',
      'count compani',
      'in',
      'spain',
      'in spain',
    ]);
    // A word said twice is one feature.
    expect(featuresOf('list list')).toEqual(['list', 'list list']);
  });
});

describe('the labelled phrasings', () => {
  const fixtures = fileURLToPath(new URL('fixtures/phrasings/', import.meta.url));
  const known = new Set(operations.map((operation) => operation.operationId));

  it('are read from JSONL, and a bad line stops the load naming its file and line', () => {
    expect(readExamples(path.join(fixtures, 'good.jsonl'), known)).toEqual([
      { query: 'credits left?', expected: 'getCreditBalance', set: 'x1' },
      { query: 'a', expected: 'peopleSearch', set: 'good' },
    ]);
    expect(() => readExamples(path.join(fixtures, 'unknown.jsonl'), known)).toThrow(
      /unknown\.jsonl:2: expected must be an operationId of the registry/,
    );
    expect(() => readExamples(path.join(fixtures, 'broken.jsonl'), known)).toThrow(
      /broken\.jsonl:1: not a JSON object/,
    );
    expect(() => readExamples(path.join(fixtures, 'empty.jsonl'), known)).toThrow(
      /empty\.jsonl:1: query must be a non-empty string/,
    );
  });

  it('cover every operation, in the sets they were written in, and hold no phrasing of an evaluation set', () => {
    const phrasings = labelledPhrasings(operations);
    expect(phrasings.length).toBeGreaterThan(7000);
    const perOperation = new Map<string, number>();
    for (const phrasing of phrasings)
      perOperation.set(phrasing.expected, (perOperation.get(phrasing.expected) ?? 0) + 1);
    for (const operation of operations)
      expect(perOperation.get(operation.operationId) ?? 0, operation.operationId).toBeGreaterThan(50);
    const sets = new Set(phrasings.map((phrasing) => phrasing.set));
    expect(
      [...sets].filter(
        (set) =>
          !/^(first|tuning|p[1-8]|w([1-9]|[1-4][0-9]|5[0-4])|wh([1-9]|1[0-5])|jt1|us[1-4]|wl[1-4]|pq[1-4]|mc[1-4]|mp[1-4]|ls[1-4])$/.test(
            set,
          ),
      ),
    ).toEqual([]);
    // Words only, so that "Credits left?" and "credits left" are one phrasing.
    const wordsOf = (query: string) =>
      query
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, ' ')
        .trim();
    const learnt = new Set(phrasings.map((phrasing) => wordsOf(phrasing.query)));
    for (const { name, phrasings: scored } of evalSets())
      expect(
        scored.filter((phrasing) => learnt.has(wordsOf(phrasing.query))).map((p) => p.query),
        name,
      ).toEqual([]);
  });

  it('are joined by the operations’ own words, one example per title, summary, sentence and keyword', () => {
    const own = ownWords(operations);
    const balance = own.filter((example) => example.expected === 'getCreditBalance').map((example) => example.query);
    const operation = operations.find((candidate) => candidate.operationId === 'getCreditBalance');
    expect(balance).toEqual(
      expect.arrayContaining([operation?.title, operation?.summary, ...(operation?.keywords ?? [])]),
    );
    expect(balance).toContain('get Credit Balance');
  });
});

describe('the model', () => {
  const small = serviceExamples().filter((_, at) => at % 40 === 0);

  it('is trained to the same weights from the same examples, and to others from other examples', () => {
    const first = trainModel(small).serialise({});
    expect(trainModel(small).serialise({})).toBe(first);
    expect(trainModel(small.slice(1)).serialise({})).not.toBe(first);
    // What is written reads back to the same model.
    expect(Regression.parse(first).model.serialise({})).toBe(first);
  });

  // `npm run check` trains it again and compares every byte; this only compares what it was trained on.
  it('is committed trained on the phrasings and the registry as they are: else run `npm run generate`', () => {
    expect(modelHeader().inputs, 'data/ranker/model.json is stale: run npm run generate').toBe(inputsDigest());
  });

  it('ranks a request it knows the words of, most probable first, and nothing for words it has never seen', () => {
    const ranked = ranker().rank('how many credits do we have left');
    expect(ranked[0]?.id).toBe('getCreditBalance');
    expect(ranked).toHaveLength(operations.length);
    expect(ranked.reduce((sum, hit) => sum + hit.score, 0)).toBeCloseTo(1, 6);
    for (let at = 1; at < ranked.length; at += 1)
      expect(ranked[at]?.score).toBeLessThanOrEqual(ranked[at - 1]?.score ?? 1);
    expect(ranker().rank('zzzz qqqq')).toEqual([]);
  });
});

describe('what loads the ranker', () => {
  /** The modules a module imports (not only types), followed through the repository's files. */
  const reachable = (start: string): Set<string> => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = readFileSync(file, 'utf8');
      for (const [, specifier] of source.matchAll(/^import (?!type )[^;]*?from '(\.[^']+)';/gms)) {
        const target = path.resolve(path.dirname(file), (specifier as string).replace(/\.js$/, '.ts'));
        if (existsSync(target)) visit(target);
      }
    };
    visit(path.resolve(start));
    return seen;
  };

  it('is search_endpoints, and not the gateway’s error messages', () => {
    const ranker = (files: Set<string>) => [...files].filter((file) => file.includes(`${path.sep}ranker${path.sep}`));
    expect(ranker(reachable('src/mcp/messages.ts'))).toEqual([]);
    expect(ranker(reachable('src/mcp/search.ts')).length).toBeGreaterThan(0);
  });
});
