import { purgeIdleRateLimitBuckets } from '../api/rate-limit.js';
import type { AppContext } from '../context.js';
import { storageKeyOf } from '../core/audiences/exports.js';
import { exportStorageOf } from '../core/audiences/services.js';
import { PollCache } from '../mcp/guards/polling.js';
import { StoredResults } from '../mcp/guards/stored-results.js';

/**
 * Retention: what the service writes and no one needs after a while is deleted, so that disk
 * and tables do not grow for ever. Export files go EXPORT_RETENTION_DAYS after they were written
 * (the export row stays, EXPIRED, so its status still answers and its link says why it is gone);
 * finished job rows go JOB_RETENTION_DAYS after they finished; expired MCP stored results, old
 * poll answers and refilled rate-limit buckets go at once. One instance sweeps at a time (an
 * advisory lock), every RETENTION_SWEEP_MINUTES.
 */

export interface SweepCounts {
  exportsExpired: number;
  jobsDeleted: number;
  mcpResultsDeleted: number;
}

const sweepLockKey = 0x70647372; // "pdsr"
const exportBatch = 500;

export async function sweepRetention(context: AppContext): Promise<SweepCounts | null> {
  const { config } = context;
  const client = await context.db.pool.connect();
  try {
    const locked = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [sweepLockKey]);
    if (!locked.rows[0]?.locked) return null;
    try {
      const counts: SweepCounts = { exportsExpired: 0, jobsDeleted: 0, mcpResultsDeleted: 0 };
      const storage = exportStorageOf(context);
      for (;;) {
        const due = await client.query<{ account_id: number; id: number }>(
          `SELECT account_id, id FROM audience_exports
            WHERE status = 'READY' AND completed_at < now() - make_interval(days => $1)
            ORDER BY completed_at LIMIT $2`,
          [config.EXPORT_RETENTION_DAYS, exportBatch],
        );
        for (const row of due.rows) {
          // The file first: a crash between the two leaves a READY row without its file, which the
          // next sweep finishes; the other order could leave a file that no row points to.
          await storage.remove(storageKeyOf(row));
          const expired = await client.query(
            `UPDATE audience_exports SET status = 'EXPIRED', expired_at = now(),
                    failure_reason = 'The file was deleted after the retention period; export the audience again.'
              WHERE account_id = $1 AND id = $2 AND status = 'READY'`,
            [row.account_id, row.id],
          );
          counts.exportsExpired += expired.rowCount ?? 0;
        }
        if (due.rows.length < exportBatch) break;
      }
      const jobs = await client.query(
        `DELETE FROM jobs WHERE status IN ('succeeded', 'failed') AND finished_at < now() - make_interval(days => $1)`,
        [config.JOB_RETENTION_DAYS],
      );
      counts.jobsDeleted = jobs.rowCount ?? 0;
      counts.mcpResultsDeleted = await new StoredResults(client).purgeExpired();
      await new PollCache(client).purgeOlderThan(3600);
      await purgeIdleRateLimitBuckets(client);
      return counts;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [sweepLockKey]);
    }
  } finally {
    client.release();
  }
}

/** Sweeps now and every RETENTION_SWEEP_MINUTES until stopped. */
export function startRetentionSweeps(context: AppContext): { stop(): Promise<void> } {
  const log = context.log.child({ component: 'retention' });
  let running: Promise<void> = Promise.resolve();
  const sweep = () => {
    running = sweepRetention(context).then(
      (counts) => {
        if (counts && (counts.exportsExpired || counts.jobsDeleted || counts.mcpResultsDeleted)) log.info(counts, 'retention sweep');
      },
      (error: unknown) => log.warn({ err: error }, 'retention sweep failed; the next one retries'),
    );
  };
  sweep();
  const timer = setInterval(sweep, context.config.RETENTION_SWEEP_MINUTES * 60_000);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
