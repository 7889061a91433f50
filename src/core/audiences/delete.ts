import { z } from 'zod';
import { accountOf, cancelJobs, defineJob, enqueue, type JobRun } from '../../job-queue/index.js';
import { credit } from '../credits.js';
import { requireAudience } from './record.js';
import { buildJob } from './build.js';
import { enrichmentJob } from './enrichment-run.js';
import { enrichmentCreditUnit, runColumns, type RunRow } from './enrichment-row.js';
import { adjustQuota } from './export-quota.js';
import { exportRowColumns, storageKeyOf, type ExportRow } from './export-row.js';
import { exportJob } from './exports.js';
import type { DbConfigDeps, ServicesDeps } from '../deps.js';

/**
 * Deleting an audience, in one transaction with the audience locked (so a build's or an
 * enrichment's own commits, which lock it too, come wholly before or wholly after):
 *
 * - its build, enrichment and export jobs are cancelled through the job queue (`cancelJobs`): a
 *   running one loses its lease, its worker aborts it, and its next commit finds the audience or
 *   run gone and stops, so nothing more is charged or written;
 * - a running enrichment is settled by its refund rules: what its batches delivered stays charged,
 *   everything else of the upfront charge is refunded (ledger key `enrichment:<id>:refund:failed`,
 *   the key a failed run refunds under, so the two can never both refund); a build charges only
 *   when it completes, so a cancelled one has charged nothing;
 * - its exports become EXPIRED ("the audience was deleted"), so their links answer 410, and the
 *   quota held by unfinished ones is released; the files are removed by a job queued in the same
 *   transaction (so a crash cannot leave them behind), which looks once more a little later for a
 *   file that a job still running at the time wrote after the first pass;
 * - its records, estimates and runs are deleted. The ledger keeps every entry.
 */

export interface DeletedAudience {
  audienceId: string;
  deleted: true;
  /** What was running and was stopped. */
  cancelled: { build: boolean; enrichmentId: string | null };
  refundedCredits: number;
  exportsDeleted: number;
}

export const exportFilesPurgeJob = defineJob({
  kind: 'audience.purge-export-files',
  payload: z.object({
    exportIds: z.array(z.number().int().positive()).max(100_000),
    pass: z.number().int().min(1).max(2).default(1),
  }),
  maxAttempts: 8,
  run: (run, context: DbConfigDeps & ServicesDeps<'exportStorage'>) => purgeExportFiles(context, run),
});

export async function deleteAudience(
  context: DbConfigDeps & ServicesDeps<'exportStorage'>,
  accountId: number,
  audienceId: string,
): Promise<DeletedAudience> {
  const deleted = await context.db.transaction(async (tx) => {
    const audience = await requireAudience(tx, accountId, audienceId, true);
    const reason = `cancelled: audience ${audience.id} was deleted`;
    const building = audience.status === 'BUILDING';
    await cancelJobs(tx, buildJob.kind, accountId, { audienceId: audience.id }, reason);

    const runs = await tx.query<RunRow>(
      `SELECT ${runColumns} FROM enrichment_runs WHERE account_id = $1 AND audience_id = $2 FOR UPDATE`,
      [accountId, audience.id],
    );
    let refundedCredits = 0;
    let cancelledRun: number | null = null;
    for (const run of runs.rows) {
      await cancelJobs(tx, enrichmentJob.kind, accountId, { enrichmentId: run.id }, reason);
      if (run.status !== 'NOT_STARTED' && run.status !== 'RUNNING') continue;
      cancelledRun = run.id;
      const refund = Math.max(0, run.charged_credits - run.settled_credits);
      if (refund > 0) {
        const applied = await credit(tx, accountId, refund, {
          unit: enrichmentCreditUnit,
          reason: `enrichment ${run.id} cancelled (audience ${audience.id} deleted): refund of work not done`,
          reference: `enrichment:${run.id}`,
          idempotencyKey: `enrichment:${run.id}:refund:failed`,
        });
        if (applied.applied) refundedCredits += refund;
      }
    }

    const exports = await tx.query<ExportRow>(
      `SELECT ${exportRowColumns} FROM audience_exports WHERE account_id = $1 AND audience_id = $2 FOR UPDATE`,
      [accountId, audience.id],
    );
    for (const row of exports.rows) {
      await cancelJobs(tx, exportJob.kind, accountId, { exportId: row.id }, reason);
      // Rows of an export that never finished go back to the month's quota, as when one fails.
      if (row.status === 'PENDING' || row.status === 'RUNNING') await adjustQuota(tx, row, -row.estimated_rows);
    }
    await tx.query(
      `UPDATE audience_exports SET status = 'EXPIRED', expired_at = now(),
              failure_reason = 'The audience was deleted, and its export files with it.'
        WHERE account_id = $1 AND audience_id = $2 AND status <> 'FAILED'`,
      [accountId, audience.id],
    );
    const exportIds = exports.rows.map((row) => row.id);
    if (exportIds.length) await enqueue(tx, exportFilesPurgeJob, { accountId, payload: { exportIds, pass: 1 } });

    for (const table of ['audience_prospects', 'audience_companies', 'audience_enriched_companies']) {
      await tx.query(`DELETE FROM ${table} WHERE account_id = $1 AND audience_id = $2`, [accountId, audience.id]);
    }
    await tx.query('DELETE FROM enrichment_estimates WHERE account_id = $1 AND audience_id = $2', [
      accountId,
      audience.id,
    ]);
    await tx.query('DELETE FROM enrichment_runs WHERE account_id = $1 AND audience_id = $2', [accountId, audience.id]);
    await tx.query('DELETE FROM audiences WHERE account_id = $1 AND id = $2', [accountId, audience.id]);
    return {
      audienceId: String(audience.id),
      deleted: true as const,
      cancelled: { build: building, enrichmentId: cancelledRun === null ? null : String(cancelledRun) },
      refundedCredits,
      exportsDeleted: exportIds.length,
    };
  });
  return deleted;
}

/** Removes the files (removing a missing file is no error, so a retried pass is harmless), then once more a little later. */
async function purgeExportFiles(
  context: DbConfigDeps & ServicesDeps<'exportStorage'>,
  run: JobRun<{ exportIds: number[]; pass: number }>,
): Promise<void> {
  const accountId = accountOf(run.job);
  const storage = context.services.exportStorage;
  for (const id of run.job.payload.exportIds) {
    run.checkpoint();
    await storage.remove(storageKeyOf({ account_id: accountId, id }));
  }
  await run.progress({ pass: run.job.payload.pass, removed: run.job.payload.exportIds.length });
  if (run.job.payload.pass === 1) {
    // A job that was writing a file when it was cancelled stops within a lease: look again after that.
    // (Run twice after a crash, this queues a second look twice: harmless.)
    await enqueue(context.db.pool, exportFilesPurgeJob, {
      accountId,
      payload: { exportIds: run.job.payload.exportIds, pass: 2 },
      delayMs: 2 * context.config.JOB_LEASE_SECONDS * 1000,
    });
  }
}
