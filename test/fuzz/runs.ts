import type fc from 'fast-check';

/**
 * Seeds and counts of the fuzz runs. Every run prints its seed; `FUZZ_SEED=<seed>` replays the
 * same cases (with `npx vitest run <file>`), and fast-check's own failure report adds the path to
 * the shrunk counterexample. `FUZZ_RUNS_FACTOR` scales every count (2 doubles them, for a long
 * run by hand; CI runs the counts as written, more than 10,000 cases across the files).
 */
const factor = Number(process.env.FUZZ_RUNS_FACTOR ?? '1');

export function runsOf(count: number): number {
  return Math.max(1, Math.round(count * (Number.isFinite(factor) && factor > 0 ? factor : 1)));
}

export function fuzzParameters(file: string, property: string, numRuns: number): fc.Parameters<unknown> {
  const fixed = process.env.FUZZ_SEED;
  const seed = fixed !== undefined && fixed !== '' ? Number(fixed) : Math.floor(Math.random() * 2 ** 31);
  const runs = runsOf(numRuns);
  process.stdout.write(
    `[fuzz] ${file} / ${property}: ${runs} cases, seed ${seed} (replay: FUZZ_SEED=${seed} npx vitest run ${file})\n`,
  );
  // Shrinking against a live service repeats requests for minutes; the failing case itself (and its seed) is what a fix needs.
  return { seed, numRuns: runs, endOnFailure: true };
}
