import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Agent, request } from 'undici';
import { loadConfig } from '../src/config.js';
import { createAccount } from '../src/core/accounts.js';
import type { Logger } from '../src/log.js';
import { seedCatalog } from '../src/seed/load.js';
import { startService, type RunningService } from '../src/service.js';
import { openDatabase } from '../src/store/db.js';
import { embeddedSettingsOf, startEmbeddedPostgres, type EmbeddedServer } from '../src/store/embedded.js';
import { migrate } from '../src/store/migrate.js';
import { fillTitleTerms } from '../src/seed/title-terms.js';

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
  return {
    runs,
    medianMs: round(percentile(samples, 50)),
    p95Ms: round(percentile(samples, 95)),
    p99Ms: round(percentile(samples, 99)),
  };
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
    embedded = await startEmbeddedPostgres(dataDir, options.log, {
      temporary: !options.reuse,
      settings: embeddedSettingsOf(config),
    });
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
      // A database seeded before migration 150 gets its titles read as words here, where a long
      // fill is part of preparing, rather than in the measured service's start.
      // Vacuumed after a fill, as autovacuum would do later, so that index-only scans are measured as they run.
      if (reusable && (await fillTitleTerms(db)) > 0) await db.pool.query('VACUUM (ANALYZE) people');
      if (!reusable) {
        const seeded = await seedCatalog(db, {
          companies: options.companies,
          people: options.people,
          seed: 42,
          onProgress: options.onProgress,
        });
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
  'server_version',
  'shared_buffers',
  'effective_cache_size',
  'work_mem',
  'maintenance_work_mem',
  'max_parallel_workers_per_gather',
  'max_parallel_workers',
  'max_worker_processes',
  'random_page_cost',
  'effective_io_concurrency',
  'max_wal_size',
];

