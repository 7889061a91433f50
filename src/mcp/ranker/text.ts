import { stemmer } from 'stemmer';

/**
 * The words of a text as concepts.ts reads them, the same way for a request and for an operation's own words: lowercase
 * words (camelCase split, British spellings made American), Porter stems (by the stemmer package), and the terms that
 * carry meaning (without stop words).
 */

// Words that say nothing about which operation is meant ("I want to get ...").
export const stopWords = new Set([
  'a',
  'an',
  'the',
  'of',
  'to',
  'for',
  'i',
  'we',
  'me',
  'my',
  'our',
  'you',
  'your',
  'want',
  'wanna',
  'need',
  'would',
  'like',
  'how',
  'do',
  'does',
  'can',
  'could',
  'in',
  'on',
  'at',
  'with',
  'and',
  'or',
  'is',
  'are',
  'be',
  'it',
  'its',
  'this',
  'that',
  'these',
  'those',
  'please',
  'some',
  'from',
  'by',
  'which',
  'what',
  'who',
  'get',
  'give',
  'show',
  'tell',
  'let',
  'use',
  'there',
  'about',
  'into',
  'any',
  'should',
  'will',
  'just',
  'now',
  'then',
  'so',
  'up',
  'via',
  'using',
  'them',
  'their',
  'api',
  'endpoint',
  'operation',
  'tool',
  'call',
  'user',
  'asked',
  'says',
  'said',
  'wants',
  'ok',
  'okay',
  'yes',
  'am',
  'was',
  'were',
  'has',
  'have',
  'had',
  'did',
  'been',
  'being',
  'if',
  'else',
  'than',
  'too',
  'very',
  'also',
  'only',
  'all',
  'one',
  'i',
  'im',
  'us',
  'he',
  'she',
  'they',
  'his',
  'her',
  'him',
  'where',
  'when',
  'why',
  'not',
  'no',
  'dont',
  'don',
  't',
  's',
  'yet',
  'still',
  'again',
  'each',
  'every',
  'before',
  'after',
  'here',
  'more',
  'most',
  'much',
  'many',
  'new',
  'already',
  'right',
  'away',
]);

/** Verbs spelt -ise in British English and -ize in American: the stemmer leaves "organis" and "organ" apart. */
const izeVerbs =
  /^(organ|priorit|custom|optim|normal|summar|final|categor|recogn|author|personal|visual|special|util|standard|synchron|real|emphas|minim|maxim|initial|capital|central|local|character|itemis|memor|monet|scrutin|sanit|tokenis)is(e|es|ed|ing|er|ers|ation|ations)$/;
const britishWords: Record<string, string> = {
  analyse: 'analyze',
  analysed: 'analyzed',
  analysing: 'analyzing',
  catalogue: 'catalog',
  catalogues: 'catalogs',
  colour: 'color',
  behaviour: 'behavior',
  favourite: 'favorite',
  favourites: 'favorites',
  centre: 'center',
  centres: 'centers',
  licence: 'license',
  programme: 'program',
  programmes: 'programs',
  enrol: 'enroll',
  enrolment: 'enrollment',
  cheque: 'check',
  labelled: 'labeled',
  cancelled: 'canceled',
  cancelling: 'canceling',
  modelled: 'modeled',
  travelling: 'traveling',
  judgement: 'judgment',
};

/** A function of one word, remembered for the first 50,000 words: a search reads each of its words several times. */
function perWord(compute: (word: string) => string): (word: string) => string {
  const known = new Map<string, string>();
  return (word) => {
    let result = known.get(word);
    if (result === undefined) {
      result = compute(word);
      if (known.size < 50_000) known.set(word, result);
    }
    return result;
  };
}

/** One spelling for a word, the American one: "organisation" and "organization" are one term. */
const american = perWord((word) => {
  const british = Object.hasOwn(britishWords, word) ? britishWords[word] : undefined;
  if (british) return british;
  if (word.endsWith('isation') || word.endsWith('isations')) return word.replace(/isation(s?)$/, 'ization$1');
  const verb = izeVerbs.exec(word);
  return verb ? `${verb[1]}iz${verb[2]}` : word;
});

/** Lowercase words of a text: camelCase and punctuation split, apostrophes dropped ("don't" is "dont"), British spellings made American. */
export function words(text: string): string[] {
  return (
    text
      // Plural acronyms are words: "VPs", "CTOs".
      .replace(/\b([A-Z]{2,})s\b/g, (_match, acronym: string) => `${acronym.toLowerCase()}s`)
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
      .toLowerCase()
      .replace(/['’]/g, '')
      .split(/[^a-z0-9]+/)
      .filter((word) => word.length > 0)
      .map(american)
  );
}

export const stem = perWord((word) => (word.length > 2 ? stemmer(word) : word));

/** The index's terms of a text: its words, stemmed, without stop words. */
export function terms(text: string): string[] {
  return words(text)
    .filter((word) => !stopWords.has(word))
    .map(stem);
}

/**
 * A word as the lexicon matches it: stemmed, except that an adverb in -ly keeps its own form ("completely" is no
 * question about completion, "currently" none about live data), and the possessive "its" is not "it" ("has its filters"
 * asks nothing about progress, "has it finished" does).
 */
export function lexiconStem(word: string): string {
  if (word === 'its' || (word.length > 5 && word.endsWith('ly'))) return word;
  return stem(word);
}
