import type { Database } from '../store/db.js';
import { titleColumns } from '../core/titles/normalise.js';

const BATCH = 5_000;

/**
 * Fills the title columns of migration 150 (title_words, title_mask, seniority, job_function) on
 * the profiles a database held before it: the migration adds them empty, since the vocabulary that
 * reads a title lives in reference/, not in SQL. Loads write them from then on; a start runs this
 * and it returns at once when nothing is missing. In id order, a batch per statement, so that a
 * stop in between keeps what was done and the next start goes on.
 */
export async function fillTitleTerms(db: Database, onProgress?: (filled: number) => void): Promise<number> {
  let filled = 0;
  let after = 0;
  for (;;) {
    const batch = await db.pool.query<{ id: string; title: string }>(
      `SELECT id, title FROM people WHERE title_words IS NULL AND id > $1 ORDER BY id LIMIT ${BATCH}`,
      [after],
    );
    if (!batch.rows.length) {
      // The planner's statistics of the new columns (the seniority and function filters' estimates) come from here.
      if (filled) await db.pool.query('ANALYZE people');
      return filled;
    }
    const columns = batch.rows.map((row) => titleColumns(row.title));
    await db.pool.query(
      `UPDATE people p SET title_words = t.words, title_mask = t.mask, seniority = t.seniority, job_function = t.job_function
         FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::text[]) AS t(id, words, mask, seniority, job_function)
        WHERE p.id = t.id`,
      [
        batch.rows.map((row) => row.id),
        columns.map((c) => c.title_words),
        columns.map((c) => c.title_mask),
        columns.map((c) => c.seniority),
        columns.map((c) => c.job_function),
      ],
    );
    filled += batch.rows.length;
    after = Number(batch.rows[batch.rows.length - 1]?.id);
    onProgress?.(filled);
  }
}