async function serverSettings(url: string): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = (
      await client.query<{ name: string; setting: string }>(
        `SELECT name, current_setting(name) AS setting FROM pg_settings WHERE name = ANY($1::text[])`,
        [reportedSettings],
      )
    ).rows;
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
export async function startBenchService(
  databaseUrl: string,
  env: Record<string, string>,
  log: Logger,
): Promise<BenchService> {
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
  const { apiKey } = await createAccount(service.context.db, {
    name: 'bench',
    plan: 'enterprise',
    initialCredits: 1_000_000_000,
  });
  return {
    service,
    apiKey,
    stop: async () => {
      await service.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Fixtures {
  /** Domains of large companies: a target-account list for currentCompanies. */
  largeDomains: string[];
  /** Domains of three mid-sized software companies: the seeds of findSimilarCompanies. */
  seedDomains: string[];
  /** Profile slugs of three engineers at companies of the catalog: the seeds of findSimilarPeople. */
  seedProfiles: string[];
  companyListId: string;
  prospectListId: string;
}

export interface BenchTarget {
  name: string;
  database: BenchDatabase;
  bench: BenchService;
  agent: Agent;
  fixtures: Fixtures;
}

/**
 * A benchmark's server: its seeded database (the shared search catalog), the real service over it,
 * a keep-alive client, and fixtures from the catalog. `adminUrl` unset: DATABASE_URL's server, else
 * the embedded one.
 */
export async function openBenchTarget(
  adminUrl: string | undefined,
  size: { companies: number; people: number; reuse: boolean },
  log: Logger,
): Promise<BenchTarget> {
  let lastShown = 0;
  const database = await openBenchDatabase({
    name: 'search',
    ...size,
    log,
    ...(adminUrl ? { adminUrl } : {}),
    onProgress: ({ table, done, total }) => {
      if (Date.now() - lastShown > 10_000 || done === total) {
        lastShown = Date.now();
        process.stderr.write(`  seeding ${table}: ${done}/${total}\n`);
      }
    },
  });
  const bench = await startBenchService(
    database.url,
    { RATE_LIMIT_SEARCH_PER_MINUTE: '1000000', RATE_LIMIT_STANDARD_PER_MINUTE: '1000000', JOB_WORKER: 'false' },
    log,
  );
  const agent = new Agent({ connections: 4, keepAliveTimeout: 30_000 });
  const embedded = !adminUrl && !process.env.DATABASE_URL;
  const name =
    `${embedded ? 'embedded' : 'server'} PostgreSQL ${database.settings.server_version?.split(' ')[0] ?? ''}`.trim();
  const target: BenchTarget = {
    name,
    database,
    bench,
    agent,
    fixtures: { largeDomains: [], seedDomains: [], seedProfiles: [], companyListId: '', prospectListId: '' },
  };
  target.fixtures = await makeFixtures(target);
  return target;
}

/**
 * From the catalog itself, so that they match at any size: a target-account list, and exclusion
 * lists as a CRM would give them (2,000 companies and 5,000 people spread over the matches of the
 * filters they are used with, so that a search has to step over them).
 */
async function makeFixtures(target: BenchTarget): Promise<Fixtures> {
  const catalog = new pg.Client({ connectionString: target.database.url });
  await catalog.connect();
  try {
    const largeDomains = (
      await catalog.query<{ domain: string }>(
        `SELECT domains[1] AS domain FROM companies WHERE cardinality(domains) > 0 AND employee_count_min >= 1000 ORDER BY id LIMIT 25`,
      )
    ).rows.map((r) => r.domain);
    const seedDomains = (
      await catalog.query<{ domain: string }>(
        `SELECT domains[1] AS domain FROM companies
        WHERE cardinality(domains) > 0 AND employee_count_min BETWEEN 51 AND 200
          AND standard_industries && '{software-development}'::text[]
        ORDER BY id LIMIT 3`,
      )
    ).rows.map((r) => r.domain);
    const seedProfiles = (
      await catalog.query<{ slug: string }>(
        `SELECT network_slug AS slug FROM people
        WHERE network_slug IS NOT NULL AND company_id IS NOT NULL AND job_function = 'engineering'
        ORDER BY id LIMIT 3`,
      )
    ).rows.map((r) => r.slug);
    const excludedCompanies = (
      await catalog.query<{ domain: string }>(
        `SELECT domains[1] AS domain FROM companies
        WHERE cardinality(domains) > 0 AND country_code = ANY('{US,GB,DE}'::bpchar[]) AND employee_count_min >= 201 AND id % 7 = 0
        ORDER BY id LIMIT 2000`,
      )
    ).rows.map((r) => ({ domain: r.domain }));
    const excludedPeople = (
      await catalog.query<{ slug: string }>(
        `SELECT network_slug AS slug FROM people
        WHERE network_slug IS NOT NULL AND country3 = 'USA' AND title ILIKE ANY('{%VP%,%Director%,%Head of%}'::text[]) AND id % 5 = 0
        ORDER BY id LIMIT 5000`,
      )
    ).rows.map((r) => r.slug);
    const companyList = await benchPost<{ exclusionListId: string }>(target, '/v1/exclusion-lists', {
      name: 'CRM accounts',
      kind: 'companies',
      companies: excludedCompanies,
    });
    const prospectList = await benchPost<{ exclusionListId: string }>(target, '/v1/exclusion-lists', {
      name: 'Contacted',
      kind: 'prospects',
      prospects: excludedPeople,
    });
    return {
      largeDomains,
      seedDomains,
      seedProfiles,
      companyListId: companyList.exclusionListId,
      prospectListId: prospectList.exclusionListId,
    };
  } finally {
    await catalog.end();
  }
}

export async function benchPost<T>(target: BenchTarget, pathName: string, body: Record<string, unknown>): Promise<T> {
  const response = await request(`${target.bench.service.url}${pathName}`, {
    method: 'POST',
    dispatcher: target.agent,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey: target.bench.apiKey, ...body }),
  });
  const json = (await response.body.json()) as { output?: T; error?: unknown };
  if (response.statusCode !== 200 || !json.output)
    throw new Error(`${pathName} answered ${response.statusCode}: ${JSON.stringify(json.error)}`);
  return json.output;
}

export interface Latency {
  medianMs: number;
  p95Ms: number;
}

/** Every target's calls in turn, `iterations` rounds after 3 warm-up rounds. */
export async function measureInTurn(
  works: Array<(() => Promise<unknown>) | null>,
  iterations: number,
): Promise<Array<Latency | null>> {
  const samples: number[][] = works.map(() => []);
  for (let turn = -3; turn < iterations; turn++) {
    for (const [index, work] of works.entries()) {
      if (!work) continue;
      const started = process.hrtime.bigint();
      await work();
      if (turn >= 0) samples[index]?.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  }
  return works.map((work, index) => {
    if (!work) return null;
    const sorted = (samples[index] ?? []).sort((a, b) => a - b);
    return { medianMs: round(percentile(sorted, 50)), p95Ms: round(percentile(sorted, 95)) };
  });
}
