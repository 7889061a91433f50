import { selectedProspects, single, type Step } from './step.js';

/** After live profile fetches, a prospect's current company may have changed: the audience follows the catalog. */
export function resubmitting(): Step {
  return {
    enabled: (run) => run.options.runProfileLiveEnrichment && run.prospects_to_enrich > 0,
    total: (run) => run.prospects_to_enrich,
    batch: single(async (tx, run) => {
      const moved = await tx.query(
        `UPDATE audience_prospects ap SET company_id = p.company_id FROM people p
          WHERE p.id = ap.person_id AND ${selectedProspects} AND ap.company_id IS DISTINCT FROM p.company_id`,
        [run.account_id, run.audience_id, run.prospect_cap_id],
      );
      return { done: run.prospects_to_enrich, note: `${moved.rowCount ?? 0} prospects changed company` };
    }),
  };
}
