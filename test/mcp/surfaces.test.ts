import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../operations/index.js';
import type { BearerGrant } from '../../src/auth/bearer.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { clientKinds, connectMcp, summaryOf } from './clients.js';

const metaTools = ['call_operation', 'get_endpoint_details_full', 'search_endpoints'];

describe('MCP surfaces', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ catalog: 'empty' });
  });
  afterAll(async () => {
    await app?.stop();
  });

  const headers = () => ({ 'x-api-key': app.apiKey });

  for (const kind of clientKinds) {
    it(`/mcp lists exactly the three tools (${kind})`, async () => {
      const client = await connectMcp(`${app.url}/mcp`, kind, { headers: headers() });
      try {
        expect((await client.listToolNames()).sort()).toEqual(metaTools);
      } finally {
        await client.close();
      }
    });

    it(`/mcp/v2 adds one tool per operation with schemas and annotations from the registry (${kind})`, async () => {
      const client = await connectMcp(`${app.url}/mcp/v2`, kind, { headers: headers() });
      try {
        const tools = await client.listTools();
        expect(tools.map((t) => t.name).sort()).toEqual(
          [...metaTools, ...operations.map((op) => op.operationId)].sort(),
        );
        for (const operation of operations) {
          const tool = tools.find((t) => t.name === operation.operationId);
          expect(tool.annotations).toMatchObject({
            readOnlyHint: operation.readOnly,
            destructiveHint: operation.destructive,
            idempotentHint: operation.idempotent,
            openWorldHint: operation.openWorld,
          });
          expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual(
            expect.arrayContaining(Object.keys(operation.input.shape)),
          );
          expect(tool.outputSchema.properties.output).toBeDefined();
        }
        const companySearch = tools.find((t) => t.name === 'companySearch');
        expect(companySearch.inputSchema.required).toEqual(['searchParams']);
        expect(companySearch.outputSchema.properties.output.properties.data.type).toBe('array');
      } finally {
        await client.close();
      }
    });
  }

  it('answers 401 without a key, or with an unknown one, before any MCP processing', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    const init = {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body,
    };
    const missing = await fetch(`${app.url}/mcp`, init);
    expect(missing.status).toBe(401);
    expect(await missing.text()).toContain('x-api-key');
    const wrong = await fetch(`${app.url}/mcp/v2`, {
      ...init,
      headers: { ...init.headers, 'x-api-key': 'pds_not-a-real-key-at-all' },
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain('pds_not-a-real-key-at-all');
    await expect(connectMcp(`${app.url}/mcp`, 'v2-modern')).rejects.toThrow();
    await expect(connectMcp(`${app.url}/mcp`, 'v1', { headers: { 'x-api-key': 'wrong' } })).rejects.toThrow();
  });

  it('answers 403 to a foreign Origin or Host (DNS rebinding), and serves loopback origins', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const base = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'x-api-key': app.apiKey,
    };
    const foreignOrigin = await fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: { ...base, origin: 'https://evil.example' },
      body,
    });
    expect(foreignOrigin.status).toBe(403);
    const port = new URL(app.url).port;
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/mcp',
          method: 'POST',
          headers: { ...base, host: `attacker.example:${port}` },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(403);
    const client = await connectMcp(`${app.url}/mcp`, 'v1', {
      headers: { ...headers(), origin: `http://localhost:${port}` },
    });
    await client.close();
  });

  it('/mcp/v3 demands a bearer token and names its protected-resource metadata', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    const init = {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body,
    };
    const metadataUrl = `${app.service.context.publicUrl}/.well-known/oauth-protected-resource/mcp/v3`;
    const missing = await fetch(`${app.url}/mcp/v3`, init);
    expect(missing.status).toBe(401);
    // No identity provider is configured here: the challenge says what an operator sets.
    expect(missing.headers.get('www-authenticate')).toMatch(
      new RegExp(
        `^Bearer resource_metadata="${metadataUrl}", scope="mcp:read mcp:spend", error_description="Single sign-on is not configured[^"]*OIDC_ISSUER`,
      ),
    );
    const apiKeyInstead = await fetch(`${app.url}/mcp/v3`, {
      ...init,
      headers: { ...init.headers, 'x-api-key': app.apiKey },
    });
    expect(apiKeyInstead.status).toBe(401);
    const invalid = await fetch(`${app.url}/mcp/v3`, {
      ...init,
      headers: { ...init.headers, authorization: 'Bearer nope' },
    });
    expect(invalid.status).toBe(401);
    expect(invalid.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(invalid.headers.get('www-authenticate')).toContain(`resource_metadata="${metadataUrl}"`);

    const metadata = await app.request('GET', '/.well-known/oauth-protected-resource/mcp/v3');
    expect(metadata.status).toBe(200);
    expect(metadata.body.resource).toBe(`${app.service.context.publicUrl}/mcp/v3`);
    expect(metadata.body.bearer_methods_supported).toEqual(['header']);
  });

  it("/mcp/v3 serves the three tools to a token its verifier accepts, acting as the token's account", async () => {
    const principal = await app.service.context.authenticator.authenticate(app.apiKey);
    if (!principal) throw new Error('demo key not found');
    const scopes = ['mcp:read', 'mcp:spend'];
    const grant: BearerGrant = {
      principal: { ...principal, key: null, oauth: { clientId: 'test-client', scopes } },
      clientId: 'test-client',
      scopes,
      expiresAt: Math.floor(Date.now() / 1000) + 600,
    };
    const ours = app.service.context.services.mcpBearerVerifier;
    app.service.context.services.mcpBearerVerifier = {
      verify: async (token) => (token === 'good-token' ? grant : null),
      authorizationServers: ['https://idp.example'],
    };
    try {
      const client = await connectMcp(`${app.url}/mcp/v3`, 'v2-modern', {
        headers: { authorization: 'Bearer good-token' },
      });
      try {
        expect((await client.listToolNames()).sort()).toEqual(metaTools);
        const balance = await client.callTool('call_operation', { operationId: 'getCreditBalance', payload: {} });
        expect(balance.isError).toBeFalsy();
        expect(balance.structuredContent.output.balance).toBe(1_000_000);
      } finally {
        await client.close();
      }
      const metadata = await app.request('GET', '/.well-known/oauth-protected-resource/mcp/v3');
      expect(metadata.body.authorization_servers).toEqual(['https://idp.example']);
      await expect(
        connectMcp(`${app.url}/mcp/v3`, 'v1', { headers: { authorization: 'Bearer other-token' } }),
      ).rejects.toThrow();
    } finally {
      app.service.context.services.mcpBearerVerifier = ours;
    }
  });

  for (const kind of clientKinds) {
    it(`serves llms.txt, one resource per operation and the audience workflow prompt (${kind})`, async () => {
      const client = await connectMcp(`${app.url}/mcp`, kind, { headers: headers() });
      try {
        const uris = await client.listResourceUris();
        expect(uris).toContain('pds://docs/llms.txt');
        for (const operation of operations) expect(uris).toContain(`pds://operations/${operation.operationId}`);
        expect(await client.readResource('pds://docs/llms.txt')).toContain('companySearch');
        const reference = JSON.parse(await client.readResource('pds://operations/triggerEnrichment'));
        expect(reference.confirmationRequired).toBe('always');
        expect(reference.rest).toMatchObject({ method: 'POST', path: '/v1/audiences/{audienceId}/enrich' });
        const prompt = await client.getPromptText('audience_workflow', { goal: 'CTOs of Berlin startups' });
        const order = [
          'createAudience',
          'updateAudienceSearchParams',
          'buildAudience',
          'getAudienceStatus',
          'estimateEnrichmentCost',
          'triggerEnrichment',
          'getEnrichmentStatus',
          'exportProspects',
        ];
        const positions = order.map((id) => prompt.indexOf(id));
        expect(positions.every((p) => p >= 0)).toBe(true);
        expect([...positions].sort((a, b) => a - b)).toEqual(positions);
        expect(prompt).toContain('CTOs of Berlin startups');
        expect(prompt).toMatch(/confirm/i);
        // Count before spending and exclude before building, with the operations the registry has, before the build.
        const build = prompt.indexOf('buildAudience');
        expect(prompt).toMatch(/Exclusion lists before building/);
        expect(prompt.indexOf('createExclusionList')).toBeLessThan(build);
        for (const count of ['companyCount', 'peopleCount'].filter((id) =>
          operations.some((op) => op.operationId === id),
        )) {
          expect(prompt.indexOf(count)).toBeGreaterThan(-1);
          expect(prompt.indexOf(count)).toBeLessThan(build);
        }
      } finally {
        await client.close();
      }
    });
  }

  it('names the fields of a bad payload and the closest ids of an unknown operation, as tool errors', async () => {
    const client = await connectMcp(`${app.url}/mcp`, 'v2-modern', { headers: headers() });
    try {
      const bad = await client.callTool('call_operation', {
        operationId: 'companySearch',
        payload: { searchParams: { employeeCountV2: { min: 'ten' } }, pageSize: 5000, bogus: 1 },
      });
      expect(bad.isError).toBe(true);
      const fields = bad.structuredContent.error.details.issues.map((i: { field: string }) => i.field);
      expect(fields).toEqual(expect.arrayContaining(['searchParams.employeeCountV2.min', 'pageSize', 'bogus']));
      expect(summaryOf(bad)).toContain('pageSize');

      const unknown = await client.callTool('call_operation', { operationId: 'companySerch', payload: {} });
      expect(unknown.isError).toBe(true);
      expect(unknown.structuredContent.error.closest[0]).toBe('companySearch');
      const details = await client.callTool('get_endpoint_details_full', { operationId: 'peopleSearh' });
      expect(details.isError).toBe(true);
      expect(summaryOf(details)).toContain('peopleSearch');
    } finally {
      await client.close();
    }
  });
});
