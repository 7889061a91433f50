import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

const token = 'metrics-token-for-the-test-0123456789';

/** Prometheus metrics: only for a scraper with METRICS_TOKEN, counting what the service answered. */
describe('GET /metrics', () => {
  let app: TestApp;
  let without: TestApp;

  beforeAll(async () => {
    [app, without] = await Promise.all([
      startTestApp({ env: { METRICS_TOKEN: token } }),
      startTestApp({ catalog: 'empty' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([app?.stop(), without?.stop()]);
  });

  const scrape = async (target: TestApp, bearer?: string) =>
    fetch(`${target.url}/metrics`, { headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });

  it('is not there without METRICS_TOKEN, and refuses a scraper without the token', async () => {
    expect((await scrape(without, token)).status).toBe(404);
    expect((await scrape(app)).status).toBe(401);
    expect((await scrape(app, `${token}x`)).status).toBe(401);
  });

  it('counts requests by operation and status, MCP direct answers and in-process operations, and reports the job queue and the pool', async () => {
    const value = (text: string, line: RegExp): number => Number(line.exec(text)?.[1] ?? 0);
    const before = await (await scrape(app, token)).text();
    const searched = await app.request('POST', '/v1/company-search', {
      apiKey: app.apiKey,
      searchParams: {},
      pageSize: 1,
    });
    expect(searched.status).toBe(200);
    expect((await app.request('POST', '/v1/company-search', { apiKey: app.apiKey, pageSize: 'x' })).status).toBe(400);
    const mcp = await fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-api-key': app.apiKey,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search_endpoints', arguments: { query: 'credits' } },
      }),
    });
    expect(mcp.status).toBe(200);
    await mcp.text();
    const balance = await fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-api-key': app.apiKey,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'call_operation', arguments: { operationId: 'getCreditBalance', payload: {} } },
      }),
    });
    expect(await balance.text()).toContain('"balance"');

    const response = await scrape(app, token);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const after = await response.text();
    const ok = /pds_http_requests_total\{route="companySearch",method="POST",status="200"\} (\d+)/;
    const refused = /pds_http_requests_total\{route="companySearch",method="POST",status="400"\} (\d+)/;
    const direct = /pds_mcp_direct_path_requests\{outcome="answered"\} (\d+)/;
    const inProcess = /pds_mcp_operations_total\{operation="getCreditBalance",status="200"\} (\d+)/;
    expect(value(after, ok) - value(before, ok)).toBe(1);
    expect(value(after, refused) - value(before, refused)).toBe(1);
    expect(value(after, direct) - value(before, direct)).toBeGreaterThanOrEqual(1);
    // The gateway's operations run in process: counted as operations, not as HTTP requests of their own.
    expect(value(after, inProcess) - value(before, inProcess)).toBe(1);
    expect(after).not.toMatch(/pds_http_requests_total\{route="getCreditBalance"/);
    expect(after).toMatch(/pds_http_request_duration_seconds_bucket\{le="[\d.]+",route="\/mcp"\} [1-9]/);
    expect(after).toMatch(/pds_db_pool_connections\{state="open"\} [1-9]/);
    expect(after).toContain('# TYPE pds_jobs gauge');
    expect(after).toMatch(/pds_process_cpu_seconds_total/);
    // No key, id or query value ever becomes a label.
    expect(after).not.toContain(app.apiKey);
  });
});
