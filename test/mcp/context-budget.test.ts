import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../operations/index.js';
import { outputJsonSchema } from '../../operations/json-schema.js';
import { portable } from '../../src/mcp/schemas.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * What the MCP surfaces cost an agent's context, measured on the wire as a client receives it:
 * /mcp/v2's tools/list at most 3,000 bytes a tool on average; the text a model reads of each tool
 * (its name, description and input schema) at most 1.5 KB on average and 7 KB for the largest; every
 * get_endpoint_details_full answer at most 16 KB. The full output contracts stay available: in
 * get_endpoint_details_full, the operation resources and /openapi.json.
 */

async function rpc(
  app: TestApp,
  path: string,
  method: string,
  params: Record<string, unknown>,
): Promise<{ bytes: number; result: any }> {
  const response = await fetch(`${app.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'x-api-key': app.apiKey,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const text = await response.text();
  const json = response.headers.get('content-type')?.startsWith('text/event-stream')
    ? (/^data: (.*)$/m.exec(text)?.[1] ?? '')
    : text;
  expect(response.status).toBe(200);
  return { bytes: Buffer.byteLength(json), result: JSON.parse(json).result };
}

describe('the context budget of the MCP surfaces', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ catalog: 'empty' });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('keeps /mcp/v2 tools/list at most 3,000 bytes a tool, and what a model reads of a tool at most 1.5 KB on average and 7 KB for the largest', async () => {
    const { bytes, result } = await rpc(app, '/mcp/v2', 'tools/list', {});
    const tools = result.tools as { name: string; description: string; inputSchema: unknown; outputSchema?: unknown }[];
    expect(tools).toHaveLength(operations.length + 3);
    const modelText = tools.map((tool) => ({
      name: tool.name,
      bytes: Buffer.byteLength(tool.name + tool.description + JSON.stringify(tool.inputSchema)),
    }));
    const average = modelText.reduce((sum, tool) => sum + tool.bytes, 0) / tools.length;
    const largest = modelText.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    console.log(
      `/mcp/v2 tools/list: ${tools.length} tools, ${bytes} bytes (${Math.round(bytes / tools.length)} a tool); ` +
        `model-read text ${Math.round(average)} bytes a tool on average, largest ${largest.bytes} (${largest.name})`,
    );
    expect(bytes / tools.length).toBeLessThanOrEqual(3000);
    expect(average).toBeLessThanOrEqual(1.5 * 1024);
    expect(largest.bytes).toBeLessThanOrEqual(7 * 1024);
    // Every tool still says what it returns, and where the whole contract is.
    for (const tool of tools.filter((t) => operations.some((op) => op.operationId === t.name))) {
      expect(JSON.stringify(tool.outputSchema)).toContain(`get_endpoint_details_full ${tool.name}`);
    }
  });

  it('answers every get_endpoint_details_full in at most 16 KB, with the whole output contract, as the resource and OpenAPI give it', async () => {
    const openApi = (await (await fetch(`${app.url}/openapi.json`)).json()) as any;
    let largest = { operationId: '', bytes: 0 };
    for (const operation of operations) {
      const { bytes, result } = await rpc(app, '/mcp', 'tools/call', {
        name: 'get_endpoint_details_full',
        arguments: { operationId: operation.operationId },
      });
      if (bytes > largest.bytes) largest = { operationId: operation.operationId, bytes };
      expect(bytes, operation.operationId).toBeLessThanOrEqual(16 * 1024);
      const details = JSON.parse(result.content[1].text);
      expect(details.outputSchema).toEqual(portable(outputJsonSchema(operation)));
      const resource = await rpc(app, '/mcp', 'resources/read', { uri: `pds://operations/${operation.operationId}` });
      expect(JSON.parse(resource.result.contents[0].text).outputSchema).toEqual(details.outputSchema);
      const documented =
        openApi.paths[operation.path][operation.method.toLowerCase()].responses['200'].content['application/json']
          .schema.properties.output;
      expect(documented).toEqual(outputJsonSchema(operation));
    }
    console.log(`get_endpoint_details_full: largest answer ${largest.bytes} bytes (${largest.operationId})`);
  });
});
