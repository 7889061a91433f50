import { corrected, readQuery, stem, stopWords, words, wordsOutsideAudienceNames } from './concepts.js';
import type { ExamplePhrasing } from './phrasings/index.js';

/** How many of the nearest examples vote, and what the second of an operation's examples adds to its first. */
const nearest = 30;
const secondVote = 0.5;
/** BM25+ as MiniSearch scores (its defaults), so that an example is as near as the description index would find it. */
const bm25 = { k: 1.2, b: 0.7, d: 0.5 };
/**
 * Naive Bayes: the count given to every feature of every operation (Lidstone smoothing), and how far its log odds are flattened.
 * A pair of words is seen in far fewer phrasings than either word, so its absence from an operation's phrasings says less: it
 * is smoothed more ("build the segment" met "segment build" in two progress questions and no request to build).
 * Chosen with every labelled set left out in turn: of 2,784 phrasings, 0.1 for all, 88.7 % top-1; 0.03, 89.3 %; 0.03 and 0.3
 * for pairs, 89.4 %; 97.6 % top-3 in each. Of 5,844, with more phrasings to learn pairs from: pairs at 0.3, 88.7 %; 0.15,
 * 88.9 %; 0.1, 89.0 %; 0.05, 88.9 %; 97.3 to 97.4 % top-3.
 */
const smoothing = 0.03;
const pairSmoothing = 0.1;
const temperature = 3;

/**
 * One field's postings: for each term, the examples that have it, each with the part of its BM25+ score that depends on the
 * example alone (its frequency of the term and its length), computed once; a query multiplies it by the term's rarity.
 */
interface Field {
  postings: Map<string, { examples: Uint32Array; weights: Float64Array; inverse: number }>;
}
/**
 * The labelled phrasings of src/mcp/phrasings, compared with a query: a query is matched against
 * how people have asked for each operation, not only against how its authors described it. Words a
 * description never uses ("tally", "materialised") reach their operation through a phrasing that
 * used them. Each operation's vote is its nearest example's score plus half its second's, relative
 * to the nearest example of all, so a vote is at most 1.5.
 *
 * Nearness is MiniSearch's own scoring (BM25+ per field, summed, times the number of query terms
 * matched) over two fields, the words and the concepts (concepts.ts) of each phrasing, computed
 * here over plain postings: through a second MiniSearch index the same answer cost 0.4 to 0.5 ms
 * of CPU a query (it builds match details for every one of some 900 examples), a third of the
 * budget of search_endpoints; this costs a few hundredths. A test compares both on every phrasing.
 *
 * Numbers are left out of the words: "audience 7" and "saved search 12" name a thing (a concept
 * of its own), and an example that shared only the number pulled its act along ("axe saved search
 * 12" made "show saved search 12" a deletion). Penalising examples that ask for another act than
 * the query was tried and lost more than it gained (BENCHMARKS.md).
 *
 * Measured with each probe set left out of the examples in turn (BENCHMARKS.md): top-1 80.2 % →
 * 85.9 %, top-3 94.2 % → 97.2 % over the 653 probes.
 */
export class ExampleIndex {
  private readonly expected: string[];
  private readonly text: Field;
  private readonly concepts: Field;
  private readonly model: WordModel;
  private readonly classifier: Classifier;
  /** Per-query scratch, reused: each example's score and count of distinct terms matched, and the examples touched. */
  private readonly scores: Float64Array;
  private readonly termsMatched: Uint16Array;
  private readonly touched: Uint32Array;
  private touchedCount = 0;
  private lastQuery: { text: string; concepts: ReadonlySet<string>; features: Set<string> } | undefined;

  constructor(examples: readonly ExamplePhrasing[]) {
    this.expected = examples.map((example) => example.expected);
    this.scores = new Float64Array(examples.length);
    this.termsMatched = new Uint16Array(examples.length);
    this.touched = new Uint32Array(examples.length);
    const read = examples.map((example) => readExample(example.query));
    this.text = fieldOf(
      read.map((example) => example.words),
      (token) => (stopWords.has(token) ? null : stem(token)),
    );
    this.concepts = fieldOf(
      read.map((example) => example.concepts),
      (token) => token,
    );
    this.model = wordModelOf(
      read.map((example) => example.features),
      this.expected,
    );
    this.classifier = classifierOf(
      read.map((example) => example.features),
      this.expected,
    );
  }

