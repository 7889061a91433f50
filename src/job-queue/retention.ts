import type pg from 'pg';
import type { Logger } from '../log.js';
import type { Queryable } from '../store/db.js';

/**
 * Retention: what the service writes and no one needs after a while is deleted, so that disk
 * and tables do not grow for ever. Each module that keeps such things declares a
 * `RetentionTask` next to its table (finished jobs below; export files in
 * core/audiences/export-retention.ts; MCP stored results and poll answers in mcp/guards;
 * rate-limit buckets in runner/rate-limit.ts), and the composition root (src/service.ts,
 * `retentionTasks`) lists them. One instance sweeps at a time (an advisory lock), every
 * RETENTION_SWEEP_MINUTES; a failing task is logged and does not stop the others.
 */
export interface RetentionTask {
  /** What the count means, as it appears in the sweep's log line (e.g. `jobsDeleted`). */
  name: string;
  /** Deletes what is past its time; returns how many things it deleted or expired. */
  sweep(db: Queryable): Promise<number>;
}

/** Per task name, what the sweep removed. */
export type SweepCounts = Record<string, number>;

const sweepLockKey = 0x70647372; // "pdsr"

/** Finished job rows (succeeded or failed), `days` after they finished; queued and running ones never. */
export function finishedJobsRetention(days: number): RetentionTask {
  return {
    name: 'jobsDeleted',
    sweep: async (db) => {
      const deleted = await db.query(
        `DELETE FROM jobs WHERE status IN ('succeeded', 'failed') AND finished_at < now() - make_interval(days => $1)`,
        [days],
      );
      return deleted.rowCount ?? 0;
    },
  };
}

/** Runs every task once, unless another instance is sweeping (then null). */
export async function sweepRetention(
  pool: pg.Pool,
  tasks: readonly RetentionTask[],
  log?: Logger,
): Promise<SweepCounts | null> {
  const client = await pool.connect();
  try {
    const locked = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [sweepLockKey]);
    if (!locked.rows[0]?.locked) return null;
    try {
      const counts: SweepCounts = {};
      for (const task of tasks) {
        try {
          counts[task.name] = await task.sweep(client);
        } catch (error) {
          if (!log) throw error;
          log.warn({ err: error, task: task.name }, 'retention task failed; the next sweep retries');
        }
      }
      return counts;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [sweepLockKey]);
    }
  } finally {
    client.release();
  }
}

/** Sweeps now and every `everyMinutes` until stopped. */
export function startRetentionSweeps(
  pool: pg.Pool,
  tasks: readonly RetentionTask[],
  everyMinutes: number,
  log: Logger,
): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const sweep = () => {
    running = sweepRetention(pool, tasks, log).then(
      (counts) => {
        if (counts && Object.values(counts).some((n) => n > 0)) log.info(counts, 'retention sweep');
      },
      (error: unknown) => log.warn({ err: error }, 'retention sweep failed; the next one retries'),
    );
  };
  sweep();
  const timer = setInterval(sweep, everyMinutes * 60_000);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
