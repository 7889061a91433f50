import MiniSearch from 'minisearch';

/**
 * The operations' own words (title, summary, description, ...), searched with MiniSearch. MiniSearch indexes them and scores
 * every term of every field (BM25+); a search then adds up those scores as MiniSearch's own OR query does: times each field's
 * boost, each term's boost and, for a term matched only within an edit distance, MiniSearch's fuzzy weight; summed over the
 * query's terms and times the number of its distinct terms a document matched. Asking MiniSearch the whole query tree at each
 * search (query planning, result maps and match details for some fifty documents) was 40 % of the CPU of a search, and over
 * issue 13's 1 ms on a slow host (BENCHMARKS.md); its answers per term are fixed once the index is built, so they are asked
 * once. A test compares every search with MiniSearch's whole query on every labelled phrasing.
 */

/** One part of a query: terms as indexed (stemmed words, or whole tokens), searched in the fields boosted. */
export interface FieldsQuery {
  terms: readonly string[];
  /** The fields searched, each with its boost. */
  boosts: Readonly<Record<string, number>>;
  /** The greatest edit distance at which a term also matches other terms of the index, or false for exact matches only. */
  fuzzy?: (term: string) => number | false;
  termBoost?: (term: string) => number;
}

export interface DescriptionHit {
  document: number;
  score: number;
  /** The fields it matched in, one bit each in the order the index was given them (`fieldBit`). */
  matchedFields: number;
}

/** MiniSearch's weight of a fuzzy match (its `weights.fuzzy`, as the search asked for it): a term's own spelling counts 1. */
const fuzzyWeight = 0.3;

/** For each term of a field, the documents that have it and MiniSearch's score of the term for each. */
type TermScores = Map<string, { documents: Uint32Array; scores: Float64Array }>;

export class DescriptionIndex {
  private readonly fields = new Map<string, { bit: number; postings: TermScores }>();
  /** Every term of the index, by length, each with the fields it is in (one bit each) and its letters, for fuzzy matching. */
  private readonly termsByLength: Array<Array<{ term: string; fields: number; letters: number }>> = [];
  private readonly scores: Float64Array;
  private readonly termsMatched: Uint16Array;
  private readonly matchedFields: Uint32Array;
  private readonly touched: number[] = [];

  /**
   * `tokensOf(text, field)` splits a field into tokens and `termOf(token, field)` makes a token a term (null for a stop word):
   * MiniSearch's `tokenize` and `processTerm`. Each document's `id` is its place in `documents`' order for the hits.
   */
  constructor(
    documents: readonly Readonly<Record<string, string>>[],
    fieldNames: readonly string[],
    tokensOf: (text: string, field: string) => string[],
    termOf: (token: string, field: string) => string | null,
  ) {
    const engine = new MiniSearch<Record<string, string | number>>({
      fields: [...fieldNames],
      tokenize: (text, field) => tokensOf(text, field ?? ''),
      processTerm: (token, field) => termOf(token, field ?? ''),
    });
    engine.addAll(documents.map((document, at) => ({ ...document, id: at })));
    const asked = {
      tokenize: (term: string) => [term],
      processTerm: (term: string) => term,
      fuzzy: false,
      prefix: false,
    } as const;
    const all = new Map<string, number>();
    fieldNames.forEach((name, bit) => {
      const terms = new Set(
        documents.flatMap((document) =>
          tokensOf(document[name] ?? '', name)
            .map((token) => termOf(token, name))
            .filter((term): term is string => term !== null),
        ),
      );
      const postings: TermScores = new Map();
      for (const term of terms) {
        // One term in one field, boost 1: MiniSearch's score is that term's BM25+ for each document that has it.
        // In the documents' order, as MiniSearch visits them when it combines terms: of equal scores, the first matched stays first.
        const hits = engine
          .search(term, { ...asked, fields: [name], boost: { [name]: 1 } })
          .sort((a, b) => (a.id as number) - (b.id as number));
        postings.set(term, {
          documents: Uint32Array.from(hits.map((hit) => hit.id as number)),
          scores: Float64Array.from(hits.map((hit) => hit.score)),
        });
        all.set(term, (all.get(term) ?? 0) | (1 << bit));
      }
      this.fields.set(name, { bit, postings });
    });
    for (const [term, fields] of all)
      (this.termsByLength[term.length] ??= []).push({ term, fields, letters: lettersOf(term) });
    this.scores = new Float64Array(documents.length);
    this.termsMatched = new Uint16Array(documents.length);
    this.matchedFields = new Uint32Array(documents.length);
  }

  fieldBit(name: string): number {
    return 1 << (this.fields.get(name)?.bit ?? 31);
  }