  /**
   * How likely each operation is to be meant, from 0 to 1 (they sum to 1), by a softmax regression over the word model's
   * features. Naive Bayes counts every word of a phrasing as evidence on its own, so the words two neighbours share ("run",
   * "saved search", "status") are counted once for each and outvote the one word that tells them apart; the regression is
   * trained to tell the examples' operations apart, and weighs a word by how far it does. Beside the word model, not
   * instead of it (BENCHMARKS.md).
   */
  probabilities(text: string, concepts: ReadonlySet<string>): Map<string, number> {
    const { operations, weights, bias } = this.classifier;
    const logits = Float64Array.from(bias);
    for (const feature of this.featuresOfQuery(text, concepts)) {
      const row = weights.get(feature);
      if (row)
        for (let operation = 0; operation < operations.length; operation += 1)
          logits[operation] = (logits[operation] as number) + (row[operation] as number);
    }
    softmaxInPlace(logits);
    return new Map(operations.map((operationId, operation) => [operationId, logits[operation] as number]));
  }

  /**
   * How likely each operation is to be meant, from 0 to 1 (they sum to 1), by a naive Bayes model of the examples' words, word
   * pairs and concepts, and of the acts they do not ask for. The nearest examples (votes) know a query only through the few
   * phrasings most like it; this weighs every word by how often each operation's phrasings use it, so that words no single
   * example combines still add up.
   */
  likelihoods(text: string, concepts: ReadonlySet<string>): Map<string, number> {
    const { operations, logProbabilities, logAbsent } = this.model;
    const sums = new Float64Array(operations.length);
    const features = this.featuresOfQuery(text, concepts);
    // An act the query does not ask for counts against the operations whose phrasings ask for it: "build the segment" is
    // no question about a build's progress, though the phrasings that ask one say "build" and "segment" as often. Summed once
    // over every act (allAbsent), less the acts the query asks for.
    sums.set(this.model.allAbsent);
    for (const feature of features) {
      const absent = logAbsent.get(feature);
      if (absent)
        for (let operation = 0; operation < operations.length; operation += 1)
          sums[operation] = (sums[operation] as number) - (absent[operation] as number);
      const row = logProbabilities.get(feature);
      if (row)
        for (let operation = 0; operation < operations.length; operation += 1)
          sums[operation] = (sums[operation] as number) + (row[operation] as number);
    }
    softmaxInPlace(sums, temperature);
    return new Map(operations.map((operationId, operation) => [operationId, sums[operation] as number]));
  }

  /** A query's features, kept for the next call: a search asks both models about the same query, one after the other. */
  private featuresOfQuery(text: string, concepts: ReadonlySet<string>): Set<string> {
    if (this.lastQuery?.text !== text || this.lastQuery.concepts !== concepts)
      this.lastQuery = { text, concepts, features: featuresOf(text, [...concepts]) };
    return this.lastQuery.features;
  }

