import { nextProspectIds, sqlBatch, type Step } from './step.js';

/** Sales-tool data: the sales-tool URN of each prospect, derived from its network member id (free). */
export function salesTool(): Step {
  return {
    enabled: (run) => run.options.runProfileSalesNav && run.prospects_to_enrich > 0,
    total: (run) => run.prospects_to_enrich,
    batch: async (run, cursor) => {
      const after = Number(cursor?.after ?? 0);
      return async (tx) => {
        const ids = await nextProspectIds(tx, run, after, sqlBatch);
        await tx.query(
          `UPDATE audience_prospects ap SET sales_tool_urn = CASE WHEN p.network_user_id IS NULL THEN NULL
                  ELSE 'urn:network:salesProfile:(' || p.network_user_id || ',NAME_SEARCH)' END
             FROM people p WHERE p.id = ap.person_id AND ap.account_id = $1 AND ap.audience_id = $2 AND ap.person_id = ANY($3::bigint[])`,
          [run.account_id, run.audience_id, ids],
        );
        return {
          cursor: ids.length < sqlBatch ? null : { after: ids.at(-1) },
          done: ids.length,
          settled: 0,
          refund: 0,
        };
      };
    },
  };
}
