import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AnyOperation } from '../../../operations/define.js';
import { operations } from '../../../operations/index.js';
import { conceptsOfRequest } from './concepts.js';
import { labelledPhrasings, ownWords, type Example } from './examples.js';
import { modelFile } from './files.js';
import { Regression, type TrainingOptions } from './regression.js';
import { featuresOf } from './words.js';

/**
 * search_endpoints' ranker: one softmax regression over the words, pairs of words (words.ts) and concepts (concepts.ts)
 * of labelled requests (data/ranker/training/*.jsonl) and of the operations' own words (title, summary, description,
 * keywords, operationId). `npm run generate` trains it and writes data/ranker/model.json; the service reads that file on first use.
 * How it was chosen, and its figures: docs/decisions/0002-ranker.md.
 */

/** What the model weighs of a request: its words and pairs of words, and its concepts (`c:`). */
export function featuresOfRequest(text: string): string[] {
  return [...featuresOf(text), ...conceptsOfRequest(text).map((concept) => `c:${concept}`)];
}

/** Chosen by leaving each labelled set out of the examples in turn (docs/decisions/0002-ranker.md). */
export const training: TrainingOptions = {
  epochs: 15,
  rate: 0.03,
  l2: 1e-3,
  negligible: 0.03,
  prune: 0.05,
  seed: 12345,
};

export interface Ranked {
  id: string;
  /** The model's probability that this operation is the one asked for. */
  score: number;
}

export class Ranker {
  constructor(private readonly model: Regression) {}

  /** Every operation, most probable first; nothing when the request has no word or pair of words the model knows. */
  rank(query: string): Ranked[] {
    const features = featuresOfRequest(query);
    if (!this.model.knowsAny(features)) return [];
    const probabilities = this.model.probabilities(features);
    return this.model.labels
      .map((id, at) => ({ id, score: probabilities[at] as number }))
      .sort((a, b) => b.score - a.score);
  }
}

/** A model trained on these examples, whose labels are the registry's operations. */
export function trainModel(examples: readonly Example[], registry: readonly AnyOperation[] = operations): Regression {
  const labels = registry.map((operation) => operation.operationId);
  const index = new Map(labels.map((id, at) => [id, at]));
  const labelled = examples.flatMap((example) => {
    const label = index.get(example.expected);
    return label === undefined ? [] : [{ features: featuresOfRequest(example.query), label }];
  });
  return Regression.train(labelled, labels, training);
}

/** What the service's model is trained on: every labelled phrasing, and the registry's own words. */
export function serviceExamples(): Example[] {
  return [...labelledPhrasings(operations), ...ownWords(operations)];
}

/** A digest of what a model is trained on (the examples and the options), kept in the model file to tell when it is stale. */
export function inputsDigest(examples: readonly Example[] = serviceExamples()): string {
  const hash = createHash('sha256').update(JSON.stringify(training));
  for (const example of examples) hash.update(`\n${example.expected}\t${example.query}`);
  return hash.digest('hex');
}

/** The model file's text for these examples: what `npm run generate` writes. */
export function modelText(examples: readonly Example[] = serviceExamples()): string {
  return trainModel(examples).serialise({
    about: 'search_endpoints ranker, written by `npm run generate` (src/mcp/ranker); do not edit',
    examples: examples.length,
    inputs: inputsDigest(examples),
    training,
  });
}

/** The header of the model file: what it says it was trained on. */
export function modelHeader(): Record<string, unknown> {
  return Regression.parse(readFileSync(modelFile, 'utf8')).header;
}

let shared: Ranker | undefined;

/** The service's ranker, read from the model file on first use. */
export function ranker(): Ranker {
  if (!shared) {
    const { model } = Regression.parse(readFileSync(modelFile, 'utf8'));
    const known = operations.map((operation) => operation.operationId).join(',');
    if (model.labels.join(',') !== known)
      throw new Error(`${modelFile} was trained for other operations than the registry's: run npm run generate`);
    shared = new Ranker(model);
  }
  return shared;
}
