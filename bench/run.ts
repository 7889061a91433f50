import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { machineLine } from './lib.js';
import { readBenchmarkSections, renderBenchmarksDoc } from './report.js';

/**
 * `npm run bench`: runs each benchmark in a process of its own (so one's memory and JIT state
 * do not colour the next), keeps the Markdown each prints in bench/results/<name>.md, and
 * rewrites docs/benchmarks.md from those files. `npm run bench -- --large` adds the search, counts and typeahead benchmarks at
 * 1,000,000 companies / 10,000,000 people, on the embedded server (its data kept in BENCH_DATA_DIR
 * for the next run) or on DATABASE_URL's server; the first run seeds for 10 to 30 minutes. With
 * BENCH_COMPARE_URL (another server's superuser URL) the same seed is measured there too, side by side.
 */
const large = process.argv.includes('--large');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);

const benches: Array<{ name: string; args: string[]; env?: Record<string, string>; onlyWhenNamed?: boolean }> = [
  {
    name: 'search',
    args: ['dist/bench/search.js', '--companies', '20000', '--people', '200000'],
    env: { DATABASE_URL: '', BENCH_COMPARE_URL: '' },
  },
  {
    name: 'counts',
    args: ['dist/bench/counts.js', '--companies', '20000', '--people', '200000'],
    env: { DATABASE_URL: '', BENCH_COMPARE_URL: '' },
  },
  // Precision and recall of title filters over the demo catalog, per written form (issue 31).
  {
    name: 'relevance',
    args: ['dist/bench/relevance.js', '--companies', '20000', '--people', '200000'],
    env: { DATABASE_URL: '' },
  },
  // CPU per search_endpoints ranking, in process (issue 13: under 1 ms).
  { name: 'ranker', args: ['dist/bench/ranker.js'] },
  { name: 'mcp', args: ['dist/bench/mcp.js'] },
  // A valid key's authentication during a spray of 50,000 random keys (issue 22, item 16).
  { name: 'api-keys', args: ['dist/bench/api-keys.js'] },
  { name: 'audiences', args: ['dist/bench/audiences.js'] },
  // A primary and a streaming replica of Debian's PostgreSQL (or the embedded binaries), on this machine.
  { name: 'replicas', args: ['dist/bench/replicas.js'] },
  // 100,000 tracked people checked once through the simulated live source at 250 ms a fetch (issue 33): about an hour.
  {
    name: 'watch-lists',
    args: ['dist/bench/watch-lists.js', '--reuse'],
    env: { DATABASE_URL: '' },
    onlyWhenNamed: true,
  },
  // Seeds 1,000,000 companies (a few minutes): run with --only=state-filter.
  { name: 'state-filter', args: ['dist/bench/state-filter.js'], env: { DATABASE_URL: '' }, onlyWhenNamed: true },
];
if (large) {
  benches.push({
    name: 'search-large',
    args: ['dist/bench/search.js', '--companies', '1000000', '--people', '10000000', '--runs', '30', '--reuse'],
  });
  // The same database as search-large (it reuses it when it exists).
  benches.push({
    name: 'counts-large',
    args: ['dist/bench/counts.js', '--companies', '1000000', '--people', '10000000', '--runs', '30', '--reuse'],
  });
}

// Each benchmark's Markdown is kept in bench/results/<name>.md, so a partial run (--only=...)
// refreshes its own sections and keeps the others.
await mkdir('bench/results', { recursive: true });
for (const bench of benches) {
  if (only ? !only.split(',').includes(bench.name) : bench.onlyWhenNamed) continue;
  process.stderr.write(`\n== ${bench.name}\n`);
  const started = Date.now();
  const output = await run(bench.args, bench.env ?? {});
  const section =
    `### ${bench.name}\n\nMeasured ${new Date().toISOString()} on ${machineLine()}.\n` +
    `Command: \`${commandEnv(bench)}node ${bench.args.join(' ')}\` (${Math.round((Date.now() - started) / 1000)} s in all)\n\n${output.trim()}\n`;
  await writeFile(`bench/results/${bench.name}.md`, section);
}
await writeFile('docs/benchmarks.md', renderBenchmarksDoc(await readBenchmarkSections('bench/results')));
process.stderr.write('docs/benchmarks.md updated\n');

/** The variables that chose the servers, as a reader would set them (no passwords). */
function commandEnv(bench: { env?: Record<string, string> }): string {
  const chosen = ['DATABASE_URL', 'BENCH_COMPARE_URL'].filter((name) => process.env[name] && bench.env?.[name] !== '');
  return chosen.map((name) => `${name}=postgres://... `).join('');
}

function run(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const environment = { ...process.env, ...env };
    for (const [key, value] of Object.entries(env)) if (value === '') delete environment[key];
    const child = spawn(process.execPath, args, { env: environment, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`${args[0]} exited with ${code}`))));
  });
}
