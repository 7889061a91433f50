import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/log.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { connectMcp } from './clients.js';

const lines: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  },
});
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ catalog: 'empty', log: createLogger('debug', sink), env: { CONFIRM_ABOVE_CREDITS: '5' } });
});
afterAll(async () => app?.stop());

describe('MCP request logs', () => {
  it('never carry the API key, and tie each operation run in process to the MCP request', async () => {
    lines.length = 0;
    for (const kind of ['v2-modern', 'v1'] as const) {
      const client = await connectMcp(`${app.url}/mcp`, kind, { headers: { 'x-api-key': app.apiKey } });
      try {
        await client.callTool('call_operation', {
          operationId: 'companySearch',
          payload: { searchParams: {}, pageSize: 2 },
        });
        await client.callTool('call_operation', {
          operationId: 'companySearch',
          payload: { searchParams: {}, pageSize: 9 },
        });
        await client.callTool('call_operation', { operationId: 'getCreditBalance', payload: {} });
        await client.callTool('call_operation', { operationId: 'getAudienceStatus', payload: { audienceId: '99999' } });
      } finally {
        await client.close();
      }
    }
    await expect(connectMcp(`${app.url}/mcp`, 'v1', { headers: { 'x-api-key': `${app.apiKey}x` } })).rejects.toThrow();
    // A request's line is written when its response has finished, which can be just after the client has read it.
    const refused = (line: string) => {
      const entry = JSON.parse(line);
      return entry.msg === 'request' && entry.url === '/mcp' && entry.status === 401;
    };
    await vi.waitFor(() => expect(lines.some(refused)).toBe(true), { timeout: 10_000 });

    expect(lines.join('\n')).not.toContain(app.apiKey);
    const entries = lines.map((line) => JSON.parse(line));
    const requests = entries.filter((entry) => entry.msg === 'request');
    // No hop over HTTP: the operations are not requests of their own, but lines of the MCP request that ran them.
    expect(requests.filter((r) => r.operationId !== undefined)).toEqual([]);
    const runs = entries.filter((entry) => entry.msg === 'operation');
    const searches = runs.filter((r) => r.operationId === 'companySearch');
    expect(searches.length).toBeGreaterThanOrEqual(2);
    expect(searches.every((r) => r.status === 200 && typeof r.ms === 'number' && typeof r.accountId === 'number')).toBe(
      true,
    );
    expect(runs.some((r) => r.operationId === 'getAudienceStatus' && r.status === 404)).toBe(true);
    const mcpRequestIds = new Set(requests.filter((r) => r.url === '/mcp').map((r) => r.requestId));
    for (const run of runs) expect(mcpRequestIds).toContain(run.requestId);
    // And each is a row of the account's request log, on the surface it came through, with the key that made it.
    const logged = async () =>
      (
        await app.db.pool.query<{ request_id: string; surface: string; api_key_id: string | null; status: number }>(
          "SELECT request_id, surface, api_key_id, status FROM request_log WHERE operation_id IN ('companySearch', 'getAudienceStatus')",
        )
      ).rows;
    await expect
      .poll(async () => (await logged()).length)
      .toBe(runs.filter((r) => r.operationId !== 'getCreditBalance').length);
    for (const row of await logged()) {
      expect(row.surface).toBe('mcp');
      expect(row.api_key_id).not.toBeNull();
      expect(mcpRequestIds).toContain(row.request_id);
    }
    expect(requests.some((r) => r.url === '/mcp' && r.status === 401)).toBe(true);
  });
});
