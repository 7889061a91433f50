import { corrected, readQuery, stem, stopWords, words } from './concepts.js';
import type { ExamplePhrasing } from './phrasings/index.js';

/** How many of the nearest examples vote, and what the second of an operation's examples adds to its first. */
const nearest = 30;
const secondVote = 0.5;
/** BM25+ as MiniSearch scores (its defaults), so that an example is as near as the description index would find it. */
const bm25 = { k: 1.2, b: 0.7, d: 0.5 };
/** Naive Bayes: the count given to every feature of every operation (Lidstone smoothing), and how far its log odds are flattened. */
const smoothing = 0.1;
const temperature = 3;

/** One field's postings: for each term, the examples that have it and how often. */
interface Field {
  postings: Map<string, Array<{ example: number; frequency: number }>>;
  /** Distinct tokens of each example in this field, and their mean. */
  lengths: number[];
  averageLength: number;
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

  constructor(examples: readonly ExamplePhrasing[]) {
    this.expected = examples.map((example) => example.expected);
    const texts = examples.map((example) => corrected(example.query));
    const conceptsOfExamples = texts.map((text) => [...readQuery(text).concepts]);
    this.text = fieldOf(texts.map(exampleWords), (token) => (stopWords.has(token) ? null : stem(token)));
    this.concepts = fieldOf(conceptsOfExamples, (token) => token);
    this.model = wordModelOf(texts.map((text, example) => featuresOf(text, conceptsOfExamples[example] as string[])), this.expected);
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
    const features = featuresOf(text, [...concepts]);
    for (const feature of features) {
      const row = logProbabilities.get(feature);
      if (row) for (let operation = 0; operation < operations.length; operation += 1) sums[operation] = (sums[operation] as number) + (row[operation] as number);
    }
    // An act the query does not ask for counts against the operations whose phrasings ask for it: "build the segment" is
    // no question about a build's progress, though the phrasings that ask one say "build" and "segment" as often.
    for (const [act, row] of logAbsent) {
      if (features.has(act)) continue;
      for (let operation = 0; operation < operations.length; operation += 1) sums[operation] = (sums[operation] as number) + (row[operation] as number);
    }
    const highest = Math.max(...sums);
    let total = 0;
    for (let operation = 0; operation < operations.length; operation += 1) {
      sums[operation] = Math.exp(((sums[operation] as number) - highest) / temperature);
      total += sums[operation] as number;
    }
    return new Map(operations.map((operationId, operation) => [operationId, (sums[operation] as number) / total]));
  }

  /** Each operation's vote for a query (already spelling-corrected, with its concepts), from 0 to 1.5. */
  votes(text: string, concepts: ReadonlySet<string>): Map<string, number> {
    const scores = new Float64Array(this.expected.length);
    const termsMatched = new Uint16Array(this.expected.length);
    const queryTerms = exampleWords(text).map((token) => (stopWords.has(token) ? null : stem(token))).filter((term): term is string => term !== null);
    this.score(this.text, queryTerms, scores, termsMatched);
    this.score(this.concepts, [...concepts], scores, termsMatched);

    // The nearest, best first, kept by insertion: sorting every example that shares a word cost more than the rest together.
    const ranked: Array<{ example: number; score: number }> = [];
    scores.forEach((sum, example) => {
      if (sum === 0) return;
      const score = sum * (termsMatched[example] as number);
      if (ranked.length === nearest && score <= (ranked[nearest - 1] as { score: number }).score) return;
      let at = ranked.length;
      while (at > 0 && (ranked[at - 1] as { score: number }).score < score) at -= 1;
      ranked.splice(at, 0, { example, score });
      if (ranked.length > nearest) ranked.pop();
    });
    const nearestScores = new Map<string, number[]>();
    for (const { example, score } of ranked) {
      const operationId = this.expected[example] as string;
      nearestScores.set(operationId, [...(nearestScores.get(operationId) ?? []), score]);
    }
    const best = ranked[0]?.score ?? 1;
    const votes = new Map<string, number>();
    for (const [operationId, [first = 0, second = 0]] of nearestScores) votes.set(operationId, (first + secondVote * second) / best);
    return votes;
  }

  /** Adds each query term's score to the examples that have it (a repeated term counts again, as in MiniSearch), and counts the distinct terms each matched. */
  private score(field: Field, queryTerms: readonly string[], scores: Float64Array, termsMatched: Uint16Array): void {
    const count = this.expected.length;
    const seen = new Set<string>();
    for (const term of queryTerms) {
      const postings = field.postings.get(term);
      if (!postings) continue;
      const inverse = Math.log(1 + (count - postings.length + 0.5) / (postings.length + 0.5));
      for (const { example, frequency } of postings) {
        const length = (field.lengths[example] as number) / field.averageLength;
        scores[example] = (scores[example] as number) + inverse * (bm25.d + (frequency * (bm25.k + 1)) / (frequency + bm25.k * (1 - bm25.b + bm25.b * length)));
        if (!seen.has(term)) termsMatched[example] = (termsMatched[example] as number) + 1;
      }
      seen.add(term);
    }
  }
}

/** The words of a phrasing as the examples compare them: numbers name things, they are no words of an intent. */
function exampleWords(text: string): string[] {
  return words(text).filter((word) => !/^[0-9]+$/.test(word));
}

function fieldOf(tokensOfExamples: string[][], termOf: (token: string) => string | null): Field {
  const postings = new Map<string, Array<{ example: number; frequency: number }>>();
  const lengths = tokensOfExamples.map((tokens, example) => {
    const frequencies = new Map<string, number>();
    for (const token of tokens) {
      const term = termOf(token);
      if (term !== null) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
    }
    for (const [term, frequency] of frequencies) postings.set(term, [...(postings.get(term) ?? []), { example, frequency }]);
    return new Set(tokens).size;
  });
  const averageLength = lengths.reduce((sum, length) => sum + length, 0) / Math.max(lengths.length, 1);
  return { postings, lengths, averageLength };
}

interface WordModel {
  operations: string[];
  /** For each feature any example has, the log of its smoothed frequency among each operation's features. */
  logProbabilities: Map<string, Float64Array>;
  /** For each act (an `a_` concept), the log of how often each operation's phrasings do not ask for it. */
  logAbsent: Map<string, Float64Array>;
}

/** A phrasing's features for the word model: its words (stemmed, without stop words and numbers), each pair of neighbouring words, and its concepts. */
function featuresOf(text: string, concepts: readonly string[]): Set<string> {
  const stems = exampleWords(text).filter((word) => !stopWords.has(word)).map(stem);
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
    if (feature.startsWith('c:a_')) logAbsent.set(feature, row.map((count, operation) => Math.log(1 - (count + 1) / ((documents[operation] as number) + 2))));
  }
  const logProbabilities = new Map<string, Float64Array>();
  for (const [feature, row] of counts) {
    logProbabilities.set(feature, row.map((count, operation) => Math.log((count + smoothing) / ((totals[operation] as number) + smoothing * counts.size))));
  }
  return { operations, logProbabilities, logAbsent };
}
