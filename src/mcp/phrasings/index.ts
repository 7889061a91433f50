import { intents } from './first-set.js';
import { heldOut, tuning } from './split.js';
import { probes } from './probes.js';
import { written } from './written.js';

/** A phrasing the ranker may learn from, with the set it comes from (so that a set can be scored without itself). */
export interface ExamplePhrasing {
  query: string;
  expected: string;
  source: string;
}

const heldOutQueries = new Set(heldOut.map((phrasing) => phrasing.query));

/**
 * How people and agents have asked for each operation, labelled: the first set, the tuning half of
 * the generalisation set, the eight probe sets and the written groups. Never a held-out phrasing, not even one that
 * another set happens to repeat word for word: those are only ever scored.
 */
export const examplePhrasings: readonly ExamplePhrasing[] = [
  ...intents.map((p) => ({ query: p.query, expected: p.expected, source: 'first' })),
  ...tuning.map((p) => ({ query: p.query, expected: p.expected, source: 'tuning' })),
  ...probes.map((p) => ({ query: p.query, expected: p.expected, source: p.set })),
  ...written.map((p) => ({ query: p.query, expected: p.expected, source: p.set })),
].filter((phrasing) => !heldOutQueries.has(phrasing.query));
