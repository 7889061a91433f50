/** BM25+ as MiniSearch scores (its defaults), so that plain postings rank documents as a MiniSearch index of them would. */
const bm25 = { k: 1.2, b: 0.7, d: 0.5 };

/** The documents that have a term, each with the part of its BM25+ score that depends on the document alone (its frequency of the term and its length); `inverse` is the term's rarity. */
export interface Postings {
  documents: Uint32Array;
  weights: Float64Array;
  inverse: number;
}

/** One field of a set of documents: for each term, its postings, computed once, so that a query only multiplies and adds. */
export type Field = Map<string, Postings>;

/**
 * A field's postings from each document's tokens. A document's length is its count of distinct tokens before `termOf` (which
 * stems, or drops stop words), as MiniSearch counts it.
 */
export function fieldOf(tokensOfDocuments: readonly (readonly string[])[], termOf: (token: string) => string | null): Field {
  const raw = new Map<string, Array<{ document: number; frequency: number }>>();
  const lengths = tokensOfDocuments.map((tokens, document) => {
    const frequencies = new Map<string, number>();
    for (const token of tokens) {
      const term = termOf(token);
      if (term !== null) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
    }
    for (const [term, frequency] of frequencies) {
      let list = raw.get(term);
      if (!list) raw.set(term, (list = []));
      list.push({ document, frequency });
    }
    return new Set(tokens).size;
  });
  const averageLength = lengths.reduce((sum, length) => sum + length, 0) / Math.max(lengths.length, 1);
  const count = tokensOfDocuments.length;
  const field: Field = new Map();
  for (const [term, list] of raw) {
    const weights = list.map(({ document, frequency }) => {
      const length = (lengths[document] as number) / averageLength;
      return bm25.d + (frequency * (bm25.k + 1)) / (frequency + bm25.k * (1 - bm25.b + bm25.b * length));
    });
    field.set(term, {
      documents: Uint32Array.from(list.map((posting) => posting.document)),
      weights: Float64Array.from(weights),
      inverse: Math.log(1 + (count - list.length + 0.5) / (list.length + 0.5)),
    });
  }
  return field;
}
