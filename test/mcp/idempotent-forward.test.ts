import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { connectMcp } from './clients.js';

/**
 * The gateway's own hop to the REST API is made safe to retry: each forward carries an
 * Idempotency-Key derived from the call, and a forward whose connection fails before the answer
 * arrives is sent once more with the same key. Here BACKEND_URL points at a TCP proxy in front
 * of the service that lets the first company search through to the REST API, and cuts the
 * connection as that search's answer starts coming back: the search ran and charged, the
 * gateway never saw the answer.
 */

interface CuttingProxy {
  url: string;
  /** How many times each request line passed through, and the answers' status lines and headers. */
  requests: string[];
  /** Everything the gateway sent, as it went (request lines, headers and bodies). */
  sent: string[];
  answers: string[];
  cut: boolean;
  close(): Promise<void>;
}

async function cuttingProxy(target: () => number, cutWhen: (requestHead: string) => boolean): Promise<CuttingProxy> {
  const sockets = new Set<Socket>();
  const proxy: Omit<CuttingProxy, 'url' | 'close'> = { requests: [], sent: [], answers: [], cut: false };
  const server: Server = createServer((client) => {
    const upstream = connect(target(), '127.0.0.1');
    sockets.add(client).add(upstream);
    let cutting = false;
    client.on('data', (chunk: Buffer) => {
      const text = chunk.toString('latin1');
      proxy.sent.push(text);
      const requestLine = /^(GET|POST|PATCH|PUT|DELETE) \S+/m.exec(text)?.[0];
      if (requestLine) proxy.requests.push(requestLine);
      if (requestLine && !proxy.cut && cutWhen(text)) cutting = true;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      proxy.answers.push(chunk.toString('latin1').split('\r\n\r\n')[0] ?? '');
      if (cutting && !proxy.cut) {
        // The request ran upstream; its answer never reaches the gateway.
        proxy.cut = true;
        client.resetAndDestroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', closeBoth).on('error', closeBoth);
    upstream.on('close', closeBoth).on('error', closeBoth);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return Object.assign(proxy, {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  });
}

describe('the gateway in front of BACKEND_URL', () => {
  let app: TestApp | undefined;
  let proxy: CuttingProxy;

  beforeAll(async () => {
    proxy = await cuttingProxy(
      () => Number(new URL(app?.url ?? 'http://127.0.0.1:1').port),
      (head) => head.startsWith('POST /v1/company-search'),
    );
    app = await startTestApp({ catalog: 'seeded', env: { BACKEND_URL: proxy.url } });
  });
  afterAll(async () => {
    await proxy?.close();
    await app?.stop();
  });

  it('is sent again with the same key, answered from the first run, and charged once', async () => {
    if (!app) throw new Error('no app');
    const account = await app.createAccount({ credits: 1_000 });
    const client = await connectMcp(`${app.url}/mcp`, 'v2-modern', { headers: { 'x-api-key': account.apiKey } });
    try {
      const answer = await client.callTool('call_operation', {
        operationId: 'companySearch',
        payload: { searchParams: { headquartersCountryCode: ['US'] }, pageSize: 7 },
      });
      expect(answer.isError).toBeFalsy();
      expect(answer.structuredContent.output.data).toHaveLength(7);
      expect(answer.structuredContent.chargeInfo).toMatchObject({ method: 'charged-now', creditsCharged: 7 });
    } finally {
      await client.close();
    }
    expect(proxy.cut).toBe(true);
    // The search went to the REST API twice; the second was answered from the first.
    expect(proxy.requests.filter((line) => line.startsWith('POST /v1/company-search'))).toHaveLength(2);
    expect(proxy.answers.some((head) => /^HTTP\/1\.1 200/.test(head) && /idempotent-replayed: true/i.test(head))).toBe(
      true,
    );

    const balance = await app.request('GET', `/v1/credits?apiKey=${account.apiKey}`);
    expect(balance.body.output.balance).toBe(1_000 - 7);
    const charges = await app.db.pool.query<{ amount: string }>(
      'SELECT amount FROM credit_ledger WHERE account_id = $1 AND amount < 0',
      [account.accountId],
    );
    expect(charges.rows.map((row) => Number(row.amount))).toEqual([-7]);
  });

  it("sends the caller's key in the x-api-key header only, never in a query string or a body", async () => {
    if (!app) throw new Error('no app');
    const account = await app.createAccount({ credits: 1_000 });
    const created = await app.request('POST', '/v1/audiences/create', { apiKey: account.apiKey, name: 'Forwarded' });
    const audienceId = created.body.output.audienceId as string;
    const client = await connectMcp(`${app.url}/mcp`, 'v1', { headers: { 'x-api-key': account.apiKey } });
    const from = proxy.sent.length;
    try {
      const balance = await client.callTool('call_operation', { operationId: 'getCreditBalance', payload: {} });
      expect(balance.structuredContent.output.balance).toBe(1_000);
      const status = await client.callTool('call_operation', {
        operationId: 'getAudienceStatus',
        payload: { audienceId },
      });
      expect(status.isError).toBeFalsy();
      const deleted = await client.callTool('call_operation', {
        operationId: 'deleteAudience',
        payload: { audienceId },
      });
      expect(deleted.structuredContent.output.deleted).toBe(true);
      const page = await client.callTool('call_operation', {
        operationId: 'companySearch',
        payload: { searchParams: {}, pageSize: 2 },
      });
      expect(page.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    const sent = proxy.sent.slice(from).join('');
    const heads = sent.split(/\r\n\r\n/).filter((part) => /^(GET|POST|PATCH|PUT|DELETE) /.test(part));
    expect(heads.map((head) => head.split(' ')[0])).toEqual(expect.arrayContaining(['GET', 'DELETE', 'POST']));
    for (const head of heads) expect(head).toMatch(new RegExp(`\\r\\nx-api-key: ${account.apiKey}(\\r\\n|$)`, 'i'));
    // Once per request, in its header; nowhere else (no apiKey= in a request line, no apiKey in a body).
    expect(sent.split(account.apiKey).length - 1).toBe(heads.length);
    expect(sent).not.toMatch(/apiKey/);
  });
});
