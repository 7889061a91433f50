import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.js';
import { networkClock } from '../../../src/core/network-clock.js';

const dayMs = 86_400_000;

describe('the network clock', () => {
  it('is real time when no speed is set', () => {
    const clock = networkClock(undefined);
    expect(Math.abs(clock.now().getTime() - Date.now())).toBeLessThan(1000);
    expect(clock.realMsUntil(new Date(Date.now() - 1000))).toBe(0);
    const wait = clock.realMsUntil(new Date(Date.now() + 60_000));
    expect(wait).toBeGreaterThan(58_000);
    expect(wait).toBeLessThanOrEqual(60_000);
  });

  it('runs days per second from the start of the process, and converts waits back to real time', () => {
    const startedAt = Date.now() - 10_000;
    const clock = networkClock(3, startedAt);
    // Ten real seconds at three days a second: thirty days on.
    const ahead = clock.now().getTime() - startedAt;
    expect(ahead).toBeGreaterThanOrEqual(30 * dayMs);
    expect(ahead).toBeLessThan(31 * dayMs);
    // A day of network time is a third of a real second.
    const wait = clock.realMsUntil(new Date(clock.now().getTime() + dayMs));
    expect(wait).toBeGreaterThan(300);
    expect(wait).toBeLessThanOrEqual(334);
    expect(clock.realMsUntil(new Date(startedAt))).toBe(0);
  });

  it('goes on from a later network time it is given, never back before the real one', () => {
    const startedAt = Date.now();
    const resumed = networkClock(1, startedAt, startedAt + 40 * dayMs);
    expect(resumed.now().getTime() - startedAt).toBeGreaterThanOrEqual(40 * dayMs);
    expect(resumed.now().getTime() - startedAt).toBeLessThan(41 * dayMs);
    const behind = networkClock(1, startedAt, startedAt - 40 * dayMs);
    expect(behind.now().getTime()).toBeGreaterThanOrEqual(startedAt);
  });

  it('is configured by NETWORK_SIMULATION_DAYS_PER_SECOND, refused with NODE_ENV=production', () => {
    expect(loadConfig({ NETWORK_SIMULATION_DAYS_PER_SECOND: '1' }).NETWORK_SIMULATION_DAYS_PER_SECOND).toBe(1);
    expect(loadConfig({}).NETWORK_SIMULATION_DAYS_PER_SECOND).toBeUndefined();
    expect(() => loadConfig({ NETWORK_SIMULATION_DAYS_PER_SECOND: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ NETWORK_SIMULATION_DAYS_PER_SECOND: '1', NODE_ENV: 'production' })).toThrow(
      /NETWORK_SIMULATION_DAYS_PER_SECOND.*refused with NODE_ENV=production/,
    );
  });
});
