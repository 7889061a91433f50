import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { connectMcp, type McpTestClient } from './clients.js';

/**
 * What MCP answers without reaching an operation counts against the account's per-minute limit,
 * the same buckets the REST API draws on: search_endpoints and get_endpoint_details_full (on the
 * direct path and through the SDK), the operation references, the prompt, and call_operation's
 * own answers (an unknown operation, an invalid payload, a stored result). Past the limit each is
 * refused 429 rate_limited with Retry-After's value, and the account's REST calls of that class
 * are refused too; another account is not touched.
 */
describe('per-minute limits of MCP answers that reach no operation', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ catalog: 'empty', env: { RATE_LIMIT_STANDARD_PER_MINUTE: '6' } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  const refusedAsRateLimited = (answer: { isError?: boolean; structuredContent?: any }) => {
    expect(answer.isError).toBe(true);
    expect(answer.structuredContent?.error).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(answer.structuredContent.error.retryAfterSeconds).toBeGreaterThan(0);
  };

  for (const kind of ['v2-modern', 'v1'] as const) {
    it(`counts discovery and references against the account's standard limit (${kind})`, async () => {
      const { apiKey } = await app.createAccount();
      const client: McpTestClient = await connectMcp(`${app.url}/mcp`, kind, { headers: { 'x-api-key': apiKey } });
      try {
        const answers = [];
        for (let i = 0; i < 6; i += 1) {
          answers.push(
            i % 2 === 0
              ? await client.callTool('search_endpoints', { query: 'find companies' })
              : await client.callTool('get_endpoint_details_full', { operationId: 'companySearch' }),
          );
        }
        expect(answers.every((answer) => !answer.isError)).toBe(true);
        refusedAsRateLimited(await client.callTool('search_endpoints', { query: 'find companies' }));
        refusedAsRateLimited(await client.callTool('get_endpoint_details_full', { operationId: 'companySearch' }));
        refusedAsRateLimited(await client.callTool('call_operation', { operationId: 'noSuchOperation' }));
        refusedAsRateLimited(
          await client.callTool('call_operation', { operationId: 'companySearch', resultId: 'none', offset: 0 }),
        );
        refusedAsRateLimited(
          await client.callTool('call_operation', { operationId: 'listRegions', payload: { bogus: true } }),
        );
        await expect(client.readResource('pds://operations/companySearch')).rejects.toThrow(/Rate limit/);
        await expect(client.getPromptText('audience_workflow')).rejects.toThrow(/Rate limit/);
        // The same buckets as the REST API's.
        const rest = await fetch(`${app.url}/v1/enums/regions`, { headers: { 'x-api-key': apiKey } });
        expect(rest.status).toBe(429);
        expect(Number(rest.headers.get('retry-after'))).toBeGreaterThan(0);
      } finally {
        await client.close();
      }
      // Another account has its own.
      const other = await app.createAccount();
      const otherClient = await connectMcp(`${app.url}/mcp`, kind, { headers: { 'x-api-key': other.apiKey } });
      expect((await otherClient.callTool('search_endpoints', { query: 'credits' })).isError).toBeFalsy();
      await otherClient.close();
    });
  }
});
