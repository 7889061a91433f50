import { readFileSync } from 'node:fs';
import os from 'node:os';
import type { Config } from '../../config.js';

/** The embedded server's settings: the fixed ones, those sized to the machine, and the configuration's overrides. */

export interface EmbeddedTuning {
  /** The memory the settings are sized for; unset: the machine's (or its cgroup's limit, when lower). */
  memoryBytes?: number | undefined;
  /** Server settings that replace the computed ones or add to them, by name. */
  overrides?: Record<string, string> | undefined;
}

// Loopback TCP only, and only with a password: the port is no secret (other local users can see it).
export const hostBasedAuthentication = [
  '# Written by the Prospecting Data Service at every start: loopback TCP with SCRAM passwords only.',
  'host all all 127.0.0.1/32 scram-sha-256',
  '',
].join('\n');

export const serverFlags = [
  '-c',
  'listen_addresses=127.0.0.1',
  '-c',
  'unix_socket_directories=',
  '-c',
  'password_encryption=scram-sha-256',
  '-c',
  'lc_messages=C',
  // Nothing replicates from this server, so minimal WAL: bulk loads (COPY FREEZE, index builds)
  // then skip most WAL writing.
  '-c',
  'wal_level=minimal',
  '-c',
  'max_wal_senders=0',
];

const MB = 2 ** 20;
const GB = 2 ** 30;
const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));
const megabytes = (bytes: number) => `${Math.floor(bytes / MB)}MB`;

/**
 * The embedded server's settings for a machine of this memory and these cores. PostgreSQL's own
 * defaults (128 MB of shared buffers, 4 MB of work memory, the costs of a spinning disk) suit a
 * small shared host; this server is the service's own, on the machine it runs on:
 * - shared_buffers a quarter of memory (at most 8 GB: past that the OS cache serves as well),
 *   effective_cache_size three quarters (what the OS cache and the buffers hold together);
 * - work_mem sized so that the sorts and hashes of many connections at once stay well inside what
 *   the buffers leave (at most 64 MB: a page of 1000 sorts a few MB);
 * - maintenance_work_mem a sixteenth (at most 1 GB): index builds of a large seed or import;
 * - parallel workers: one per two cores for a query, every core in all;
 * - random_page_cost and effective_io_concurrency of an SSD (set random_page_cost=4 on spinning disks).
 */
export function tunedSettings(machine: { memoryBytes: number; cpus: number }): Record<string, string> {
  const memory = Math.max(machine.memoryBytes, 512 * MB);
  const cpus = Math.max(1, Math.floor(machine.cpus));
  const sharedBuffers = clamp(memory / 4, 128 * MB, 8 * GB);
  return {
    shared_buffers: megabytes(sharedBuffers),
    effective_cache_size: megabytes(Math.max(sharedBuffers, (memory * 3) / 4)),
    work_mem: megabytes(clamp((memory - sharedBuffers) / 256, 4 * MB, 64 * MB)),
    maintenance_work_mem: megabytes(clamp(memory / 16, 64 * MB, 1 * GB)),
    max_worker_processes: String(Math.max(8, cpus)),
    max_parallel_workers: String(cpus),
    max_parallel_workers_per_gather: String(clamp(Math.floor(cpus / 2), 1, 4)),
    max_parallel_maintenance_workers: String(clamp(Math.floor(cpus / 2), 1, 4)),
    random_page_cost: '1.1',
    effective_io_concurrency: '200',
    max_wal_size: megabytes(clamp(memory / 8, 1 * GB, 8 * GB)),
  };
}

/** This machine's memory: the cgroup's limit when it sets a lower one (a container), else the total. */
export function machineMemoryBytes(): number {
  let memory = os.totalmem();
  for (const file of ['/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/memory/memory.limit_in_bytes']) {
    try {
      const limit = Number(readFileSync(file, 'utf8').trim());
      if (Number.isFinite(limit) && limit > 0) memory = Math.min(memory, limit);
    } catch {
      // no such cgroup file, or "max": no limit there
    }
  }
  return memory;
}

/** The settings a server started with these options gets: sized to the machine, then the overrides. */
export function embeddedSettings(tuning: EmbeddedTuning): Record<string, string> {
  const computed = tunedSettings({
    memoryBytes: tuning.memoryBytes ?? machineMemoryBytes(),
    cpus: os.availableParallelism(),
  });
  return { ...computed, ...(tuning.overrides ?? {}) };
}

/** The tuning the configuration asks for. */
export function embeddedSettingsOf(
  config: Pick<Config, 'EMBEDDED_PG_MEMORY_MB' | 'EMBEDDED_PG_SETTINGS'>,
): EmbeddedTuning {
  return {
    memoryBytes: config.EMBEDDED_PG_MEMORY_MB === undefined ? undefined : config.EMBEDDED_PG_MEMORY_MB * MB,
    overrides: config.EMBEDDED_PG_SETTINGS,
  };
}

export function settingFlags(settings: Record<string, string>): string[] {
  return Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
}
