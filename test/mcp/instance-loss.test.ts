import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { startService, type RunningService } from '../../src/service.js';
import { testEnv } from '../audiences/helpers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { clientKinds, connectMcp } from './clients.js';

/**
 * An MCP client behind a load balancer whose instance goes away mid-conversation. The 2025-11-25
 * clients (the v1 client, the v2 client in its default mode) are served without sessions, as
 * the 2026-07-28 era is: nothing of the conversation lives in the instance, so the next request,
 * sent to another instance, carries on, a confirmation asked by the first included. The balancer
 * is a plain HTTP proxy in the test that forwards to whichever instance is current.
 */
describe('an MCP conversation whose instance goes away', () => {
  let app: TestApp;
  let target = '';
  const sessionIds: string[] = [];
  let proxy: http.Server;
  let proxyUrl: string;

  beforeAll(async () => {
    app = await startTestApp({ catalog: 'seeded', env: { ...testEnv, CONFIRM_ABOVE_CREDITS: '20' } });
    proxy = http.createServer((req, res) => {
      const upstream = new URL(target);
      const forwarded = http.request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          const sessionId = answer.headers['mcp-session-id'];
          if (typeof sessionId === 'string') sessionIds.push(sessionId);
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forwarded.on('error', () => {
        res.writeHead(502).end();
      });
      req.pipe(forwarded);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => proxy?.close(resolve));
    await app?.stop();
  });

  async function startInstance(): Promise<{ service: RunningService; dataDir: string }> {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pds-mcp-lost-'));
    const config = app.service.context.config;
    const service = await startService(
      { ...config, dataDir, exportDir: path.join(dataDir, 'exports'), JOB_WORKER: false },
      { log: createLogger('silent') },
    );
    return { service, dataDir };
  }

  for (const kind of clientKinds) {
    it(`${kind}: carries on with another instance, a confirmation asked by the first one included`, async () => {
      const { apiKey } = await app.createAccount({ credits: 1000 });
      const first = await startInstance();
      target = first.service.url;
      const client = await connectMcp(`${proxyUrl}/mcp`, kind, { headers: { 'x-api-key': apiKey } });
      try {
        expect(await client.listToolNames()).toContain('call_operation');
        const payload = { searchParams: { headquartersCountryCode: ['US'] }, pageSize: 25 };
        const asked = await client.callTool('call_operation', { operationId: 'companySearch', payload });
        const token = asked.structuredContent.confirmationRequired.confirmationToken as string;
        expect(token).toBeTruthy();

        // The instance goes away; the balancer sends the same conversation to another.
        await first.service.stop();
        await rm(first.dataDir, { recursive: true, force: true });
        target = app.url;

        expect(await client.listToolNames()).toContain('call_operation');
        const confirmed = await client.callTool('call_operation', {
          operationId: 'companySearch',
          payload,
          confirmationToken: token,
        });
        expect(confirmed.isError).toBeFalsy();
        expect(confirmed.structuredContent.chargeInfo.creditsCharged).toBe(25);
      } finally {
        await client.close();
      }
      // No session was ever handed out: there was nothing to lose with the instance.
      expect(sessionIds).toEqual([]);
    });
  }
});
