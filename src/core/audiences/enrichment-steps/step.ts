import type pg from 'pg';
import type { JobRun } from '../../../job-queue/index.js';
import type { RunRow } from '../enrichment-row.js';
import type { AudienceContactSource, AudienceLiveSource } from '../sources.js';
import type { ExportDeps } from '../exports.js';

/**
 * What one step of the enrichment run is, for the loop in enrichment-run.ts. A step works in
 * batches: `batch` reads and does the outside work of one batch (live fetches, contact lookups)
 * between transactions, and returns a function that the loop calls inside the transaction that
 * commits the batch's results, the credits it settles and the position reached.
 */
export interface BatchOutcome {
  /** Where the next batch starts; null when the step is finished. */
  cursor: Record<string, unknown> | null;
  done: number;
  /** Credits of the charge this batch accounts for (delivered or refunded). */
  settled: number;
  refund: number;
  note?: string | null;
}

export type ApplyBatch = (tx: pg.PoolClient, run: RunRow) => Promise<BatchOutcome>;

export interface Step {
  /** False when the request switched the step off (or it has nothing to work on): it is SKIPPED at once. */
  enabled(run: RunRow): boolean;
  total(run: RunRow): number;
  /** Reads and does the outside work of one batch; the returned function commits it. */
  batch(run: RunRow, cursor: Record<string, unknown> | null): Promise<ApplyBatch>;
}

/** What steps may use: the service, the two outside sources, and the job (to stop and to pass its signal on). */
export interface StepDeps {
  context: ExportDeps;
  contacts: AudienceContactSource;
  live: AudienceLiveSource;
  job: Pick<JobRun, 'signal' | 'checkpoint' | 'log'>;
}

/** Rows per batch of the steps that only run SQL. */
export const sqlBatch = 2000;

/** The prospects a run enriches: the audience's first ones by id, up to the run's cap. */
export const selectedProspects = `ap.account_id = $1 AND ap.audience_id = $2 AND ap.person_id <= $3`;

/** A step done in one batch, inside its commit. */
export const single =
  (work: (tx: pg.PoolClient, run: RunRow) => Promise<Partial<BatchOutcome>>) =>
  async (): Promise<ApplyBatch> =>
  async (tx, run) => ({
    cursor: null,
    done: 0,
    settled: 0,
    refund: 0,
    ...(await work(tx, run)),
  });

export async function nextProspectIds(tx: pg.PoolClient, run: RunRow, after: number, limit: number): Promise<number[]> {
  const rows = await tx.query<{ id: number }>(
    `SELECT ap.person_id AS id FROM audience_prospects ap WHERE ${selectedProspects} AND ap.person_id > $4 ORDER BY ap.person_id LIMIT $5`,
    [run.account_id, run.audience_id, run.prospect_cap_id, after, limit],
  );
  return rows.rows.map((r) => r.id);
}
