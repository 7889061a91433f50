import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A test waits for what it needs (a worker's `settled`, a row's state, a log line), never for a fixed time: a fixed
 * wait is too short on a loaded machine and too long on an idle one. This file fails when a wait of 500 ms or more
 * comes back into test/. Short poll intervals inside a wait-for-condition helper stay, as do a fake server's reply
 * delay (the slow upstream is the input of its test) and pg_sleep (a load on the database, not a wait of the test).
 */
const limitMs = 500;
const thisFile = fileURLToPath(import.meta.url);
const testRoot = path.resolve(path.dirname(thisFile), '..');

/** Where `source` waits a fixed time of at least `limitMs`: `setTimeout(resolve, 1500)`, `sleep(2_000)`, `pause(600)`. */
export function fixedSleeps(source: string): string[] {
  const found: string[] = [];
  const calls = [
    // A timer whose callback is a bare function reference resolves a promise: `new Promise((r) => setTimeout(r, ms))`.
    /\bsetTimeout\(\s*[A-Za-z_$][\w$]*\s*,([^;\n]*)/g,
    // node:timers/promises' setTimeout(ms), and the usual names of a sleep.
    /\bsetTimeout\(\s*(\d[\d_]*)\s*[,)]/g,
    /(?<![\w$])(?:sleep|delay|pause|wait)\(\s*([^,)]*)/g,
  ];
  for (const pattern of calls) {
    for (const match of source.matchAll(pattern)) {
      const literals = (match[1] ?? '').match(/\d[\d_]*(?:\.\d+)?/g) ?? [];
      if (literals.some((literal) => Number(literal.replaceAll('_', '')) >= limitMs)) found.push(match[0].trim());
    }
  }
  return found;
}

function sourcesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourcesUnder(full);
    return /\.(ts|js|mjs)$/.test(entry.name) && full !== thisFile ? [full] : [];
  });
}

describe('fixed sleeps in tests', () => {
  it('are recognised in their usual forms, and waits for a condition are not', () => {
    expect(fixedSleeps('await new Promise((resolve) => setTimeout(resolve, 1500));')).toHaveLength(1);
    expect(fixedSleeps('await new Promise((resolve) =>\n  setTimeout(resolve, 1_000),\n);')).toHaveLength(1);
    expect(fixedSleeps('await new Promise((r) => setTimeout(r, Math.max(0, at - Date.now()) + 1100));')).toHaveLength(
      1,
    );
    expect(fixedSleeps("import { setTimeout } from 'node:timers/promises';\nawait setTimeout(2_000);")).toHaveLength(1);
    expect(fixedSleeps('await sleep(500);')).toHaveLength(1);
    expect(fixedSleeps('await run.pause(2500);')).toHaveLength(1);
    expect(fixedSleeps('await delay(60_000)')).toHaveLength(1);
    expect(fixedSleeps('await new Promise((resolve) => setTimeout(resolve, 50));')).toEqual([]);
    expect(fixedSleeps('await new Promise((resolve) => setTimeout(resolve, intervalMs));')).toEqual([]);
    expect(fixedSleeps("const timer = setTimeout(() => reject(new Error('never came')), 30_000);")).toEqual([]);
    expect(fixedSleeps("await db.query('SELECT pg_sleep(2)');")).toEqual([]);
    expect(fixedSleeps("await waitFor('the job', async () => done, 10_000);")).toEqual([]);
  });

  it(`are not in test/: nothing waits ${limitMs} ms or more for nothing`, () => {
    const files = sourcesUnder(testRoot);
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((file) =>
      fixedSleeps(readFileSync(file, 'utf8')).map((sleep) => `${path.relative(testRoot, file)}: ${sleep}`),
    );
    expect(found).toEqual([]);
  });
});
