import { readdirSync } from 'node:fs';
import path from 'node:path';
import { operations } from '../../operations/index.js';
import type { Example } from '../../src/mcp/ranker/examples.js';
import { readExamples } from '../../src/mcp/ranker/examples.js';
import { rankerDataDir } from '../../src/mcp/ranker/files.js';
import { Ranker, serviceExamples, trainModel } from '../../src/mcp/ranker/index.js';

/** The evaluation sets (data/ranker/evaluation/*.jsonl): only ever scored, never learnt from, never shipped. */
export const evalDir = path.join(rankerDataDir, 'evaluation');

export function evalSets(dir = evalDir): { name: string; phrasings: Example[] }[] {
  const known = new Set(operations.map((operation) => operation.operationId));
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .map((name) => ({ name: path.basename(name, '.jsonl'), phrasings: readExamples(path.join(dir, name), known) }));
}

/** Top-1 and top-3 accuracy of a ranking over a set of phrasings, with the misses named. */
export interface Score {
  count: number;
  top1: number;
  top3: number;
  misses: string[];
}

export function score(
  set: readonly { query: string; expected: string }[],
  rank: (query: string) => readonly string[],
): Score {
  const result: Score = { count: set.length, top1: 0, top3: 0, misses: [] };
  for (const { query, expected } of set) {
    const ranked = rank(query).slice(0, 3);
    if (ranked[0] === expected) result.top1 += 1;
    else result.misses.push(`"${query}" → ${ranked.join(', ') || '(nothing)'} (wanted ${expected})`);
    if (ranked.includes(expected)) result.top3 += 1;
  }
  return result;
}

export const rate = (score: Score, top: 'top1' | 'top3') => score[top] / score.count;
export const figures = (score: Score) =>
  `top-1 ${(rate(score, 'top1') * 100).toFixed(1)} %, top-3 ${(rate(score, 'top3') * 100).toFixed(1)} % (n=${score.count})`;

const idsOf = (ranker: Ranker) => (query: string) => ranker.rank(query).map((hit) => hit.id);

/**
 * Every labelled set of the examples left out in turn: a model trained without it (and with the registry's own words,
 * which are no set) scores it. Some sixty trainings of about a second each.
 */
export function crossValidate(examples: readonly Example[] = serviceExamples()): {
  total: Score;
  bySet: Map<string, Score>;
} {
  const sets = [...new Set(examples.map((example) => example.set))].filter((set) => set !== 'registry');
  const bySet = new Map<string, Score>();
  for (const set of sets) {
    const ranker = new Ranker(trainModel(examples.filter((example) => example.set !== set)));
    bySet.set(
      set,
      score(
        examples.filter((example) => example.set === set),
        idsOf(ranker),
      ),
    );
  }
  const total: Score = { count: 0, top1: 0, top3: 0, misses: [] };
  for (const each of bySet.values()) {
    total.count += each.count;
    total.top1 += each.top1;
    total.top3 += each.top3;
    total.misses.push(...each.misses);
  }
  return { total, bySet };
}

/** The service's model on a set. */
export function scoreWithService(set: readonly Example[], ranker: Ranker): Score {
  return score(set, idsOf(ranker));
}
