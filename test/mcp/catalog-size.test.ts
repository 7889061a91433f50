import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { connectMcp, type McpTestClient } from './clients.js';

/**
 * The surfaces an agent reads state this instance's catalog size, counted from its own database
 * after the seed, not a number written in the code; and beside readOnly, whether a call charges.
 */
describe("this instance's catalog size, and what readOnly means", () => {
  let app: TestApp;
  let client: McpTestClient;
  let sentence: string;
  beforeAll(async () => {
    app = await startTestApp({ catalog: 'seeded' });
    client = await connectMcp(`${app.url}/mcp`, 'v2-modern', { headers: { 'x-api-key': app.apiKey } });
    const counts = (
      await app.db.pool.query<{ companies: number; people: number }>(
        'SELECT (SELECT count(*) FROM companies)::int AS companies, (SELECT count(*) FROM people)::int AS people',
      )
    ).rows[0] as { companies: number; people: number };
    expect(counts.companies).toBeGreaterThan(0);
    sentence = `This instance's catalog holds ${counts.companies.toLocaleString('en-US')} companies and ${counts.people.toLocaleString('en-US')} people profiles.`;
  });
  afterAll(async () => {
    await client?.close();
    await app?.stop();
  });

  it('/llms.txt and /openapi.json state it', async () => {
    const llms = await fetch(`${app.url}/llms.txt`, { signal: AbortSignal.timeout(10_000) });
    const text = await llms.text();
    expect(text).toContain(`- ${sentence}`);
    expect(text).not.toContain('<!-- catalog-size -->');
    const openApi = (await (
      await fetch(`${app.url}/openapi.json`, { signal: AbortSignal.timeout(10_000) })
    ).json()) as {
      info: { description: string };
      paths: Record<string, { post?: { description: string } }>;
    };
    expect(openApi.info.description).toContain(sentence);
    expect(openApi.paths['/v1/people-search']?.post?.description).toContain(sentence);
    expect(JSON.stringify(openApi)).not.toMatch(/847 million|47 million/);
  });

  it('search_endpoints and get_endpoint_details_full state it, and say a search charges', async () => {
    const found = await client.callTool('search_endpoints', { query: 'find people by job title', limit: 3 });
    expect(found.structuredContent.catalog.statement).toBe(sentence);
    const people = found.structuredContent.results.find(
      (r: { operationId: string }) => r.operationId === 'peopleSearch',
    );
    expect(people).toMatchObject({ readOnly: true, chargesCredits: true, runsWithReadOnlyKey: false });
    expect(people.effect).toContain('charges credits: a read-only API key cannot run it');

    const details = await client.callTool('get_endpoint_details_full', { operationId: 'companySearch' });
    const reference = JSON.parse((details.content[1] as { text: string }).text) as Record<string, unknown>;
    expect(reference.description).toContain(sentence);
    expect(reference).toMatchObject({ readOnly: true, chargesCredits: true, runsWithReadOnlyKey: false });
    expect(JSON.stringify(reference)).not.toMatch(/847 million|47 million/);

    const balance = await client.callTool('search_endpoints', { query: 'how many credits are left', limit: 3 });
    const free = balance.structuredContent.results.find(
      (r: { operationId: string }) => r.operationId === 'getCreditBalance',
    );
    expect(free).toMatchObject({ readOnly: true, chargesCredits: false, runsWithReadOnlyKey: true });
  });
});
