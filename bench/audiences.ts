import { mkdir, writeFile } from 'node:fs/promises';
import { createLogger } from '../src/log.js';
import { arg, machineLine, openBenchDatabase, round, startBenchService } from './lib.js';

/**
 * Audience workflow timings through the real HTTP API and job worker, at the default dataset
 * size: building an audience of 1,000 companies and 10,000 prospects, exporting 10,000
 * prospect rows (and 1,000 company rows), and enriching 10,000 prospects' work emails and
 * phones. Each timing runs from the request to the moment a poll (every 20 ms) sees the
 * result, so it includes the queue pickup; the job's own duration is reported beside it.
 *
 *   npm run build && node dist/bench/audiences.js [--companies N] [--people M] [--runs R] [--reuse]
 *   (or: npx tsx bench/audiences.ts)
 * Uses DATABASE_URL's server when set (a fresh database is created on it), else embedded
 * PostgreSQL. Writes bench/results/audiences.json and prints a Markdown table.
 */
const companies = Number(arg('companies', '20000'));
const people = Number(arg('people', '200000'));
const runs = Number(arg('runs', '3'));
const reuse = process.argv.includes('--reuse');

const log = createLogger('warn');
const database = await openBenchDatabase({ name: 'audiences', companies, people, reuse, log });
const seedSeconds = database.seedSeconds;
const bench = await startBenchService(
  database.url,
  {
    JOB_POLL_INTERVAL_MS: '20',
    EXPORT_QUOTA_ROWS_PER_MONTH: '100000000',
    RATE_LIMIT_STATUS_PER_MINUTE: '1000000',
    RATE_LIMIT_STANDARD_PER_MINUTE: '1000000',
    RATE_LIMIT_HEAVY_PER_MINUTE: '1000000',
  },
  log,
);
const { service, apiKey } = bench;

