import type { Queryable } from '../store/db.js';

/**
 * The clock of the professional network as the service sees it: the one clock of watch-list
 * checks and of the simulated network source, so that a schedule and the drift it watches keep
 * the same time. Real time by default; with NETWORK_SIMULATION_DAYS_PER_SECOND it runs faster
 * from the moment the process started, so that a demo sees a month of changes in half a minute,
 * and a restarted process goes on from the last check it finds rather than back to real time.
 */
export interface NetworkClock {
  now(): Date;
  /** Real milliseconds until the clock shows `at`: 0 once it has. */
  realMsUntil(at: Date): number;
}

const dayMs = 86_400_000;

export function networkClock(
  daysPerSecond: number | undefined,
  startedAt = Date.now(),
  startsFrom = startedAt,
): NetworkClock {
  if (!daysPerSecond) {
    return { now: () => new Date(), realMsUntil: (at) => Math.max(0, at.getTime() - Date.now()) };
  }
  // Simulated milliseconds per real millisecond.
  const speed = (daysPerSecond * dayMs) / 1000;
  const origin = Math.max(startedAt, startsFrom);
  const now = () => new Date(origin + (Date.now() - startedAt) * speed);
  return { now, realMsUntil: (at) => Math.max(0, Math.ceil((at.getTime() - now().getTime()) / speed)) };
}

/** The clock of this process: a fast one goes on from the latest watch-list check recorded. */
export async function startNetworkClock(db: Queryable, daysPerSecond: number | undefined): Promise<NetworkClock> {
  if (!daysPerSecond) return networkClock(undefined);
  // A start told not to migrate may have no such table yet: then from real time.
  const latest = await db
    .query<{ at: Date | null }>('SELECT max(checked_at) AS at FROM watch_list_checks')
    .catch(() => ({ rows: [] as Array<{ at: Date | null }> }));
  return networkClock(daysPerSecond, Date.now(), latest.rows[0]?.at?.getTime() ?? Date.now());
}
