import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../bench/free-port.js';
import { startScratchService } from './scratch-service.js';
import { createAccount, revokeApiKey } from '../src/core/accounts.js';
import { HeadlessBrowser } from '../test/auth/browser.js';

/**
 * The MCP Inspector CLI (a client we did not write, from npm) against a freshly started service
 * with the built-in development identity provider (OIDC_DEV_PROVIDER=true), driven without a
 * person: on the API-key routes without a key, with a wrong key and with a revoked key (what it
 * shows must lead to the x-api-key header), and on /mcp/v3 through the whole OAuth sign-in
 * (discovery, registration, the development provider's sign-in page, our consent page, its
 * callback listener), then a charged call with the stored token; and its strict schema lint
 * (--strict: portability warnings) on tools/list of /mcp and /mcp/v2. Prints what the Inspector
 * showed in each case; exits non-zero when a case does not show what it should.
 * Started by scripts/mcp-inspector.sh, which installs the Inspector and Node 22 first.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tools = path.join(root, 'scripts', 'mcp-inspector');
const node22 = path.join(tools, 'node_modules', '.bin', 'node');
const inspector = path.join(
  tools,
  'node_modules',
  '@modelcontextprotocol',
  'inspector',
  'clients',
  'launcher',
  'build',
  'index.js',
);

const {
  service,
  scratch,
  apiKey: demoKey,
  stop,
} = await startScratchService('inspector', {
  SEED_COMPANIES: '300',
  SEED_PEOPLE: '1000',
  OIDC_DEV_PROVIDER: 'true',
});

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

const home = path.join(scratch, 'home');
const baseEnv = {
  ...process.env,
  HOME: home,
  // Tokens kept in a file under the scratch HOME, so that a second run can use the stored sign-in.
  MCP_INSPECTOR_SECRET_STORE: 'file',
  NO_COLOR: '1',
};

function inspect(args: string[], env: NodeJS.ProcessEnv = {}, onStderr?: (text: string) => void): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(node22, [inspector, '--cli', ...args], {
      env: { ...baseEnv, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      onStderr?.(stderr);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}

/** The message the Inspector printed (its JSON error envelope on stderr, or its output). */
function shown(outcome: Outcome): string {
  const line = outcome.stderr.split('\n').find((l) => l.startsWith('{"error"'));
  if (!line) return outcome.stdout.trim().slice(0, 400);
  const { error } = JSON.parse(line) as { error: { message: string } };
  return error.message;
}

const results: { name: string; ok: boolean; shown: string }[] = [];
function check(name: string, ok: boolean, what: string): void {
  results.push({ name, ok, shown: what.replace(/\s+/g, ' ').slice(0, 500) });
}

