import type { PeopleSearchParams } from '../../../operations/schemas/filters.js';
import { addRange } from './company-filters.js';
import { containsPattern, type SqlConditions } from './sql.js';

/**
 * Adds the conditions of the people filters, on table alias `p`. Titles match as
 * case-insensitive substrings: any included title selects, any excluded title suppresses.
 */
export function addPeopleConditions(sql: SqlConditions, params: PeopleSearchParams): void {
  const included = params.jobTitleV2?.included ?? [];
  const excluded = params.jobTitleV2?.excluded ?? [];
  if (included.length) sql.add(`p.title ILIKE ANY(${sql.bind(included.map(containsPattern))}::text[])`);
  if (excluded.length) sql.add(`NOT (p.title ILIKE ANY(${sql.bind(excluded.map(containsPattern))}::text[]))`);
  // bpchar[] matches the char(3) column: a text[] would cast the column, hiding its statistics and index.
  if (params.country3LetterCode?.length) sql.add(`p.country3 = ANY(${sql.bind(params.country3LetterCode)}::bpchar[])`);
  addRange(sql, 'p.years_experience', params.yearsOfExperience);
  const tags = params.tags;
  if (tags?.anyOf?.length) sql.add(`p.tags && ${sql.bind(tags.anyOf)}::text[]`);
  if (tags?.allOf?.length) sql.add(`p.tags @> ${sql.bind(tags.allOf)}::text[]`);
  if (tags?.noneOf?.length) sql.add(`NOT (p.tags && ${sql.bind(tags.noneOf)}::text[])`);
  if (params.education?.degreeTypes?.length) sql.add(`p.degree_types && ${sql.bind(params.education.degreeTypes)}::text[]`);
  if (params.education?.schools?.length) {
    sql.add(`EXISTS (SELECT 1 FROM unnest(p.schools) AS school WHERE school ILIKE ANY(${sql.bind(params.education.schools.map(containsPattern))}::text[]))`);
  }
}
