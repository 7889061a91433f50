import pg from 'pg';
import { companyConditions } from '../src/core/search/company-search.js';
import type { CompanySearchParams } from '../operations/schemas/filters.js';
import { createLogger } from '../src/log.js';
import { arg, machineLine, openBenchDatabase, percentile, round } from './lib.js';

/**
 * The headquartersStateName filter with and without the index it can use (migration 050), at a
 * size where a full read shows: the query the company search runs for a page of 25, timed on
 * the database connection (no HTTP), then again after dropping the index.
 *
 *   node dist/bench/state-filter.js [--companies 1000000] [--runs 25]
 */
const companies = Number(arg('companies', '1000000'));
const runs = Number(arg('runs', '25'));
const database = await openBenchDatabase({
  name: 'state',
  companies,
  people: 1_000,
  reuse: false,
  log: createLogger('warn'),
});
const client = new pg.Client({ connectionString: database.url, options: '-c jit=off' });
await client.connect();

const states = (
  await client.query<{ state_name: string; n: number }>(
    'SELECT state_name, count(*)::int AS n FROM companies WHERE state_name IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1',
  )
).rows;
const rare = states.at(-1) as { state_name: string; n: number };
const middling = states[Math.floor(states.length / 2)] as { state_name: string; n: number };

async function medianMs(searchParams: CompanySearchParams): Promise<number> {
  const sql = await companyConditions(client, 0, { searchParams });
  sql.add('c.id > 0');
  const query = `SELECT c.* FROM companies c ${sql.where()} ORDER BY c.id LIMIT 26`;
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    await client.query(query, sql.params);
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return round(
    percentile(
      samples.sort((a, b) => a - b),
      50,
    ),
  );
}

const cases: Array<[string, CompanySearchParams]> = [
  [`rare state (${rare.state_name}, ${rare.n} companies)`, { headquartersStateName: [rare.state_name] }],
  [
    `middling state (${middling.state_name}, ${middling.n} companies)`,
    { headquartersStateName: [middling.state_name] },
  ],
  [`country US + the rare state`, { headquartersCountryCode: ['US'], headquartersStateName: [rare.state_name] }],
];
const withIndex: number[] = [];
for (const [, params] of cases) withIndex.push(await medianMs(params));
await client.query('DROP INDEX companies_state_lower');
const withoutIndex: number[] = [];
for (const [, params] of cases) withoutIndex.push(await medianMs(params));
await client.end();
await database.close();

process.stdout.write(
  [
    `#### State filter, ${companies.toLocaleString('en')} companies (page of 25, query on the connection, ${runs} runs; ${machineLine()})`,
    '',
    '| filter | with companies_state_lower, median ms | without it, median ms |',
    '|---|---:|---:|',
    ...cases.map(([label], i) => `| ${label} | ${withIndex[i]} | ${withoutIndex[i]} |`),
    '',
  ].join('\n') + '\n',
);