  /** Each operation's vote for a query (already spelling-corrected, with its concepts), from 0 to 1.5. */
  votes(text: string, concepts: ReadonlySet<string>): Map<string, number> {
    // Only the examples that share a term with the query are visited: scoring, then clearing, all of them cost more than the rest.
    const { scores, termsMatched, touched } = this;
    this.touchedCount = 0;
    const queryTerms = exampleWords(text)
      .map((token) => (stopWords.has(token) ? null : stem(token)))
      .filter((term): term is string => term !== null);
    this.score(this.text, queryTerms);
    this.score(this.concepts, [...concepts]);

    // The nearest, best first, kept by insertion: sorting every example that shares a word cost more than the rest together.
    const ranked: Ranked[] = [];
    // The score an example must beat (or equal, if written earlier) once `nearest` are kept.
    let threshold = -1;
    for (let next = 0; next < this.touchedCount; next += 1) {
      const example = touched[next] as number;
      const score = (scores[example] as number) * (termsMatched[example] as number);
      scores[example] = 0;
      termsMatched[example] = 0;
      if (score < threshold) continue;
      // Of equal scores the example written first comes first, as MiniSearch's order has them.
      if (ranked.length === nearest && !ranksAbove(score, example, ranked[nearest - 1] as Ranked)) continue;
      let at = ranked.length;
      while (at > 0 && ranksAbove(score, example, ranked[at - 1] as Ranked)) at -= 1;
      ranked.splice(at, 0, { example, score });
      if (ranked.length > nearest) ranked.pop();
      if (ranked.length === nearest) threshold = (ranked[nearest - 1] as Ranked).score;
    }
    const nearestScores = new Map<string, number[]>();
    for (const { example, score } of ranked) {
      const operationId = this.expected[example] as string;
      nearestScores.set(operationId, [...(nearestScores.get(operationId) ?? []), score]);
    }
    const best = ranked[0]?.score ?? 1;
    const votes = new Map<string, number>();
    for (const [operationId, [first = 0, second = 0]] of nearestScores)
      votes.set(operationId, (first + secondVote * second) / best);
    return votes;
  }

  /** Adds each query term's score to the examples that have it (a repeated term counts again, as in MiniSearch), and counts the distinct terms each matched. */
  private score(field: Field, queryTerms: readonly string[]): void {
    const { scores, termsMatched, touched } = this;
    const seen = new Set<string>();
    for (const term of queryTerms) {
      const postings = field.postings.get(term);
      if (!postings) continue;
      const first = !seen.has(term);
      seen.add(term);
      const { examples, weights, inverse } = postings;
      for (let at = 0; at < examples.length; at += 1) {
        const example = examples[at] as number;
        if (termsMatched[example] === 0 && scores[example] === 0) touched[this.touchedCount++] = example;
        scores[example] = (scores[example] as number) + inverse * (weights[at] as number);
        if (first) termsMatched[example] = (termsMatched[example] as number) + 1;
      }
    }
  }
}

interface ReadExample {
  words: string[];
  concepts: string[];
  features: Set<string>;
}

/**
 * Each phrasing read once per process: the measurements build an index for every labelled set left out in turn (some fifty
 * of five thousand examples each), and reading a phrasing (spelling, clauses, concepts) is most of what a build costs.
 */
const readExamples = new Map<string, ReadExample>();

function readExample(query: string): ReadExample {
  let read = readExamples.get(query);
  if (!read) {
    const text = corrected(query);
    const concepts = [...readQuery(text).concepts];
    read = { words: exampleWords(text), concepts, features: featuresOf(text, concepts) };
    readExamples.set(query, read);
  }
  return read;
}

interface Ranked {
  example: number;
  score: number;
}

function ranksAbove(score: number, example: number, other: Ranked): boolean {
  return score > other.score || (score === other.score && example < other.example);
}

/** Numbers name things ("audience 7"), they are no words of an intent. */
const isNumber = (word: string): boolean => /^[0-9]+$/.test(word);

/** The words of a phrasing as the examples compare them. */
function exampleWords(text: string): string[] {
  return words(text).filter((word) => !isNumber(word));
}

function fieldOf(tokensOfExamples: string[][], termOf: (token: string) => string | null): Field {
  const raw = new Map<string, Array<{ example: number; frequency: number }>>();
  const lengths = tokensOfExamples.map((tokens, example) => {
    const frequencies = new Map<string, number>();
    for (const token of tokens) {
      const term = termOf(token);
      if (term !== null) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
    }
    for (const [term, frequency] of frequencies) {
      let list = raw.get(term);
      if (!list) raw.set(term, (list = []));
      list.push({ example, frequency });
    }
    return new Set(tokens).size;
  });
  const averageLength = lengths.reduce((sum, length) => sum + length, 0) / Math.max(lengths.length, 1);
  const count = tokensOfExamples.length;
  const postings: Field['postings'] = new Map();
  for (const [term, list] of raw) {
    const weights = list.map(({ example, frequency }) => {
      const length = (lengths[example] as number) / averageLength;
      return bm25.d + (frequency * (bm25.k + 1)) / (frequency + bm25.k * (1 - bm25.b + bm25.b * length));
    });
    postings.set(term, {
      examples: Uint32Array.from(list.map((posting) => posting.example)),
      weights: Float64Array.from(weights),
      inverse: Math.log(1 + (count - list.length + 0.5) / (list.length + 0.5)),
    });
  }
  return { postings };
}

