import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { createAccount } from '../src/core/accounts.js';
import type { Logger } from '../src/log.js';
import { seedCatalog } from '../src/seed/load.js';
import { startService, type RunningService } from '../src/service.js';
import { openDatabase } from '../src/store/db.js';
import { embeddedSettingsOf, startEmbeddedPostgres, type EmbeddedServer } from '../src/store/embedded.js';
import { migrate } from '../src/store/migrate.js';

/** Small helpers shared by the benchmarks: timing, percentiles and the machine line. */
export function percentile(sortedMs: number[], p: number): number {
  if (sortedMs.length === 0) return NaN;
  const index = Math.min(sortedMs.length - 1, Math.max(0, Math.ceil((p / 100) * sortedMs.length) - 1));
  return sortedMs[index] as number;
}

export interface LatencySummary {
  runs: number;
  medianMs: number;
  p95Ms: number;
  p99Ms: number;
}

export async function measure(runs: number, warmup: number, work: () => Promise<unknown>): Promise<LatencySummary> {
  for (let i = 0; i < warmup; i++) await work();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    await work();
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return { runs, medianMs: round(percentile(samples, 50)), p95Ms: round(percentile(samples, 95)), p99Ms: round(percentile(samples, 99)) };
}

export const round = (value: number, digits = 2): number => Math.round(value * 10 ** digits) / 10 ** digits;

export function machineLine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.cpus().length} cores (${cpu}), ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

export function arg(name: string, fallback?: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : fallback;
}

export interface BenchDatabase {
  /** URL of the seeded database. */
  url: string;
  /** Seconds the seed took, or null when an existing database was reused. */
  seedSeconds: number | null;
  /** The superuser URL of its server. */
  adminUrl: string;
  /** `reportedSettings` as the server reports them. */
  settings: Record<string, string>;
  close(): Promise<void>;
}

/**
 * Where `--reuse` keeps the embedded server's data between runs (without it, each run's embedded
 * server lives in a temporary folder and goes with it). Delete the folder, or run without
 * `--reuse`, to start afresh; as root the cluster itself lives under the root state folder
 * (src/store/embedded.ts) and is found from this folder's path.
 */
export const benchDataDir = (): string => process.env.BENCH_DATA_DIR ?? path.join(os.tmpdir(), 'pds-bench-embedded');

/**
 * A seeded catalog database for a benchmark: on DATABASE_URL's server when set, else on the
 * embedded PostgreSQL with the settings the service would give it (`EMBEDDED_PG_*`). With
 * `reuse`, an existing database of the same name and size whose seed finished is kept (the large
 * seed takes minutes), and migrations added since are applied to it.
 */
export async function openBenchDatabase(options: {
  name: string;
  companies: number;
  people: number;
  reuse: boolean;
  log: Logger;
  /** Another server's superuser URL instead of DATABASE_URL (a side-by-side comparison). */
  adminUrl?: string;
  onProgress?: (progress: { table: string; done: number; total: number }) => void;
}): Promise<BenchDatabase> {
  let embedded: EmbeddedServer | null = null;
  let scratch: string | null = null;
  let adminUrl = options.adminUrl ?? process.env.DATABASE_URL;
  if (!adminUrl) {
    const config = loadConfig({ ...process.env, DATABASE_URL: '' });
    const dataDir = options.reuse ? benchDataDir() : (scratch = await mkdtemp(path.join(os.tmpdir(), 'pds-bench-')));
    embedded = await startEmbeddedPostgres(dataDir, options.log, { temporary: !options.reuse, settings: embeddedSettingsOf(config) });
    adminUrl = embedded.adminConnectionString;
  }
  const databaseName = `pds_bench_${options.name}_${options.companies}_${options.people}`;
  const seededMark = `seeded: ${options.companies} companies, ${options.people} people, seed 42`;
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  let seedSeconds: number | null = null;
  try {
    const existing = await admin.query<{ mark: string | null }>(
      `SELECT shobj_description(oid, 'pg_database') AS mark FROM pg_database WHERE datname = $1`,
      [databaseName],
    );
    // A seed that was interrupted leaves a database without the mark: it is seeded again.
    const reusable = options.reuse && existing.rows[0]?.mark === seededMark;
    if (!reusable) {
      if (existing.rowCount) await admin.query(`DROP DATABASE ${databaseName} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${databaseName}`);
    }
    const db = openDatabase(url.toString(), 4);
    try {
      await migrate(db.pool);
      if (!reusable) {
        const seeded = await seedCatalog(db, { companies: options.companies, people: options.people, seed: 42, onProgress: options.onProgress });
        seedSeconds = round(seeded.milliseconds / 1000, 1);
        await admin.query(`COMMENT ON DATABASE ${databaseName} IS '${seededMark}'`);
      }
    } finally {
      await db.close();
    }
  } finally {
    await admin.end();
  }
  return {
    url: url.toString(),
    seedSeconds,
    adminUrl,
    settings: await serverSettings(url.toString()),
    close: async () => {
      await embedded?.stop();
      if (scratch) await rm(scratch, { recursive: true, force: true });
    },
  };
}

/** The settings that matter for search, as the server reports them. */
export const reportedSettings = [
  'server_version', 'shared_buffers', 'effective_cache_size', 'work_mem', 'maintenance_work_mem', 'max_parallel_workers_per_gather',
  'max_parallel_workers', 'max_worker_processes', 'random_page_cost', 'effective_io_concurrency', 'max_wal_size',
];

async function serverSettings(url: string): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = (await client.query<{ name: string; setting: string }>(
      `SELECT name, current_setting(name) AS setting FROM pg_settings WHERE name = ANY($1::text[])`,
      [reportedSettings],
    )).rows;
    return Object.fromEntries(reportedSettings.map((name) => [name, rows.find((r) => r.name === name)?.setting ?? '']));
  } finally {
    await client.end();
  }
}

export interface BenchService {
  service: RunningService;
  /** Key of an enterprise account with a billion credits. */
  apiKey: string;
  stop(): Promise<void>;
}

/** The real service on a free port over a benchmark database, with limits out of the way. */
export async function startBenchService(databaseUrl: string, env: Record<string, string>, log: Logger): Promise<BenchService> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pds-bench-app-'));
  const service = await startService(
    loadConfig({
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'silent',
      SEED_ON_EMPTY: 'false',
      DEMO_CREDITS: '0',
      // One bench account drives many clients at once: the per-account caps would measure the 429 path.
      ACCOUNT_CONCURRENT_REQUESTS: '1000',
      ACCOUNT_CONCURRENT_SEARCHES: '1000',
      ...env,
    }),
    { log },
  );
  const { apiKey } = await createAccount(service.context.db, { name: 'bench', plan: 'enterprise', initialCredits: 1_000_000_000 });
  return {
    service,
    apiKey,
    stop: async () => {
      await service.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
