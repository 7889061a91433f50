import { spawn } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScratchService } from './scratch-service.js';

/**
 * Runs `conformance server` (the official MCP conformance suite) against /mcp of a freshly
 * started service, with the not-applicable scenarios of scripts/mcp-conformance/not-applicable.yml
 * as its baseline. Exits non-zero when an applicable scenario fails or a listed one starts passing.
 * Started by scripts/mcp-conformance.sh, which installs the suite and Node 22 first.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tools = path.join(root, 'scripts', 'mcp-conformance');
const node22 = path.join(tools, 'node_modules', '.bin', 'node');
const suite = path.join(tools, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const baseline = path.join(tools, 'not-applicable.yml');
/** The suite runs its 30 scenarios in a minute or two; one that hangs must fail the run, not hold CI. */
const suiteTimeLimitMs = 10 * 60_000;

const { service, scratch, apiKey, stop } = await startScratchService('conformance', { SEED_ON_EMPTY: 'false' });

let exitCode: number;
try {
  const resultsDir = path.join(scratch, 'results');
  exitCode = await run(
    node22,
    [
      '--import',
      path.join(tools, 'preload.mjs'),
      suite,
      'server',
      '--url',
      `${service.url}/mcp`,
      '--expected-failures',
      baseline,
      '-o',
      resultsDir,
    ],
    { ...process.env, MCP_CONFORMANCE_API_KEY: apiKey },
  );
  const notApplicable = new Set(
    (await readFile(baseline, 'utf8'))
      .split('\n')
      .map((line) => /^\s*-\s*([\w-]+)\s*$/.exec(line)?.[1])
      .filter((name): name is string => Boolean(name)),
  );
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const lines: string[] = [];
  for (const folder of (await readdir(resultsDir)).sort()) {
    const scenario = folder.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T.*$/, '');
    const checks = JSON.parse(await readFile(path.join(resultsDir, folder, 'checks.json'), 'utf8')) as {
      status: string;
    }[];
    const ok = !checks.some((c) => c.status === 'FAILURE' || c.status === 'WARNING');
    if (notApplicable.has(scenario)) {
      if (ok) failed += 1;
      else skipped += 1;
      lines.push(`${ok ? 'STALE' : 'n/a  '} ${scenario}`);
    } else {
      if (ok) passed += 1;
      else failed += 1;
      lines.push(`${ok ? 'pass ' : 'FAIL '} ${scenario}`);
    }
  }
  process.stdout.write(
    `\nMCP conformance against ${service.url}/mcp (n/a: see scripts/mcp-conformance/not-applicable.yml)\n${lines.join('\n')}\n`,
  );
  process.stdout.write(`conformance: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  if (failed > 0 && exitCode === 0) exitCode = 1;
} finally {
  await stop();
}
process.exit(exitCode);

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'inherit', 'inherit'] });
    const timer = setTimeout(() => {
      process.stderr.write(`the conformance suite ran past ${suiteTimeLimitMs / 60_000} minutes: stopped\n`);
      child.kill('SIGKILL');
    }, suiteTimeLimitMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code ?? 1);
    });
  });
}