interface WordModel {
  operations: string[];
  /** For each feature any example has, the log of its smoothed frequency among each operation's features. */
  logProbabilities: Map<string, Float64Array>;
  /** For each act (an `a_` concept), the log of how often each operation's phrasings do not ask for it. */
  logAbsent: Map<string, Float64Array>;
  /** logAbsent summed over every act: what a query that asks for none of them adds. */
  allAbsent: Float64Array;
}

/**
 * A phrasing's features for the word model: its words (stemmed, without stop words and numbers; an audience's name of several
 * words, "my list", is its concept and not its words), each pair of neighbouring words, and its concepts.
 */
function featuresOf(text: string, concepts: readonly string[]): Set<string> {
  const stems = wordsOutsideAudienceNames(text)
    .filter((word) => !isNumber(word) && !stopWords.has(word))
    .map(stem);
  const features = new Set(stems.map((word) => `w:${word}`));
  for (let at = 1; at < stems.length; at += 1) features.add(`p:${stems[at - 1]} ${stems[at]}`);
  for (const concept of concepts) features.add(`c:${concept}`);
  return features;
}

function wordModelOf(featuresOfExamples: Set<string>[], expected: string[]): WordModel {
  const operations = [...new Set(expected)];
  const operationIndex = new Map(operations.map((operationId, at) => [operationId, at]));
  const counts = new Map<string, Float64Array>();
  const totals = new Float64Array(operations.length);
  const documents = new Float64Array(operations.length);
  featuresOfExamples.forEach((features, example) => {
    const operation = operationIndex.get(expected[example] as string) as number;
    documents[operation] = (documents[operation] as number) + 1;
    for (const feature of features) {
      let row = counts.get(feature);
      if (!row) counts.set(feature, (row = new Float64Array(operations.length)));
      row[operation] = (row[operation] as number) + 1;
      totals[operation] = (totals[operation] as number) + 1;
    }
  });
  const logAbsent = new Map<string, Float64Array>();
  for (const [feature, row] of counts) {
    // Laplace's rule: an act none of an operation's phrasings asks for is still not ruled out for it.
    if (feature.startsWith('c:a_'))
      logAbsent.set(
        feature,
        row.map((count, operation) => Math.log(1 - (count + 1) / ((documents[operation] as number) + 2))),
      );
  }
  // log((count + k) / (total + k·V)), with the denominators' logs taken once: most counts are 0 (a feature of a few operations).
  const smoothedBy = (k: number) => ({
    k,
    unseen: Math.log(k),
    denominators: Float64Array.from(totals, (total) => Math.log(total + k * counts.size)),
  });
  const words = smoothedBy(smoothing);
  const pairs = smoothedBy(pairSmoothing);
  const logProbabilities = new Map<string, Float64Array>();
  for (const [feature, row] of counts) {
    const { k, unseen, denominators } = feature.startsWith('p:') ? pairs : words;
    const logs = new Float64Array(row.length);
    for (let operation = 0; operation < row.length; operation += 1) {
      const count = row[operation] as number;
      logs[operation] = (count === 0 ? unseen : Math.log(count + k)) - (denominators[operation] as number);
    }
    logProbabilities.set(feature, logs);
  }
  const allAbsent = new Float64Array(operations.length);
  for (const row of logAbsent.values())
    for (let operation = 0; operation < operations.length; operation += 1)
      allAbsent[operation] = (allAbsent[operation] as number) + (row[operation] as number);
  return { operations, logProbabilities, logAbsent, allAbsent };
}

interface Classifier {
  operations: string[];
  /** Each feature's weight for each operation. */
  weights: Map<string, Float64Array>;
  bias: Float64Array;
}

