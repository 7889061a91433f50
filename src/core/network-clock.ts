/**
 * The clock of the professional network as the service sees it: the one clock of watch-list
 * checks and of the simulated network source, so that a schedule and the drift it watches keep
 * the same time. Real time by default; with NETWORK_SIMULATION_DAYS_PER_SECOND it runs faster,
 * from the moment the process started, so that a demo sees a month of changes in half a minute.
 */
export interface NetworkClock {
  now(): Date;
  /** Real milliseconds until the clock shows `at`: 0 once it has. */
  realMsUntil(at: Date): number;
}

const dayMs = 86_400_000;

export function networkClock(daysPerSecond: number | undefined, startedAt = Date.now()): NetworkClock {
  if (!daysPerSecond) {
    return { now: () => new Date(), realMsUntil: (at) => Math.max(0, at.getTime() - Date.now()) };
  }
  // Simulated milliseconds per real millisecond.
  const speed = (daysPerSecond * dayMs) / 1000;
  const now = () => new Date(startedAt + (Date.now() - startedAt) * speed);
  return { now, realMsUntil: (at) => Math.max(0, Math.ceil((at.getTime() - now().getTime()) / speed)) };
}