  /** The documents that match any term of the queries, best first; of equal scores, the one matched first comes first, as in MiniSearch. */
  search(queries: readonly FieldsQuery[]): DescriptionHit[] {
    const { scores, termsMatched, matchedFields, touched } = this;
    touched.length = 0;
    // A term counts once towards a document's number of terms matched, however many parts of the query or fields it is in.
    const termIds = new Map<string, number>();
    const counted = new Set<number>();
    for (const query of queries) {
      for (const term of query.terms) {
        let termId = termIds.get(term);
        if (termId === undefined) termIds.set(term, (termId = termIds.size));
        const boost = query.termBoost?.(term) ?? 1;
        this.add(term, termId, boost, query.boosts, counted);
        const distance = query.fuzzy?.(term);
        if (distance) {
          for (const [near, away] of this.near(term, distance, this.bitsOf(query.boosts)))
            this.add(near, termId, (boost * fuzzyWeight * near.length) / (near.length + away), query.boosts, counted);
        }
      }
    }
    const hits: DescriptionHit[] = touched.map((document) => ({
      document,
      score: (scores[document] as number) * (termsMatched[document] as number),
      matchedFields: matchedFields[document] as number,
    }));
    for (const document of touched) {
      scores[document] = 0;
      termsMatched[document] = 0;
      matchedFields[document] = 0;
    }
    // Array.prototype.sort is stable: of equal scores, the first touched stays first.
    return hits.sort((a, b) => b.score - a.score);
  }

  private add(
    term: string,
    termId: number,
    weight: number,
    boosts: Readonly<Record<string, number>>,
    counted: Set<number>,
  ): void {
    const { scores, termsMatched, matchedFields, touched } = this;
    const documentCount = scores.length;
    for (const name in boosts) {
      const field = this.fields.get(name);
      const postings = field?.postings.get(term);
      if (!field || !postings) continue;
      const scale = weight * (boosts[name] as number);
      const bit = 1 << field.bit;
      const { documents, scores: termScores } = postings;
      for (let at = 0; at < documents.length; at += 1) {
        const document = documents[at] as number;
        if (matchedFields[document] === 0) touched.push(document);
        const pair = termId * documentCount + document;
        if (!counted.has(pair)) {
          counted.add(pair);
          termsMatched[document] = (termsMatched[document] as number) + 1;
        }
        scores[document] = (scores[document] as number) + scale * (termScores[at] as number);
        matchedFields[document] = (matchedFields[document] as number) | bit;
      }
    }
  }

  private bitsOf(boosts: Readonly<Record<string, number>>): number {
    let bits = 0;
    for (const name in boosts) bits |= this.fieldBit(name);
    return bits;
  }

  /** The other terms of the fields `fieldBits` within `distance` edits (insertions, deletions, substitutions) of `term`, with their distances. */
  private near(term: string, distance: number, fieldBits: number): Array<[string, number]> {
    const found: Array<[string, number]> = [];
    const letters = lettersOf(term);
    for (let length = Math.max(1, term.length - distance); length <= term.length + distance; length += 1) {
      for (const other of this.termsByLength[length] ?? []) {
        if ((other.fields & fieldBits) === 0) continue;
        // Each letter one term has and the other lacks takes an edit at least: most terms are ruled out here, without the table.
        if (bitCount(letters & ~other.letters) > distance || bitCount(other.letters & ~letters) > distance) continue;
        const away = editDistanceWithin(term, other.term, distance);
        if (away > 0 && away <= distance) found.push([other.term, away]);
      }
    }
    return found;
  }
}

/** The letters a term has, one bit each (digits and anything else share the last). */
function lettersOf(term: string): number {
  let letters = 0;
  for (let at = 0; at < term.length; at += 1) letters |= 1 << Math.min((term.charCodeAt(at) - 97) >>> 0, 26);
  return letters;
}

function bitCount(bits: number): number {
  let count = 0;
  for (let rest = bits; rest !== 0; rest &= rest - 1) count += 1;
  return count;
}

/** Rows of the edit-distance table, reused: terms are short, and a search compares one with hundreds. */
let previousRow = new Uint8Array(64);
let currentRow = new Uint8Array(64);

/**
 * Levenshtein distance of a and b, or `limit + 1` once it must exceed `limit`. Only the band of cells within `limit` of the
 * diagonal can hold a distance within it, so only they are computed.
 */
function editDistanceWithin(a: string, b: string, limit: number): number {
  if (b.length + 1 > previousRow.length) {
    previousRow = new Uint8Array(b.length * 2);
    currentRow = new Uint8Array(b.length * 2);
  }
  const over = limit + 1;
  let previous = previousRow;
  let current = currentRow;
  for (let j = 0; j <= b.length; j += 1) previous[j] = j <= limit ? j : over;
  for (let i = 1; i <= a.length; i += 1) {
    const from = Math.max(1, i - limit);
    const to = Math.min(b.length, i + limit);
    current[from - 1] = from === 1 && i <= limit ? i : over;
    let least = current[from - 1] as number;
    const code = a.charCodeAt(i - 1);
    for (let j = from; j <= to; j += 1) {
      const substitution = (previous[j - 1] as number) + (code === b.charCodeAt(j - 1) ? 0 : 1);
      const deletion = (previous[j] as number) + 1;
      const insertion = (current[j - 1] as number) + 1;
      const value = Math.min(substitution, deletion, insertion, over);
      current[j] = value;
      if (value < least) least = value;
    }
    if (to < b.length) current[to + 1] = over;
    if (least > limit) return over;
    [previous, current] = [current, previous];
  }
  return previous[b.length] as number;
}
