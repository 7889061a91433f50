import type { PeopleSearchParams } from '../../../operations/schemas/filters.js';
import { addRange } from './company-filters.js';
import { containsPattern, type SqlConditions } from './sql.js';

/**
 * Adds the conditions of the people filters, on table alias `p`. Titles match as
 * case-insensitive substrings: any included title selects, any excluded title suppresses.
 */
export function addPeopleConditions(sql: SqlConditions, params: PeopleSearchParams): void {
  addTitleConditions(sql, params.jobTitleV2?.included ?? [], params.jobTitleV2?.excluded ?? []);
  // bpchar matches the char(3) column: text would cast the column, hiding its statistics and index.
  // One country is an equality, which reads people_country_cover in id order within the country;
  // `= ANY` of several is read from people_search_cover in id order, all countries at once.
  const countries = params.country3LetterCode ?? [];
  if (countries.length === 1) sql.add(`p.country3 = ${sql.bind(countries[0])}::bpchar`);
  else if (countries.length) sql.add(`p.country3 = ANY(${sql.bind(countries)}::bpchar[])`);
  addRange(sql, 'p.years_experience', params.yearsOfExperience);
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

/**
 * Titles match as case-insensitive substrings. Most of a title filter's time used to go to that
 * substring test, run on every index entry a page walks past (a page of 1000 "VP of Sales" in the
 * USA walks over 500,000). Each included title is therefore first tested against the title's
 * bigram mask (migration 086, stored in the covering people indexes): a title that contains
 * "VP of Sales" contains each of its letter pairs, so its mask has every bit of the text's mask,
 * and two integers read from the index compare in a fraction of the substring test's time. Both
 * masks come from the same SQL function, so the case folding is PostgreSQL's on both sides.
 *
 * The shape is written for the planner as much as for the executor:
 * - each included title is one arm `(mask test AND substring test)` of an OR:
 *   inside an arm the tests run in the order written (the planner reorders only the top-level
 *   conditions, by cost, and would run the substring test first);
 * - the mask test is `least(missing bits, 1) <> 1`: an inequality, which the planner estimates as
 *   nearly always true, so that its estimate of the filter stays that of the substring test alone
 *   and its choice between reading in id order and the trigram index is what it was;
 * - one included title gets a second arm that matches nothing (`p.id < 0`: ids are positive, as the
 *   import and the id sequence give them), since a lone arm would be flattened into the top-level
 *   conditions and reordered; it costs one comparison on the rows the first arm rejects, and the
 *   trigram index stays usable (a BitmapOr with the primary key);
 * - an excluded title is `(mask lacks a bit = 1 OR NOT substring)`, one top-level test each: the
 *   substring test runs only on titles that have all of the text's pairs (inside the included
 *   arms the planner would factor it out again); the planner estimates it as the substring test's
 *   own `NOT`, the equality being rare to its eyes.
 */
function addTitleConditions(sql: SqlConditions, included: readonly string[], excluded: readonly string[]): void {
  // `least(missing bits, 1)`: 0 when the title's mask has every bit of the text's, else 1.
  const missing = (title: string) =>
    `least(~title_bigram_mask(p.title) & title_bigram_mask(${sql.bind(title)}::text), 1)`;
  // A text of one character has no pair of letters to test.
  const hasPairs = (title: string) => [...title].length >= 2;
  for (const title of excluded) {
    const substring = `p.title NOT ILIKE ${sql.bind(containsPattern(title))}`;
    sql.add(hasPairs(title) ? `(${missing(title)} = 1 OR ${substring})` : substring);
  }
  if (!included.length) return;
  const arms = included.map((title) => {
    const substring = `p.title ILIKE ${sql.bind(containsPattern(title))}`;
    return hasPairs(title) ? `(${missing(title)} <> 1 AND ${substring})` : substring;
  });
  if (arms.length === 1) arms.push('p.id < 0');
  sql.add(`(${arms.join('\n    OR ')})`);
}
