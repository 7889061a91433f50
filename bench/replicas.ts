import { Agent, request } from 'undici';
import { createLogger } from '../src/log.js';
import { seedCatalog } from '../src/seed/load.js';
import { openDatabase } from '../src/store/db.js';
import { migrate } from '../src/store/migrate.js';
import { startReplicatedPair } from './replication.js';
import { arg, measure, round, startBenchService, type BenchService } from './lib.js';

/**
 * Search through a streaming replica next to the same search on the primary alone, in one run
 * on one machine: both servers share the same two cores, so this shows what the routing costs,
 * not what a replica on its own machine would gain.
 *
 *   node dist/bench/replicas.js [--companies N] [--people M] [--runs R]
 */
const companies = Number(arg('companies', '20000'));
const people = Number(arg('people', '200000'));
const runs = Number(arg('runs', '200'));
const log = createLogger('warn');

const pair = await startReplicatedPair('pds_bench_replicas', async (url) => {
  const db = openDatabase(url, 4);
  try {
    await migrate(db.pool);
    await seedCatalog(db, { companies, people, seed: 42 });
  } finally {
    await db.close();
  }
});
const env = { RATE_LIMIT_SEARCH_PER_MINUTE: '100000000', JOB_WORKER: 'false' };
let primaryOnly: BenchService | null = null;
let withReplica: BenchService | null = null;
const agent = new Agent({ connections: 4, keepAliveTimeout: 30_000 });
try {
  primaryOnly = await startBenchService(pair.primary.url, env, log);
  withReplica = await startBenchService(pair.primary.url, { ...env, DATABASE_REPLICA_URLS: pair.replica.url }, log);
  const search = (bench: BenchService, body: Record<string, unknown>) => async () => {
    const response = await request(`${bench.service.url}/v1/people-search`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: bench.apiKey, ...body }),
    });
    await response.body.text();
    if (response.statusCode !== 200) throw new Error(`people search answered ${response.statusCode}`);
  };
  const queries = [
    {
      name: 'title include + exclude, 3 countries, experience, page of 25',
      body: {
        pageSize: 25,
        searchParams: {
          jobTitleV2: { included: ['Engineer'], excluded: ['Intern'] },
          country3LetterCode: ['USA', 'GBR', 'DEU'],
          yearsOfExperience: { min: 3, max: 20 },
        },
      },
    },
    {
      name: 'tag decision-maker, country USA, page of 1000',
      body: { pageSize: 1000, searchParams: { tags: { anyOf: ['decision-maker'] }, country3LetterCode: ['USA'] } },
    },
  ];
  const rows: string[] = [];
  for (const query of queries) {
    const iterations = query.body.pageSize === 1000 ? Math.max(20, Math.floor(runs / 4)) : runs;
    // Alternating blocks, so both see the same machine.
    const primary = [];
    const replica = [];
    for (let block = 0; block < 4; block += 1) {
      primary.push(await measure(Math.ceil(iterations / 4), 3, search(primaryOnly, query.body)));
      replica.push(await measure(Math.ceil(iterations / 4), 3, search(withReplica, query.body)));
    }
    const median = (list: Array<{ medianMs: number }>) =>
      round(list.map((l) => l.medianMs).sort((a, b) => a - b)[Math.floor(list.length / 2)] as number);
    const p = median(primary);
    const r = median(replica);
    rows.push(`| ${query.name} | ${p} | ${r} | ${round(r / p)} |`);
  }
  const reads = withReplica.service.context.db.replicas?.status()[0]?.reads ?? 0;
  process.stdout.write(
    [
      `People search through the REST API at ${companies.toLocaleString('en')} companies / ${people.toLocaleString('en')} people, Debian's PostgreSQL`,
      `(${pair.method} replica on the same machine), ${runs} runs per cell in four alternating blocks (median of the block medians).`,
      '',
      '| query | primary only, p50 ms | through the replica, p50 ms | ratio |',
      '|---|---:|---:|---:|',
      ...rows,
      '',
      `Reads the replica served in the replica run: ${reads}.`,
      '',
    ].join('\n'),
  );
} finally {
  await withReplica?.stop();
  await primaryOnly?.stop();
  await agent.close();
  await pair.close();
}
