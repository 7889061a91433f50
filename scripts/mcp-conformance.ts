import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { generateApiKey } from '../src/auth/api-keys.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/log.js';
import { startService } from '../src/service.js';

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

const scratch = await mkdtemp(path.join(os.tmpdir(), 'pds-conformance-'));
let databaseUrl: string | undefined;
let dropDatabase: (() => Promise<void>) | null = null;
if (process.env.DATABASE_URL) {
  const adminUrl = process.env.DATABASE_URL;
  const name = `pds_conformance_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  databaseUrl = url.toString();
  dropDatabase = async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  };
}

const apiKey = generateApiKey();
const service = await startService(
  loadConfig({
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    DATA_DIR: path.join(scratch, 'data'),
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'silent',
    SEED_ON_EMPTY: 'false',
    DEMO_API_KEY: apiKey,
    JOB_WORKER: 'false',
  }),
  // As root the embedded cluster lives outside DATA_DIR: remove it with the scratch folder.
  { log: createLogger('silent'), temporaryDatabase: true },
);

let exitCode: number;
try {
  const resultsDir = path.join(scratch, 'results');
  exitCode = await run(
    node22,
    ['--import', path.join(tools, 'preload.mjs'), suite, 'server', '--url', `${service.url}/mcp`, '--expected-failures', baseline, '-o', resultsDir],
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
    const checks = JSON.parse(await readFile(path.join(resultsDir, folder, 'checks.json'), 'utf8')) as { status: string }[];
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
  process.stdout.write(`\nMCP conformance against ${service.url}/mcp (n/a: see scripts/mcp-conformance/not-applicable.yml)\n${lines.join('\n')}\n`);
  process.stdout.write(`conformance: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  if (failed > 0 && exitCode === 0) exitCode = 1;
} finally {
  await service.stop();
  await dropDatabase?.();
  await rm(scratch, { recursive: true, force: true });
}
process.exit(exitCode);

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? 1));
  });
}
