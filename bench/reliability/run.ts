import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { machineLine } from '../lib.js';

/**
 * `npm run reliability`: each scenario in a process of its own, bounded in count and time, on
 * loopback. Each prints its Markdown section and exits non-zero when a property it checks does
 * not hold. The sections are kept in bench/results/reliability-<name>.md and gathered into
 * RELIABILITY.md. `--ci` runs every scenario with reduced counts (what CI runs); `--only=a,b` and `--skip=a,b` choose.
 */
const ci = process.argv.includes('--ci');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
/** Scenarios left out (CI runs the failover scenario in a step of its own, after installing its packages). */
const skip = process.argv.find((a) => a.startsWith('--skip='))?.slice('--skip='.length);

const scenarios: Array<{ name: string; title: string; script: string }> = [
  {
    name: 'flood',
    title: 'One account flooding, another account searching',
    script: 'dist/bench/reliability/flood.js',
  },
  {
    name: 'charges',
    title: 'Concurrent charged calls on a balance that pays for a third of them',
    script: 'dist/bench/reliability/charges.js',
  },
  {
    name: 'restarts',
    title: 'Killed with SIGKILL in the middle of its jobs, and started again',
    script: 'dist/bench/reliability/restarts.js',
  },
  {
    name: 'outage',
    title: 'The database stopped for 10 seconds under load, and started again',
    script: 'dist/bench/reliability/outage.js',
  },
  { name: 'abuse', title: 'Slow and abusive clients', script: 'dist/bench/reliability/abuse.js' },
  {
    name: 'failover',
    title: "A cluster on Patroni: the leader's PostgreSQL killed under charged load, then a service instance",
    script: 'dist/bench/reliability/failover.js',
  },
  {
    name: 'webhooks',
    title: 'Webhooks through a receiver that goes down and a service killed with SIGKILL mid-delivery',
    script: 'dist/bench/reliability/webhooks.js',
  },
  {
    name: 'watch-lists',
    title: 'Watch-list checks on a fast network clock, the service killed with SIGKILL mid-batch',
    script: 'dist/bench/reliability/watch-lists.js',
  },
];

await mkdir('bench/results', { recursive: true });
let failed = false;
for (const scenario of scenarios) {
  if (only && !only.split(',').includes(scenario.name)) continue;
  if (skip?.split(',').includes(scenario.name)) continue;
  process.stderr.write(`\n== ${scenario.name}\n`);
  const started = Date.now();
  const args = [scenario.script, ...(ci ? ['--ci'] : [])];
  const { output, code } = await run(args);
  if (code !== 0) failed = true;
  const section =
    `### ${scenario.title}\n\nMeasured ${new Date().toISOString()} on ${machineLine()}${ci ? ' (reduced counts, as in CI)' : ''}.\n` +
    `Command: \`npm run reliability -- --only=${scenario.name}${ci ? ' --ci' : ''}\` (${Math.round((Date.now() - started) / 1000)} s)` +
    `${code === 0 ? '' : ' — **a property did not hold** (see stderr of the run)'}\n\n${output.trim()}\n`;
  process.stdout.write(`${section}\n`);
  if (!ci) await writeFile(`bench/results/reliability-${scenario.name}.md`, section);
}
if (!ci) {
  const sections: string[] = [];
  for (const scenario of scenarios) {
    const section = await readFile(`bench/results/reliability-${scenario.name}.md`, 'utf8').catch(() => null);
    if (section) sections.push(section);
  }
  const marker = '<!-- measured:start -->';
  const endMarker = '<!-- measured:end -->';
  const previous = await readFile('RELIABILITY.md', 'utf8').catch(() => `# Reliability\n\n${marker}\n${endMarker}\n`);
  const head = previous.slice(0, previous.indexOf(marker) + marker.length);
  const tail = previous.slice(previous.indexOf(endMarker));
  await writeFile('RELIABILITY.md', `${head}\n${sections.join('\n')}\n${tail}`);
  process.stderr.write('RELIABILITY.md updated\n');
}
if (failed) process.exit(1);

function run(args: string[]): Promise<{ output: string; code: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    // A stop asked of the runner (Ctrl-C, CI's time limit) reaches the scenario, which cleans up what it started.
    const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
    const onInt = forward('SIGINT');
    const onTerm = forward('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    child.on('exit', () => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ output, code: code ?? 1 }));
  });
}
