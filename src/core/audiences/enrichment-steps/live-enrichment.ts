import { enrichmentPrices, liveFreshHours } from '../pricing.js';
import { selectedProspects, type Step, type StepDeps } from './step.js';

const liveBatch = 25;
const liveConcurrency = 5;

/**
 * Live fetches, companies then profiles. Records fetched live by an earlier run of this
 * audience in the 24 hours before this run was triggered were not charged and are skipped;
 * for the others, a live answer settles their 2 credits, a fallback to stored data refunds them.
 */
export function liveEnrichment(deps: StepDeps): Step {
  const fresh = `make_interval(hours => ${liveFreshHours})`;
  return {
    enabled: (run) =>
      (run.options.runCompanyLiveEnrichment && run.companies_to_enrich > 0) ||
      (run.options.runProfileLiveEnrichment && run.prospects_to_enrich > 0),
    total: (run) =>
      (run.options.runCompanyLiveEnrichment ? run.companies_to_enrich : 0) +
      (run.options.runProfileLiveEnrichment ? run.prospects_to_enrich : 0),
    batch: async (run, cursor) => {
      const phase =
        (cursor?.phase as string | undefined) ?? (run.options.runCompanyLiveEnrichment ? 'companies' : 'prospects');
      const after = Number(cursor?.after ?? 0);
      const pool = deps.context.db.pool;
      const params = [run.account_id, run.audience_id, run.prospect_cap_id, after, liveBatch, run.created_at];
      const items =
        phase === 'companies'
          ? await pool.query<{ id: number; charged: boolean }>(
              `SELECT ci.id, (e.live_enriched_at IS NULL OR e.live_enriched_at < $6::timestamptz - ${fresh}) AS charged
                 FROM (SELECT DISTINCT ap.company_id AS id FROM audience_prospects ap JOIN companies c ON c.id = ap.company_id
                        WHERE ${selectedProspects} AND ap.company_id > $4) ci
                 LEFT JOIN audience_enriched_companies e ON e.account_id = $1 AND e.audience_id = $2 AND e.company_id = ci.id
                ORDER BY ci.id LIMIT $5`,
              params,
            )
          : await pool.query<{ id: number; charged: boolean }>(
              `SELECT ap.person_id AS id, (ap.live_enriched_at IS NULL OR ap.live_enriched_at < $6::timestamptz - ${fresh}) AS charged
                 FROM audience_prospects ap WHERE ${selectedProspects} AND ap.person_id > $4 ORDER BY ap.person_id LIMIT $5`,
              params,
            );
      const charged = items.rows.filter((item) => item.charged).map((item) => item.id);
      const live = new Set<number>();
      await forEachLimited(charged, liveConcurrency, async (id) => {
        deps.job.checkpoint();
        try {
          const refreshed =
            phase === 'companies'
              ? await deps.live.refreshCompany(id, deps.job.signal)
              : await deps.live.refreshPerson(id, deps.job.signal);
          if (refreshed) live.add(id);
        } catch (error) {
          // A failed live fetch is the stored-data fallback the spec describes, not a failed run.
          deps.job.log.warn({ err: error, phase, id }, 'live fetch failed; stored data stands');
        }
      });
      deps.job.checkpoint();
      const price = phase === 'companies' ? enrichmentPrices.liveCompany : enrichmentPrices.liveProspect;
      const lastPage = items.rows.length < liveBatch;
      const next = !lastPage
        ? { phase, after: items.rows.at(-1)?.id }
        : phase === 'companies' && run.options.runProfileLiveEnrichment
          ? { phase: 'prospects', after: 0 }
          : null;
      return async (tx) => {
        const ids = [...live];
        if (ids.length && phase === 'companies') {
          await tx.query(
            `INSERT INTO audience_enriched_companies (account_id, audience_id, company_id, live_enriched_at)
             SELECT $1, $2, unnest($3::bigint[]), now()
             ON CONFLICT (account_id, audience_id, company_id) DO UPDATE SET live_enriched_at = EXCLUDED.live_enriched_at`,
            [run.account_id, run.audience_id, ids],
          );
        } else if (ids.length) {
          await tx.query(
            `UPDATE audience_prospects SET live_enriched_at = now() WHERE account_id = $1 AND audience_id = $2 AND person_id = ANY($3::bigint[])`,
            [run.account_id, run.audience_id, ids],
          );
        }
        return {
          cursor: next,
          done: items.rows.length,
          settled: charged.length * price,
          refund: (charged.length - live.size) * price,
        };
      };
    },
  };
}

async function forEachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  });
  await Promise.all(workers);
}
