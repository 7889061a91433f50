import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import {
  embeddedSettings,
  embeddedSettingsOf,
  startEmbeddedPostgres,
  tunedSettings,
  type EmbeddedServer,
} from '../../src/store/embedded.js';

/**
 * The embedded server is sized to the machine (or to EMBEDDED_PG_MEMORY_MB), and
 * EMBEDDED_PG_SETTINGS replaces what was computed: checked on a running server with SHOW.
 */
const MB = 2 ** 20;
const GB = 2 ** 30;
const folders: string[] = [];
const servers: EmbeddedServer[] = [];

afterAll(async () => {
  for (const server of servers) await server.stop().catch(() => undefined);
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

async function settingBytes(connectionString: string, names: string[]): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const out: Record<string, number> = {};
    for (const name of names) {
      const row = (await client.query<{ bytes: string }>(`SELECT pg_size_bytes(current_setting($1)) AS bytes`, [name]))
        .rows[0];
      out[name] = Number(row?.bytes);
    }
    return out;
  } finally {
    await client.end();
  }
}

async function show(connectionString: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query<{ value: string }>(`SELECT current_setting($1) AS value`, [name])).rows[0]?.value ?? '';
  } finally {
    await client.end();
  }
}

const toBytes = (value: string | undefined): number => {
  const match = /^(\d+)(MB|GB)$/.exec(value ?? '');
  if (!match) throw new Error(`not a size in MB or GB: ${value}`);
  return Number(match[1]) * (match[2] === 'GB' ? GB : MB);
};

describe('embedded server settings', () => {
  it('sizes memory and parallelism to the machine, within caps', () => {
    const machine = tunedSettings({ memoryBytes: 24 * GB, cpus: 2 });
    expect(toBytes(machine.shared_buffers)).toBe(6 * GB);
    expect(toBytes(machine.effective_cache_size)).toBe(18 * GB);
    expect(toBytes(machine.work_mem)).toBe(64 * MB);
    expect(toBytes(machine.maintenance_work_mem)).toBe(1 * GB);
    expect(machine.max_parallel_workers_per_gather).toBe('1');
    expect(machine.random_page_cost).toBe('1.1');

    const large = tunedSettings({ memoryBytes: 256 * GB, cpus: 64 });
    expect(toBytes(large.shared_buffers)).toBe(8 * GB);
    expect(toBytes(large.maintenance_work_mem)).toBe(1 * GB);
    expect(large.max_parallel_workers_per_gather).toBe('4');
    expect(large.max_parallel_workers).toBe('64');
    expect(Number(large.max_worker_processes)).toBeGreaterThanOrEqual(64);

    const small = tunedSettings({ memoryBytes: 1 * GB, cpus: 1 });
    expect(toBytes(small.shared_buffers)).toBe(256 * MB);
    expect(toBytes(small.work_mem)).toBe(4 * MB);
    expect(toBytes(small.maintenance_work_mem)).toBe(64 * MB);
  });

  it('reads EMBEDDED_PG_MEMORY_MB and EMBEDDED_PG_SETTINGS, and refuses what would break the service', () => {
    const config = loadConfig({
      EMBEDDED_PG_MEMORY_MB: '2048',
      EMBEDDED_PG_SETTINGS: 'work_mem=12MB, random_page_cost = 2',
    });
    const settings = embeddedSettings(embeddedSettingsOf(config));
    expect(toBytes(settings.shared_buffers)).toBe(512 * MB);
    expect(settings.work_mem).toBe('12MB');
    expect(settings.random_page_cost).toBe('2');

    expect(() => loadConfig({ EMBEDDED_PG_SETTINGS: 'listen_addresses=0.0.0.0' })).toThrow(
      /EMBEDDED_PG_SETTINGS: listen_addresses is set by the service/,
    );
    expect(() => loadConfig({ EMBEDDED_PG_SETTINGS: 'work_mem' })).toThrow(
      /EMBEDDED_PG_SETTINGS: "work_mem" is not name=value/,
    );
    expect(() => loadConfig({ EMBEDDED_PG_MEMORY_MB: 'lots' })).toThrow(ConfigError);
  });

  it('starts the server with them: SHOW answers what was computed, and an override takes effect', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'pds-embedded-settings-'));
    folders.push(folder);
    const config = loadConfig({
      EMBEDDED_PG_MEMORY_MB: '2048',
      EMBEDDED_PG_SETTINGS: 'work_mem=12MB,random_page_cost=2',
    });
    const server = await startEmbeddedPostgres(path.join(folder, 'data'), createLogger('silent'), {
      temporary: true,
      settings: embeddedSettingsOf(config),
    });
    servers.push(server);

    const computed = tunedSettings({ memoryBytes: 2048 * MB, cpus: os.availableParallelism() });
    expect(server.settings).toEqual({ ...computed, work_mem: '12MB', random_page_cost: '2' });
    // As the service connects (its own role), not only as the superuser.
    const shown = await settingBytes(server.connectionString, [
      'shared_buffers',
      'effective_cache_size',
      'maintenance_work_mem',
      'work_mem',
    ]);
    expect(shown).toEqual({
      shared_buffers: toBytes(computed.shared_buffers),
      effective_cache_size: toBytes(computed.effective_cache_size),
      maintenance_work_mem: toBytes(computed.maintenance_work_mem),
      work_mem: 12 * MB,
    });
    expect(await show(server.connectionString, 'random_page_cost')).toBe('2');
    expect(await show(server.connectionString, 'max_parallel_workers_per_gather')).toBe(
      computed.max_parallel_workers_per_gather,
    );
    expect(await show(server.connectionString, 'effective_io_concurrency')).toBe('200');
  });

  it('a setting PostgreSQL refuses stops the start with its message', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'pds-embedded-settings-'));
    folders.push(folder);
    await expect(
      startEmbeddedPostgres(path.join(folder, 'data'), createLogger('silent'), {
        temporary: true,
        settings: { overrides: { shared_buffers: 'plenty' } },
      }),
    ).rejects.toThrow(/shared_buffers/);
  });
});
