import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { HeadlessBrowser } from './browser.js';
import { atRedirect, connectWithTokens, RecordingOAuthProvider } from './helpers.js';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';

/**
 * OIDC_DEV_PROVIDER=true, as a newcomer tries it: the built-in identity provider's demo person
 * signs in as the demo account with the official client, all on one machine. And the service's
 * logs: a client's malformed MCP request is one line, not a stack trace.
 */
describe('the built-in development identity provider', () => {
  let app: TestApp;
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });

  beforeAll(async () => {
    app = await startTestApp({
      catalog: 'seeded',
      env: { OIDC_DEV_PROVIDER: 'true' },
      log: createLogger('info', sink),
    });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('signs the demo person in as the demo account with the official client', async () => {
    const redirectUri = 'http://127.0.0.1:8765/callback';
    const provider = new RecordingOAuthProvider({ redirectUri, clientName: 'Newcomer client' });
    const transport = new StreamableHTTPClientTransport(new URL(`${app.url}/mcp/v3`), { authProvider: provider });
    await expect(new Client({ name: 'newcomer', version: '1' }).connect(transport)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    const browser = new HeadlessBrowser();
    const signIn = await browser.open(provider.lastAuthorizationUrl, atRedirect(redirectUri));
    expect(signIn.url.pathname.startsWith('/dev-idp/interaction/')).toBe(true);
    expect(signIn.text).toContain('Sign in as Demo Person &lt;demo@prospecting.local&gt;');
    const consent = await browser.submit(signIn, null, atRedirect(redirectUri));
    expect(consent.text).toContain('Demo account');
    expect(consent.text).toContain('1,000,000');
    const landed = await browser.submit(consent, 'approve', atRedirect(redirectUri));
    await transport.finishAuth(landed.url.searchParams);
    const { client } = await connectWithTokens(`${app.url}/mcp/v3`, provider);
    const balance = await client.callTool({
      name: 'call_operation',
      arguments: { operationId: 'getCreditBalance', payload: {} },
    });
    expect((balance.structuredContent as { output: { balance: number } }).output.balance).toBe(1_000_000);
    await client.close();
    const demo = await app.db.pool.query(`SELECT email FROM accounts WHERE plan = 'demo'`);
    expect(demo.rows[0].email).toBe('demo@prospecting.local');
    // The sign-in runs its operations as the account in process: no key is made for it.
    const keys = await app.db.pool.query(
      `SELECT label FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE a.plan = 'demo'`,
    );
    expect(keys.rows.map((r) => r.label)).toEqual(['initial']);
    // The identity provider's code and state came back through our callback; the log keeps neither.
    const callbackLine = lines
      .map((line) => JSON.parse(line))
      .find((entry) => entry.msg === 'request' && String(entry.url).startsWith('/oauth/interaction/callback'));
    expect(callbackLine?.url).toMatch(/code=\[redacted\].*state=\[redacted\]/);
  });

  it('logs a wrong Content-Type (415) in one line, without a stack', async () => {
    lines.length = 0;
    const response = await fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: { 'x-api-key': app.apiKey, 'content-type': 'text/plain', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(415);
    await response.text();
    for (let tries = 0; tries < 100 && !lines.some((line) => line.includes('"request"')); tries += 1)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const entries = lines.map((line) => JSON.parse(line));
    const refused = entries.find((entry) => entry.msg === 'mcp request refused');
    expect(refused).toMatchObject({
      level: 30,
      status: 415,
      surface: 'default',
      reason: 'Unsupported Media Type: Content-Type must be application/json',
    });
    expect(lines.join('\n')).not.toContain('"stack"');
    expect(entries.filter((entry) => entry.level >= 40)).toEqual([]);
  });
});
