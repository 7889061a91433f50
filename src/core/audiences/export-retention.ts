import type { RetentionTask } from '../../job-queue/index.js';
import { storageKeyOf } from './export-row.js';
import type { Config } from '../../config.js';
import type { ServicesDeps } from '../deps.js';

const exportBatch = 500;

/**
 * Export files go EXPORT_RETENTION_DAYS after they were written. The export row stays, EXPIRED
 * with the reason, so its status still answers and its link says why the file is gone (410).
 */
export function exportFilesRetention(
  context: { config: Pick<Config, 'EXPORT_RETENTION_DAYS'> } & ServicesDeps<'exportStorage'>,
): RetentionTask {
  return {
    name: 'exportsExpired',
    sweep: async (db) => {
      const storage = context.services.exportStorage;
      let expired = 0;
      for (;;) {
        const due = await db.query<{ account_id: number; id: number }>(
          `SELECT account_id, id FROM audience_exports
            WHERE status = 'READY' AND completed_at < now() - make_interval(days => $1)
            ORDER BY completed_at LIMIT $2`,
          [context.config.EXPORT_RETENTION_DAYS, exportBatch],
        );
        for (const row of due.rows) {
          // The file first: a crash between the two leaves a READY row without its file, which the
          // next sweep finishes; the other order could leave a file that no row points to.
          await storage.remove(storageKeyOf(row));
          const updated = await db.query(
            `UPDATE audience_exports SET status = 'EXPIRED', expired_at = now(),
                    failure_reason = 'The file was deleted after the retention period; export the audience again.'
              WHERE account_id = $1 AND id = $2 AND status = 'READY'`,
            [row.account_id, row.id],
          );
          expired += updated.rowCount ?? 0;
        }
        if (due.rows.length < exportBatch) return expired;
      }
    },
  };
}
