import type { Queryable } from '../../store/db.js';
import { runColumns, type RunRow } from './enrichment-row.js';
import { statusView, type EnrichmentStatusView } from './enrichment.js';
import { exportRowColumns, type ExportRow } from './export-row.js';

/**
 * What a person sees of their audiences at a glance: the latest enrichment of each, and the
 * account's recent exports. Read through the same views the API answers with.
 */

/** The latest enrichment run of each of the audiences, by audience id. */
export async function latestEnrichments(
  db: Queryable,
  accountId: number,
  audienceIds: readonly number[],
): Promise<Map<number, EnrichmentStatusView>> {
  if (!audienceIds.length) return new Map();
  const result = await db.query<RunRow>(
    `SELECT DISTINCT ON (audience_id) ${runColumns} FROM enrichment_runs
      WHERE account_id = $1 AND audience_id = ANY($2::bigint[]) ORDER BY audience_id, id DESC`,
    [accountId, audienceIds],
  );
  return new Map(result.rows.map((run) => [Number(run.audience_id), statusView(run)]));
}

/** The account's most recent exports, newest first. */
export async function recentExports(db: Queryable, accountId: number, limit = 50): Promise<ExportRow[]> {
  const result = await db.query<ExportRow>(
    `SELECT ${exportRowColumns} FROM audience_exports WHERE account_id = $1 ORDER BY id DESC LIMIT $2`,
    [accountId, limit],
  );
  return result.rows;
}
