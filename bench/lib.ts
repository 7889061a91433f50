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
import { startEmbeddedPostgres, type EmbeddedServer } from '../src/store/embedded.js';
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
  close(): Promise<void>;
}

/**
 * A seeded catalog database for a benchmark: on DATABASE_URL's server when set, else on an
 * embedded PostgreSQL in a temporary folder. With `reuse`, an existing database of the same
 * name and size is kept (the large seed takes minutes).
 */
export async function openBenchDatabase(options: {
  name: string;
  companies: number;
  people: number;
  reuse: boolean;
  log: Logger;
  onProgress?: (progress: { table: string; done: number; total: number }) => void;
}): Promise<BenchDatabase> {
  let embedded: EmbeddedServer | null = null;
  let scratch: string | null = null;
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    scratch = await mkdtemp(path.join(os.tmpdir(), 'pds-bench-'));
    embedded = await startEmbeddedPostgres(scratch, options.log, { temporary: true });
    adminUrl = embedded.adminConnectionString;
  }
  const databaseName = `pds_bench_${options.name}_${options.companies}_${options.people}`;
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  let seedSeconds: number | null = null;
  try {
    const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [databaseName])).rowCount === 1;
    if (!exists || !options.reuse) {
      if (exists) await admin.query(`DROP DATABASE ${databaseName} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${databaseName}`);
      const db = openDatabase(url.toString(), 4);
      try {
        await migrate(db.pool);
        const seeded = await seedCatalog(db, { companies: options.companies, people: options.people, seed: 42, onProgress: options.onProgress });
        seedSeconds = round(seeded.milliseconds / 1000, 1);
      } finally {
        await db.close();
      }
    }
  } finally {
    await admin.end();
  }
  return {
    url: url.toString(),
    seedSeconds,
    close: async () => {
      await embedded?.stop();
      if (scratch) await rm(scratch, { recursive: true, force: true });
    },
  };
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
