import type { Queryable } from '../../store/db.js';

/** The index a phrase's titles are found by through their trigrams (migration 150). */
const titleTrigramIndex = 'people_title_words_trgm';

/**
 * Whether the planner's plan for a read finds titles through their trigrams: it does so for a rare
 * title, whose phrase of ordinary words has trigrams in millions of titles, and a GIN scan reads
 * every one of their lists. Such a read is better made with the titles found by their words
 * (people-filters.ts, PeopleConditionOptions.titlesByWords; decision 0008). Asked of the usual
 * form, whose estimates are right, because the planner's estimate of the words form is too low.
 */
export async function readsTitlesByTrigrams(db: Queryable, read: string, params: unknown[]): Promise<boolean> {
  const result = await db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${read}`, params);
  const usesIndex = (node: unknown): boolean => {
    if (!node || typeof node !== 'object') return false;
    if ((node as { 'Index Name'?: unknown })['Index Name'] === titleTrigramIndex) return true;
    return Object.values(node).some((value) => (Array.isArray(value) ? value.some(usesIndex) : usesIndex(value)));
  };
  return usesIndex(result.rows[0]?.['QUERY PLAN']);
}
