import { cleanName } from '../names.js';
import { selectedProspects, sqlBatch, type Step } from './step.js';

/** Names as people write them (no titles, suffixes or stray capitals), kept beside the catalog's own. */
export function cleaningNames(): Step {
  return {
    enabled: (run) => run.prospects_to_enrich > 0,
    total: (run) => run.prospects_to_enrich,
    batch: async (run, cursor) => {
      const after = Number(cursor?.after ?? 0);
      return async (tx) => {
        const rows = await tx.query<{ id: number; first_name: string; last_name: string }>(
          `SELECT ap.person_id AS id, p.first_name, p.last_name FROM audience_prospects ap JOIN people p ON p.id = ap.person_id
            WHERE ${selectedProspects} AND ap.person_id > $4 ORDER BY ap.person_id LIMIT $5`,
          [run.account_id, run.audience_id, run.prospect_cap_id, after, sqlBatch],
        );
        await tx.query(
          `UPDATE audience_prospects ap SET clean_first_name = n.first, clean_last_name = n.last
             FROM unnest($3::bigint[], $4::text[], $5::text[]) AS n(id, first, last)
            WHERE ap.account_id = $1 AND ap.audience_id = $2 AND ap.person_id = n.id`,
          [
            run.account_id,
            run.audience_id,
            rows.rows.map((r) => r.id),
            rows.rows.map((r) => cleanName(r.first_name)),
            rows.rows.map((r) => cleanName(r.last_name)),
          ],
        );
        return {
          cursor: rows.rows.length < sqlBatch ? null : { after: rows.rows.at(-1)?.id },
          done: rows.rows.length,
          settled: 0,
          refund: 0,
        };
      };
    },
  };
}
