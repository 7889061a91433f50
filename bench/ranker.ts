import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { searchEndpoints } from '../src/mcp/search.js';
import { arg, percentile, round } from './lib.js';

/**
 * What search_endpoints' ranker costs (issue 23: a start of at most 200 ms and 20 MB of heap, at most 100 µs of CPU per
 * search, median).
 *
 * The start: `bench/ranker-load.ts` in a fresh process, several times: importing search_endpoints' module and reading the
 * model, then one search. CPU per search: every phrasing of the evaluation sets (data/ranker/evaluation/*.jsonl), searched once a round
 * through `searchEndpoints` (ranking, filtering, the recommendations); a round's CPU (user + system, `process.cpuUsage`)
 * over its searches is one sample.
 *
 * CPU time on a shared virtual machine only grows with what else runs, so beside each round a fixed yardstick (sorting
 * the same 20,000 numbers 20 times) is timed in turn: the ratio of the two says how the ranker fares whatever speed the
 * machine ran at that day.
 *
 *   node dist/bench/ranker.js [--rounds R] [--starts S]
 */
const rounds = Number(arg('rounds', '15'));
const starts = Number(arg('starts', '7'));
const here = path.dirname(fileURLToPath(import.meta.url));
// The evaluation sets are in the repository only (never in dist/): from bench/ or from dist/bench/.
const evalDir = [
  path.resolve(here, '../data/ranker/evaluation'),
  path.resolve(here, '../../data/ranker/evaluation'),
].find(existsSync);
if (!evalDir) throw new Error('the evaluation sets (data/ranker/evaluation/) are not there');
const queries = readdirSync(evalDir)
  .filter((name) => name.endsWith('.jsonl'))
  .flatMap((name) => readFileSync(path.join(evalDir, name), 'utf8').split('\n'))
  .filter((line) => line.trim() !== '')
  .map((line) => (JSON.parse(line) as { query: string }).query);

const loads = Array.from({ length: starts }, () => {
  const line = execFileSync(process.execPath, ['--expose-gc', path.join(here, 'ranker-load.js')], { encoding: 'utf8' });
  return JSON.parse(line) as { wallMs: number; cpuMs: number; heapMB: number; arrayBuffersMB: number };
});

const cpuMicroseconds = (work: () => void): number => {
  const started = process.cpuUsage();
  work();
  const used = process.cpuUsage(started);
  return used.user + used.system;
};
const searchAll = () => {
  for (const query of queries) searchEndpoints(query);
};
const numbers = Array.from({ length: 20_000 }, (_, index) => (index * 7_919) % 20_011);
let checksum = 0;
const yardstick = () => {
  for (let repeat = 0; repeat < 20; repeat += 1) checksum += [...numbers].sort((a, b) => a - b)[repeat] ?? 0;
};

// The first searches read the model and warm the JIT; they are not what a search costs.
searchAll();
searchAll();
yardstick();
const perSearch: number[] = [];
const yardsticks: number[] = [];
for (let round = 0; round < rounds; round += 1) {
  perSearch.push(cpuMicroseconds(searchAll) / queries.length);
  yardsticks.push(cpuMicroseconds(yardstick));
}
if (checksum < 0) process.stderr.write('unreachable\n');

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const row = (name: string, values: number[], digits: number) => {
  const ordered = sorted(values);
  return `| ${name} | ${round(percentile(ordered, 50), digits)} | ${round(ordered[0] ?? NaN, digits)} | ${round(ordered.at(-1) ?? NaN, digits)} |`;
};
const medianSearch = percentile(sorted(perSearch), 50);
const medianYardstick = percentile(sorted(yardsticks), 50);

process.stdout.write(
  [
    `${starts} starts in fresh processes; ${queries.length} phrasings (the evaluation sets) searched once a round, ${rounds} rounds, CPU of this process.`,
    '',
    '| measure | median | least | most |',
    '|---|---:|---:|---:|',
    row(
      'start: CPU (ms)',
      loads.map((load) => load.cpuMs),
      0,
    ),
    row(
      'start: wall (ms)',
      loads.map((load) => load.wallMs),
      0,
    ),
    row(
      'start: heap kept after GC (MB)',
      loads.map((load) => load.heapMB),
      1,
    ),
    row(
      'start: array buffers kept (MB)',
      loads.map((load) => load.arrayBuffersMB),
      1,
    ),
    row('CPU per search (µs)', perSearch, 0),
    row(
      'yardstick: 20 sorts of 20,000 numbers (ms)',
      yardsticks.map((value) => value / 1000),
      2,
    ),
    '',
    `Issue 23's targets: a start of at most 200 ms and 20 MB of heap, at most 100 µs of CPU per search. Median search per yardstick: ${round(medianSearch / medianYardstick, 5)}.`,
    '',
  ].join('\n'),
);