/** Log-scores to probabilities, in place; a temperature above 1 flattens them. */
function softmaxInPlace(logits: Float64Array, temperature = 1): void {
  let highest = -Infinity;
  for (const logit of logits) if (logit > highest) highest = logit;
  let total = 0;
  for (let at = 0; at < logits.length; at += 1) {
    logits[at] = Math.exp(((logits[at] as number) - highest) / temperature);
    total += logits[at] as number;
  }
  for (let at = 0; at < logits.length; at += 1) logits[at] = (logits[at] as number) / total;
}

/**
 * The regression's training: passes over the examples, AdaGrad's base step, and the L2 penalty that keeps a word seen in one
 * or two phrasings from deciding alone. Chosen with every labelled set left out in turn (7,068 phrasings): steps of 0.5, 0.2,
 * 0.1 and 0.05 gave 90.5, 90.9, 91.0 and 90.9 % top-1; penalties of 1e-5 to 1e-2 were within a phrasing in 300; 6, 12 and
 * 20 passes the same (4 passes, or no step for an operation within 1e-2, 91.1 %), so 6 (a build of some 7,000 examples trains in a fraction of a second).
 */
const training = { epochs: 6, rate: 0.1, l2: 1e-3 };
/** An operation whose probability is already this near its target (0, or 1 for the label) takes no step: most of them, after a pass. */
const negligibleGradient = 1e-3;

/**
 * Softmax regression over binary features, trained by stochastic gradient descent with AdaGrad's steps, in an order shuffled
 * by a fixed seed so that every build of the same examples gives the same model. Features are rows of one table, so a step
 * touches a phrasing's twenty-odd rows and nothing else.
 */
function classifierOf(featuresOfExamples: Set<string>[], expected: string[]): Classifier {
  const operations = [...new Set(expected)];
  const operationIndex = new Map(operations.map((operationId, at) => [operationId, at]));
  const count = operations.length;
  const featureIndex = new Map<string, number>();
  const examples = featuresOfExamples.map((features, example) => {
    const offsets = new Int32Array(features.size);
    let at = 0;
    for (const feature of features) {
      let index = featureIndex.get(feature);
      if (index === undefined) featureIndex.set(feature, (index = featureIndex.size));
      offsets[at++] = index * count;
    }
    return { offsets, label: operationIndex.get(expected[example] as string) as number };
  });
  const table = new Float64Array(featureIndex.size * count);
  const squares = new Float64Array(featureIndex.size * count).fill(1e-8);
  const bias = new Float64Array(count);
  const biasSquares = new Float64Array(count).fill(1e-8);
  const order = examples.map((_, at) => at);
  let seed = 12345;
  const random = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const { epochs, rate, l2 } = training;
  const logits = new Float64Array(count);
  for (let epoch = 0; epoch < epochs; epoch += 1) {
    for (let at = order.length - 1; at > 0; at -= 1) {
      const other = Math.floor(random() * (at + 1));
      [order[at], order[other]] = [order[other] as number, order[at] as number];
    }
    for (const at of order) {
      const { offsets, label } = examples[at] as (typeof examples)[number];
      logits.set(bias);
      for (const offset of offsets)
        for (let operation = 0; operation < count; operation += 1)
          logits[operation] = (logits[operation] as number) + (table[offset + operation] as number);
      softmaxInPlace(logits);
      for (let operation = 0; operation < count; operation += 1) {
        const gradient = (logits[operation] as number) - (operation === label ? 1 : 0);
        if (gradient < negligibleGradient && gradient > -negligibleGradient) continue;
        biasSquares[operation] = (biasSquares[operation] as number) + gradient * gradient;
        bias[operation] = (bias[operation] as number) - (rate * gradient) / Math.sqrt(biasSquares[operation] as number);
        for (const offset of offsets) {
          const cell = offset + operation;
          const penalised = gradient + l2 * (table[cell] as number);
          squares[cell] = (squares[cell] as number) + penalised * penalised;
          table[cell] = (table[cell] as number) - (rate * penalised) / Math.sqrt(squares[cell] as number);
        }
      }
    }
  }
  const weights = new Map<string, Float64Array>();
  for (const [feature, index] of featureIndex) weights.set(feature, table.subarray(index * count, (index + 1) * count));
  return { operations, weights, bias };
}