let exitCode = 0;
try {
  const mcp = `${service.url}/mcp`;
  const v3 = `${service.url}/mcp/v3`;

  // 1. No key: the Inspector starts OAuth on any 401; it ends at our signposts, which name the header.
  const noKey = await inspect([mcp, '--method', 'tools/list'], { MCP_AUTO_OPEN_ENABLED: 'true' });
  check('/mcp, no key (it tries OAuth)', noKey.code !== 0 && shown(noKey).includes('x-api-key'), shown(noKey));
  const noKeyStored = await inspect([mcp, '--method', 'tools/list', '--stored-auth-only']);
  check(
    '/mcp, no key, --stored-auth-only',
    noKeyStored.code !== 0 && shown(noKeyStored).includes('Missing API key'),
    shown(noKeyStored),
  );

  // 2. A wrong key, and a revoked one.
  const wrong = await inspect([
    mcp,
    '--method',
    'tools/list',
    '--header',
    'x-api-key: pds_not-a-key',
    '--stored-auth-only',
  ]);
  check('/mcp, wrong key', wrong.code !== 0 && shown(wrong).includes('Invalid API key'), shown(wrong));
  const { apiKey: revokedKey } = await createAccount(service.context.db, {
    name: 'Revoked key holder',
    plan: 'pro',
    initialCredits: 10,
  });
  await revokeApiKey(service.context.db.pool, revokedKey);
  const revoked = await inspect([
    `${service.url}/mcp/v2`,
    '--transport',
    'http',
    '--method',
    'tools/list',
    '--header',
    `x-api-key: ${revokedKey}`,
    '--stored-auth-only',
  ]);
  check('/mcp/v2, revoked key', revoked.code !== 0 && shown(revoked).includes('was revoked'), shown(revoked));

  // 3. /mcp/v3: the whole sign-in, with the headless browser in the person's place.
  const callbackPort = await freePort();
  const callbackUrl = `http://127.0.0.1:${callbackPort}/oauth/callback`;
  let driving: Promise<string> | null = null;
  const signIn = await inspect(
    [v3, '--transport', 'http', '--method', 'tools/list', '--callback-url', callbackUrl],
    { MCP_AUTO_OPEN_ENABLED: 'true' },
    (stderr) => {
      const url = /Please navigate to: (\S+)/.exec(stderr)?.[1];
      if (!url || driving) return;
      driving = (async () => {
        const browser = new HeadlessBrowser();
        const atCallback = (u: URL) => u.href.startsWith(callbackUrl);
        const login = await browser.open(url, atCallback);
        const consent = await browser.submit(login, null, atCallback);
        if (!consent.text.includes('spend credits'))
          throw new Error(`expected our consent page, got ${consent.status} ${consent.url.href}`);
        const landed = await browser.submit(consent, 'approve', atCallback);
        // The Inspector's own listener receives the code.
        const answer = await fetch(landed.url, { signal: AbortSignal.timeout(30_000) });
        await answer.text();
        return /<span id="client-name">([^<]+)<\/span>/.exec(consent.text)?.[1] ?? '?';
      })();
    },
  );
  const clientName = driving ? await (driving as Promise<string>) : 'never asked to sign in';
  const listed =
    signIn.code === 0
      ? (JSON.parse(signIn.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name).sort()
      : [];
  check(
    '/mcp/v3, OAuth sign-in',
    JSON.stringify(listed) === JSON.stringify(['call_operation', 'get_endpoint_details_full', 'search_endpoints']),
    `${clientName} registered itself, signed in through the development provider and our consent page; tools/list: ${listed.join(', ') || shown(signIn)}`,
  );

  // 4. A charged call with the stored sign-in, no browser.
  const charged = await inspect([
    v3,
    '--transport',
    'http',
    '--stored-auth-only',
    '--method',
    'tools/call',
    '--tool-name',
    'call_operation',
    '--tool-args-json',
    JSON.stringify({ operationId: 'companySearch', payload: { searchParams: {}, pageSize: 2 } }),
  ]);
  const creditsCharged =
    charged.code === 0
      ? (JSON.parse(charged.stdout).structuredContent?.chargeInfo?.creditsCharged as number | undefined)
      : undefined;
  check(
    '/mcp/v3, charged call_operation with the stored token',
    creditsCharged === 2,
    charged.code === 0 ? `companySearch charged ${creditsCharged} credits` : shown(charged),
  );

  // 5. Schema portability: tools/list --strict on the API-key surfaces finds nothing to warn about.
  for (const surface of ['/mcp', '/mcp/v2']) {
    const linted = await inspect([
      `${service.url}${surface}`,
      '--transport',
      'http',
      '--method',
      'tools/list',
      '--strict',
      '--header',
      `x-api-key: ${demoKey}`,
      '--stored-auth-only',
    ]);
    const tools = linted.code === 0 ? (JSON.parse(linted.stdout) as { tools: unknown[] }).tools.length : 0;
    const findings = linted.stderr.split('\n').filter((line) => /^(Warning|Error): tool/.test(line));
    const summary = /\d+ errors?, \d+ warnings? across \d+ tools?/.exec(linted.stderr)?.[0];
    check(
      `${surface}, tools/list --strict (schema portability)`,
      linted.code === 0 && tools > 0 && findings.length === 0,
      linted.code === 0
        ? `${tools} tools; ${summary ?? 'no portability findings'}${findings.length ? `: ${findings.slice(0, 3).join(' | ')}` : ''}`
        : shown(linted),
    );
  }

  // 6. /mcp/v3 with no sign-in and no browser: the 401's own words.
  const unsigned = await inspect([v3, '--transport', 'http', '--method', 'tools/list', '--stored-auth-only'], {
    HOME: path.join(scratch, 'other-home'),
  });
  check(
    '/mcp/v3, --stored-auth-only without a sign-in',
    unsigned.code !== 0 && /OAuth access token|auth_required|sign/i.test(unsigned.stderr),
    shown(unsigned),
  );
} finally {
  process.stdout.write(`\nMCP Inspector CLI 2.12.0 against ${service.url}\n`);
  for (const result of results)
    process.stdout.write(`${result.ok ? 'pass' : 'FAIL'}  ${result.name}\n      shows: ${result.shown}\n`);
  const failed = results.filter((r) => !r.ok).length;
  process.stdout.write(`inspector: ${results.length - failed} passed, ${failed} failed\n`);
  if (failed > 0 || results.length === 0) exitCode = 1;
  await stop();
}
process.exit(exitCode);
