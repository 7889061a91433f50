import type { RetentionTask } from '../../job-queue/index.js';

/**
 * The delivery log is kept `days` days: attempts, finished deliveries and the events no pending
 * delivery still needs. A pending delivery (retries last about three days) is never cut short.
 */
export function webhookRetention(days: number): RetentionTask {
  return {
    name: 'webhookRowsDeleted',
    sweep: async (db) => {
      const cutoff = [days];
      const attempts = await db.query(
        'DELETE FROM webhook_attempts WHERE attempted_at < now() - make_interval(days => $1)',
        cutoff,
      );
      const deliveries = await db.query(
        `DELETE FROM webhook_deliveries WHERE status <> 'pending' AND created_at < now() - make_interval(days => $1)`,
        cutoff,
      );
      const events = await db.query(
        `DELETE FROM webhook_events e WHERE e.created_at < now() - make_interval(days => $1)
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.account_id = e.account_id AND d.event_id = e.id)`,
        cutoff,
      );
      return (attempts.rowCount ?? 0) + (deliveries.rowCount ?? 0) + (events.rowCount ?? 0);
    },
  };
}
