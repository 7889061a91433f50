import { requireAudience } from '../record.js';
import { requireExport } from '../export-row.js';
import { writeExportFile } from '../export-writer.js';
import { createRunExport, markExportReady } from '../exports.js';
import type { Step, StepDeps } from './step.js';

/**
 * With userEmail: a CSV of the enriched prospects for the completion mail, counted against the
 * export quota. Two batches: create the export record, then write the file and mark it READY.
 */
export function exportingCsv(deps: StepDeps): Step {
  return {
    enabled: (run) => run.user_email !== null && run.prospects_to_enrich > 0,
    total: () => 1,
    batch: async (run, cursor) => {
      const exportId = cursor?.exportId === undefined ? null : Number(cursor.exportId);
      if (exportId === null) {
        return async (tx) => {
          const audience = await requireAudience(tx, run.account_id, run.audience_id);
          const created = await createRunExport(deps.context, tx, audience, run.id, run.prospect_cap_id);
          if (!created.row) return { cursor: null, done: 1, settled: 0, refund: 0, note: created.note };
          await tx.query('UPDATE enrichment_runs SET export_id = $3 WHERE account_id = $1 AND id = $2', [
            run.account_id,
            run.id,
            created.row.id,
          ]);
          return { cursor: { exportId: created.row.id }, done: 0, settled: 0, refund: 0, note: created.note };
        };
      }
      const row = await requireExport(deps.context.db.pool, run.account_id, exportId);
      const written = await writeExportFile(deps.context, row, run.prospect_cap_id, deps.job.checkpoint);
      return async (tx) => {
        await markExportReady(deps.context, tx, row, written);
        return { cursor: null, done: 1, settled: 0, refund: 0 };
      };
    },
  };
}
