import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { rpc } from './tasks-wire.js';

/**
 * What registries and caches read of the MCP surfaces: list results of the 2026-07-28 era carry
 * ttlMs and cacheScope (the same lists for every caller of a surface, in the same order each
 * time), the server describes itself (Implementation.description), and every tool has
 * an icon the service serves itself.
 */
describe('MCP surfaces as registries and caches read them', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ catalog: 'empty' });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('lists tools, resources and prompts cacheably, in one order for every account', async () => {
    const first = await app.createAccount();
    const second = await app.createAccount();
    for (const surface of ['/mcp', '/mcp/v2']) {
      for (const method of ['tools/list', 'resources/list', 'prompts/list']) {
        const one = (await rpc(`${app.url}${surface}`, first.apiKey, method, {}, {})).result;
        const other = (await rpc(`${app.url}${surface}`, second.apiKey, method, {}, {})).result;
        expect(one, `${surface} ${method}`).toMatchObject({ ttlMs: 3_600_000, cacheScope: 'public' });
        const { _meta: _a, ...listed } = one;
        const { _meta: _b, ...listedAgain } = other;
        expect(listedAgain).toEqual(listed);
      }
    }
  });

  it('describes itself, and gives every tool an icon it serves itself', async () => {
    const { apiKey } = await app.createAccount();
    const discovered = (await rpc(`${app.url}/mcp`, apiKey, 'server/discover', {}, {})).result;
    const info = discovered.serverInfo ?? discovered._meta?.['io.modelcontextprotocol/serverInfo'];
    expect(info.description).toContain('B2B prospecting data');
    const sources = new Set<string>();
    for (const surface of ['/mcp', '/mcp/v2']) {
      const { tools } = (await rpc(`${app.url}${surface}`, apiKey, 'tools/list', {}, {})).result;
      for (const tool of tools) {
        expect(tool.icons, tool.name).toEqual([expect.objectContaining({ mimeType: 'image/svg+xml', sizes: ['any'] })]);
        sources.add(tool.icons[0].src);
      }
    }
    expect(sources.size).toBe(3);
    for (const src of sources) {
      expect(src.startsWith(`${app.service.context.publicUrl}/icons/`)).toBe(true);
      const response = await fetch(`${app.url}${new URL(src).pathname}`, { signal: AbortSignal.timeout(10_000) });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('image/svg+xml');
      expect(await response.text()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    }
    expect((await fetch(`${app.url}/icons/nope.svg`, { signal: AbortSignal.timeout(10_000) })).status).toBe(404);
  });
});