async function call(
  method: string,
  pathName: string,
  body?: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const separator = pathName.includes('?') ? '&' : '?';
  const response = await fetch(`${service.url}${pathName}${method === 'GET' ? `${separator}apiKey=${apiKey}` : ''}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify({ apiKey, ...body }) : undefined,
  });
  const json = (await response.json()) as { output?: Record<string, unknown>; error?: unknown };
  if (response.status !== 200 || !json.output)
    throw new Error(`${method} ${pathName} answered ${response.status}: ${JSON.stringify(json.error)}`);
  return json.output;
}

async function poll(
  pathName: string,
  done: (output: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  for (;;) {
    const output = await call('GET', pathName);
    if (done(output)) return output;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const filters = { companySearchParams: {}, prospectSearchParams: {}, maxCompanies: 1000, maxProspects: 10_000 };

interface Sample {
  ms: number;
  jobMs: number;
  detail: Record<string, number>;
}

async function buildOnce(): Promise<Sample & { audienceId: string }> {
  const created = await call('POST', '/v1/audiences/create', { name: 'bench' });
  const audienceId = created.audienceId as string;
  await call('PATCH', `/v1/audiences/${audienceId}/search-params`, filters);
  const started = performance.now();
  await call('POST', `/v1/audiences/${audienceId}/build`, {});
  const status = await poll(`/v1/audiences/${audienceId}`, (o) => o.status !== 'BUILDING');
  const ms = performance.now() - started;
  if (status.status !== 'NORMAL')
    throw new Error(`build ended ${String(status.status)}: ${String(status.failureReason)}`);
  const job = await service.context.db.pool.query<{ ms: number }>(
    `SELECT extract(epoch FROM built_at - build_started_at) * 1000 AS ms FROM audiences WHERE id = $1`,
    [audienceId],
  );
  return {
    audienceId,
    ms,
    jobMs: Number(job.rows[0]?.ms),
    detail: { companies: status.numCompanies as number, prospects: status.numProspects as number },
  };
}

async function exportOnce(
  audienceId: string,
  kind: 'prospects' | 'companies',
  maxRowsToExport: number,
): Promise<Sample> {
  const started = performance.now();
  const accepted = await call('POST', `/v1/audiences/${audienceId}/export/${kind}`, { maxRowsToExport });
  const status = await poll(
    `/v1/audiences/${audienceId}/exports/${accepted.exportId as string}`,
    (o) => o.status === 'READY' || o.status === 'FAILED',
  );
  const ms = performance.now() - started;
  if (status.status !== 'READY') throw new Error(`export ${String(accepted.exportId)} FAILED`);
  const row = await service.context.db.pool.query<{ ms: number; bytes: number }>(
    `SELECT extract(epoch FROM completed_at - created_at) * 1000 AS ms, bytes FROM audience_exports WHERE id = $1`,
    [accepted.exportId],
  );
  const downloadStarted = performance.now();
  const file = await fetch(status.downloadUrl as string);
  const size = (await file.arrayBuffer()).byteLength;
  return {
    ms,
    jobMs: Number(row.rows[0]?.ms),
    detail: { rows: status.rows as number, bytes: size, downloadMs: round(performance.now() - downloadStarted, 1) },
  };
}

async function enrichOnce(audienceId: string): Promise<Sample> {
  const options = {
    runContactEnrichment: true,
    enrichmentType: { getWorkEmails: true, getPhoneNumbers: true },
    maxProspectsToEnrich: 10_000,
  };
  const estimate = await call('POST', `/v1/audiences/${audienceId}/enrichment/estimate`, options);
  const started = performance.now();
  await call('POST', `/v1/audiences/${audienceId}/enrich`, options);
  const status = await poll(
    `/v1/audiences/${audienceId}/enrichment/status`,
    (o) => o.status === 'DONE' || o.status === 'FAILED',
  );
  const ms = performance.now() - started;
  if (status.status !== 'DONE') throw new Error(`enrichment FAILED: ${String(status.failureReason)}`);
  const steps = status.steps as Array<{ startedAt: string | null; completedAt: string | null }>;
  const first = steps[0]?.startedAt ? Date.parse(steps[0].startedAt) : NaN;
  const last = steps.at(-1)?.completedAt ? Date.parse(steps.at(-1)?.completedAt as string) : NaN;
  return {
    ms,
    jobMs: last - first,
    detail: { prospects: estimate.prospectsToEnrich as number, credits: estimate.totalCredits as number },
  };
}

interface Result {
  name: string;
  runs: number;
  medianMs: number;
  minMs: number;
  maxMs: number;
  medianJobMs: number;
  detail: Record<string, number>;
}

function summarise(name: string, samples: Sample[]): Result {
  const sorted = [...samples].sort((a, b) => a.ms - b.ms);
  const jobs = samples.map((s) => s.jobMs).sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)] as Sample;
  return {
    name,
    runs: samples.length,
    medianMs: round(median.ms, 1),
    minMs: round(sorted[0]?.ms ?? NaN, 1),
    maxMs: round(sorted.at(-1)?.ms ?? NaN, 1),
    medianJobMs: round(jobs[Math.floor((jobs.length - 1) / 2)] ?? NaN, 1),
    detail: median.detail,
  };
}

try {
  const builds: Array<Sample & { audienceId: string }> = [];
  for (let i = 0; i < runs; i += 1) builds.push(await buildOnce());
  const audienceId = builds[0]?.audienceId as string;
  const prospectExports: Sample[] = [];
  const companyExports: Sample[] = [];
  for (let i = 0; i < runs; i += 1)
    prospectExports.push(await exportOnce(builds[i]?.audienceId ?? audienceId, 'prospects', 10_000));
  for (let i = 0; i < runs; i += 1)
    companyExports.push(await exportOnce(builds[i]?.audienceId ?? audienceId, 'companies', 10_000));
  // Enrichment changes what a later estimate charges, so each run uses an audience of its own.
  const enrichments: Sample[] = [];
  for (let i = 0; i < runs; i += 1) enrichments.push(await enrichOnce(builds[i]?.audienceId ?? audienceId));
  const enrichedExports: Sample[] = [];
  for (let i = 0; i < runs; i += 1)
    enrichedExports.push(await exportOnce(builds[i]?.audienceId ?? audienceId, 'prospects', 10_000));

  const results = [
    summarise('Build an audience (NORMAL: 1,000 companies, then 10,000 prospects at them)', builds),
    summarise('Export 10,000 prospects to CSV (before enrichment)', prospectExports),
    summarise('Export 1,000 companies to CSV', companyExports),
    summarise('Enrich 10,000 prospects (work emails + phones through the waterfall)', enrichments),
    summarise('Export 10,000 enriched prospects to CSV', enrichedExports),
  ];
  const report = {
    measuredAt: new Date().toISOString(),
    machine: machineLine(),
    dataset: { companies, people, seedSeconds },
    runs,
    results,
  };
  await mkdir('bench/results', { recursive: true });
  await writeFile('bench/results/audiences.json', `${JSON.stringify(report, null, 2)}\n`);

  const lines = [
    `Dataset: ${companies.toLocaleString('en')} companies, ${people.toLocaleString('en')} people${seedSeconds === null ? '' : ` (seeded in ${seedSeconds} s)`}; ${runs} runs each, median shown.`,
    "End to end: from the request to the poll (every 20 ms) that sees the result. Job: the worker's own time, from the database timestamps.",
    '',
    '| Operation | End to end, median (min–max) | Job | Result |',
    '|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.name} | ${r.medianMs} ms (${r.minMs}–${r.maxMs}) | ${r.medianJobMs} ms | ${Object.entries(r.detail)
          .map(([k, v]) => `${k} ${v.toLocaleString('en')}`)
          .join(', ')} |`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await bench.stop();
  await database.close();
}
