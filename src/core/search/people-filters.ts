import type { PeopleSearchParams } from '../../../operations/schemas/filters.js';
import { addRange } from './company-filters.js';
import { titlePhrases, wordMask } from '../titles/normalise.js';
import { containsPattern, type SqlConditions } from './sql.js';

export interface PeopleConditionOptions {
  /**
   * Find an included title's candidates through the text-search index of its words (migration
   * 185) rather than its trigrams. The planner's estimate of the two tests together is their
   * product, far below the truth for a phrase of words that go together, so this form is asked for
   * only when the planner has chosen, on the usual form, to find the titles by index
   * (src/core/search/count.ts). What matches is the same.
   */
  titlesByWords?: boolean;
}

/**
 * Adds the conditions of the people filters, on table alias `p`. Titles match as words: any
 * included title selects, any excluded title suppresses.
 */
export function addPeopleConditions(
  sql: SqlConditions,
  params: PeopleSearchParams,
  options: PeopleConditionOptions = {},
): void {
  addTitleConditions(sql, params.jobTitleV2?.included ?? [], params.jobTitleV2?.excluded ?? [], options);
  // bpchar matches the char(3) column: text would cast the column, hiding its statistics and index.
  // One country is an equality, which reads people_country_cover in id order within the country;
  // `= ANY` of several is read from people_search_cover in id order, all countries at once.
  const countries = params.country3LetterCode ?? [];
  if (countries.length === 1) sql.add(`p.country3 = ${sql.bind(countries[0])}::bpchar`);
  else if (countries.length) sql.add(`p.country3 = ANY(${sql.bind(countries)}::bpchar[])`);
  addRange(sql, 'p.years_experience', params.yearsOfExperience);
  if (params.seniority?.length) sql.add(`p.seniority = ANY(${sql.bind(params.seniority)}::text[])`);
  if (params.jobFunction?.length) sql.add(`p.job_function = ANY(${sql.bind(params.jobFunction)}::text[])`);
  const tags = params.tags;
  if (tags?.anyOf?.length) sql.add(`p.tags && ${sql.bind(tags.anyOf)}::text[]`);
  if (tags?.allOf?.length) sql.add(`p.tags @> ${sql.bind(tags.allOf)}::text[]`);
  if (tags?.noneOf?.length) sql.add(`NOT (p.tags && ${sql.bind(tags.noneOf)}::text[])`);
  if (params.education?.degreeTypes?.length)
    sql.add(`p.degree_types && ${sql.bind(params.education.degreeTypes)}::text[]`);
  if (params.education?.schools?.length) {
    sql.add(
      `EXISTS (SELECT 1 FROM unnest(p.schools) AS school WHERE school ILIKE ANY(${sql.bind(params.education.schools.map(containsPattern))}::text[]))`,
    );
  }
}

/** Does a title filter include any phrase (so that a count may find its titles by their words)? */
export function hasIncludedTitle(params: Pick<PeopleSearchParams, 'jobTitleV2'>): boolean {
  return (params.jobTitleV2?.included ?? []).some((title) => titlePhrases(title).length > 0);
}

/** Does a title filter hold a phrase too short for a trigram, which the trigram index cannot narrow? */
export function hasShortTitlePhrase(params: PeopleSearchParams): boolean {
  return (params.jobTitleV2?.included ?? []).some((title) =>
    titlePhrases(title).some((phrase) => phrase.join(' ').length < 3),
  );
}

/**
 * Titles match as words (docs/concepts.md, "Titles"): a filter is read by the same normaliser as
 * the stored titles (src/core/titles/normalise.ts) into phrases of canonical words, and a title
 * matches a phrase when it holds its words whole and in order, `title_words LIKE '% w1 w2 %'`
 * (title_words holds each variant between spaces, migration 150). An included title is any of its
 * phrases; an excluded title suppresses every one of its phrases.
 *
 * Each phrase is first tested against the title's word mask (stored in the covering people
 * indexes): a title that holds the phrase holds each of its words, so its mask has every bit of
 * the phrase's, and two integers read from the index compare in a fraction of the LIKE's time (a
 * page of 1000 "VP of Sales" in the USA walks over 500,000 index entries at 10,000,000 people).
 *
 * The shape is written for the planner as much as for the executor, as it was for the letter-pair
 * mask before (docs/decisions/0006-search-on-postgresql.md):
 * - each included phrase is one arm `(mask test AND phrase test)` of an OR:
 *   inside an arm the tests run in the order written (the planner reorders only the top-level
 *   conditions, by cost, and would run the phrase test first);
 * - the mask test is `least(missing bits, 1) <> 1`: an inequality, which the planner estimates as
 *   nearly always true, so that its estimate of the filter stays that of the phrase test alone
 *   and its choice between reading in id order and the trigram index is what it was;
 * - a lone arm gets a second arm that matches nothing (`p.id < 0`: ids are positive, as the
 *   import and the id sequence give them), since a lone arm would be flattened into the top-level
 *   conditions and reordered; it costs one comparison on the rows the first arm rejects, and the
 *   trigram index stays usable (a BitmapOr with the primary key);
 * - an excluded phrase is `(mask lacks a bit = 1 OR NOT phrase)`, one top-level test each: the
 *   phrase test runs only on titles that have all of the phrase's words.
 */
function addTitleConditions(
  sql: SqlConditions,
  included: readonly string[],
  excluded: readonly string[],
  { titlesByWords = false }: PeopleConditionOptions,
): void {
  // `least(missing bits, 1)`: 0 when the title's mask has every bit of the phrase's, else 1.
  const missing = (phrase: readonly string[]) => `least(~p.title_mask & ${sql.bind(wordMask(phrase))}::bigint, 1)`;
  const pattern = (phrase: readonly string[]) => sql.bind(`% ${phrase.join(' ')} %`);
  for (const title of excluded) {
    for (const phrase of titlePhrases(title)) {
      sql.add(`(${missing(phrase)} = 1 OR p.title_words NOT LIKE ${pattern(phrase)})`);
    }
  }
  if (!included.length) return;
  // plainto_tsquery reads the words as to_tsvector read the stored ones, and ANDs them: the index answers it exactly.
  // Only ASCII words: the text-search parser's idea of a letter beyond them depends on the server's locale, and a
  // phrase it read as no word at all would match nobody.
  const words = (phrase: readonly string[]) =>
    titlesByWords && phrase.every((word) => /^[a-z0-9]+$/.test(word))
      ? `to_tsvector('simple', p.title_words) @@ plainto_tsquery('simple', ${sql.bind(phrase.join(' '))}) AND `
      : '';
  const arms = included.flatMap((title) =>
    titlePhrases(title).map(
      (phrase) => `(${words(phrase)}${missing(phrase)} <> 1 AND p.title_words LIKE ${pattern(phrase)})`,
    ),
  );
  // The schema refuses a title of stop words alone; should one reach here, it matches nobody.
  if (!arms.length) arms.push('false');
  if (arms.length === 1) arms.push('p.id < 0');
  sql.add(`(${arms.join('\n    OR ')})`);
}
