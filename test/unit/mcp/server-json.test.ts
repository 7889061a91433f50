import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { mcpServerVersion } from '../../../src/mcp/index.js';

/**
 * server.json, the MCP Registry's description of this server, checked against the registry's
 * schema of 2025-12-11 (vendored under reference/mcp-registry: nothing is downloaded in CI), and
 * against what the service serves: the three surfaces and how each authenticates.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const readJson = async (file: string) => JSON.parse(await readFile(path.join(root, file), 'utf8')) as any;
// ajv-formats is CommonJS: its default export arrives wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => Ajv;

describe('server.json for the MCP Registry', () => {
  it('is valid against the registry schema of 2025-12-11', async () => {
    const schema = await readJson('reference/mcp-registry/server.schema.2025-12-11.json');
    const server = await readJson('server.json');
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    expect(validate(server), JSON.stringify(validate.errors, null, 2)).toBe(true);
    expect(server.$schema).toBe(schema.$id);

    // The schema does check: a description over its 100 characters, or a remote without a URL, is refused.
    expect(validate({ ...server, description: 'x'.repeat(101) })).toBe(false);
    expect(validate({ ...server, remotes: [{ type: 'streamable-http' }] })).toBe(false);
  });

  it('names the three surfaces and how each authenticates, at the MCP server version', async () => {
    const server = await readJson('server.json');
    expect(server.version).toBe(mcpServerVersion);
    const remotes = server.remotes as Array<{ url: string; type: string; headers?: Array<Record<string, unknown>> }>;
    expect(remotes.map((remote) => remote.url)).toEqual(['{baseUrl}/mcp', '{baseUrl}/mcp/v2', '{baseUrl}/mcp/v3']);
    expect(remotes.every((remote) => remote.type === 'streamable-http')).toBe(true);
    for (const remote of remotes.slice(0, 2))
      expect(remote.headers).toEqual([
        expect.objectContaining({ name: 'x-api-key', isRequired: true, isSecret: true }),
      ]);
    expect(remotes[2]?.headers).toBeUndefined();
    const auth = server._meta['io.modelcontextprotocol.registry/publisher-provided'].authentication;
    expect(Object.keys(auth)).toEqual(['/mcp', '/mcp/v2', '/mcp/v3']);
    expect(auth['/mcp/v3']).toContain('OAuth');
  });
});
