import { stemmer } from 'stemmer';

/**
 * How the ranker reads a request: the same way for every phrasing it learns from and every query it ranks.
 *
 * Literals become one token each: an email address, a profile or company page URL, another URL, a domain. What matters
 * about "jane@acme.com" is that it is an email address, not its letters. Numbers become `#`: "audience 7" and "saved search
 * 12" name one existing thing, and the pair "audienc #" says so. camelCase identifiers are split into their words.
 * Words are lowercased and stemmed (Porter); stop words are kept, since "how many" and "is it done" are made of them.
 *
 * A word after a negation ("not", "without", "don't", ...) up to the end of its clause is marked `!`: "not the export
 * link" speaks against the export operations, where the bare words would speak for them.
 */

const literals: ReadonlyArray<[RegExp, string]> = [
  [/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, ' @email '],
  [/(?:https?:\/\/)?(?:[a-z]{2,3}\.)?linkedin\.com\/in\/[\w%-]+\/?/gi, ' @profile '],
  [/(?:https?:\/\/)?(?:[a-z]{2,3}\.)?linkedin\.com\/company\/[\w%-]+\/?/gi, ' @companypage '],
  [/https?:\/\/\S+/g, ' @url '],
  [
    /\b[\w-]+\.(?:com|io|ai|co|net|org|de|fr|uk|es|it|nl|se|dk|no|fi|ch|at|be|eu|app|dev|tech|us|ca|au|in|jp|br)\b(?:\/\S*)?/gi,
    ' @domain ',
  ],
];

const negations = new Set(['not', 'no', 'dont', 'doesnt', 'without', 'never', 'isnt', 'arent', 'nor', 'instead']);
/** A token, or a mark that ends a clause (and a negation's reach). */
const tokenPattern = /@[a-z]+|[a-z]+|[0-9]+|[.,;:!?()\u2013\u2014"]|\s-\s/g;
const clauseEnd = '|';

const stems = new Map<string, string>();
function stem(word: string): string {
  let stemmed = stems.get(word);
  if (stemmed === undefined) stems.set(word, (stemmed = stemmer(word)));
  return stemmed;
}

/** The request's tokens in order, with `|` where a clause ends. */
export function tokensOf(text: string): string[] {
  let normalised = text;
  for (const [pattern, token] of literals) normalised = normalised.replace(pattern, token);
  normalised = normalised
    .replace(/\b[a-z]+(?:[A-Z][a-z0-9]*)+\b/g, (identifier) => ` ${identifier.replace(/([A-Z])/g, ' $1')} `)
    .toLowerCase()
    .replace(/[’'`]/g, '');
  const tokens: string[] = [];
  let negated = false;
  for (const [word] of normalised.matchAll(tokenPattern)) {
    const first = word.charCodeAt(0);
    const isDigit = first >= 48 && first <= 57;
    const isLetter = word[0] === '@' || (first >= 97 && first <= 122);
    if (!isDigit && !isLetter) {
      negated = false;
      tokens.push(clauseEnd);
    } else if (isDigit) tokens.push('#');
    else {
      if (word === 'but') negated = false;
      const term = word[0] === '@' ? word : stem(word);
      tokens.push(negated ? `!${term}` : term);
      if (negations.has(word)) negated = true;
    }
  }
  return tokens;
}

/** What the model weighs: each token, and each pair of neighbouring tokens within a clause. */
export function featuresOf(text: string): string[] {
  const tokens = tokensOf(text);
  const features = new Set<string>();
  for (let at = 0; at < tokens.length; at += 1) {
    const token = tokens[at] as string;
    if (token === clauseEnd) continue;
    features.add(token);
    const before = tokens[at - 1];
    if (before !== undefined && before !== clauseEnd) features.add(`${before} ${token}`);
  }
  return [...features];
}
