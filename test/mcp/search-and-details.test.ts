import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../operations/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { connectMcp, type McpTestClient } from './clients.js';
import { labelledPhrasings } from '../../src/mcp/ranker/examples.js';

const intents = labelledPhrasings(operations).filter((phrasing) => phrasing.set === 'first');

describe('search_endpoints and get_endpoint_details_full', () => {
  let app: TestApp;
  let client: McpTestClient;
  beforeAll(async () => {
    app = await startTestApp({ catalog: 'empty' });
    client = await connectMcp(`${app.url}/mcp`, 'v2-modern', { headers: { 'x-api-key': app.apiKey } });
  });
  afterAll(async () => {
    await client?.close();
    await app?.stop();
  });

  // Through the server, as an agent calls it. The first set is among the ranker's examples, so this checks the tool's
  // answers end to end; the ranking's figures on sets it never learnt from are in test/eval/ranker.test.ts.
  it('ranks the intended operation first for at least 90% of the intent set, and in the top 3 for 98%', async () => {
    expect(intents.length).toBeGreaterThanOrEqual(60);
    expect(new Set(intents.map((i) => i.expected))).toEqual(new Set(operations.map((op) => op.operationId)));
    let top1 = 0;
    let top3 = 0;
    const misses: string[] = [];
    for (const { query, expected } of intents) {
      const answer = await client.callTool('search_endpoints', { query, limit: 3 });
      const ranked = answer.structuredContent.results.map((r: { operationId: string }) => r.operationId);
      if (ranked[0] === expected) top1 += 1;
      else misses.push(`"${query}" → ${ranked.join(', ')} (wanted ${expected})`);
      if (ranked.includes(expected)) top3 += 1;
    }
    const top1Rate = top1 / intents.length;
    const top3Rate = top3 / intents.length;
    console.log(
      `search_endpoints ranking over ${intents.length} intents: top-1 ${(top1Rate * 100).toFixed(1)}% (${top1}), top-3 ${(top3Rate * 100).toFixed(1)}% (${top3})` +
        (misses.length ? `\n  misses:\n  ${misses.join('\n  ')}` : ''),
    );
    expect(top1Rate).toBeGreaterThanOrEqual(0.9);
    expect(top3Rate).toBeGreaterThanOrEqual(0.98);
  });

  it('returns what an agent needs to pick and call an operation', async () => {
    const answer = await client.callTool('search_endpoints', { query: 'start enrichment of the audience' });
    const [first] = answer.structuredContent.results;
    expect(first).toMatchObject({
      operationId: 'triggerEnrichment',
      method: 'POST',
      path: '/v1/audiences/{audienceId}/enrich',
      charged: 'upfront',
      requiredFields: ['audienceId'],
      workflow: { audienceWorkflowStep: 6, before: ['estimateEnrichmentCost'], after: ['getEnrichmentStatus'] },
    });
    expect(first.credits).toMatch(/upfront/);
    expect(first.score).toBeGreaterThan(0);
    expect(answer.content[0]?.text).toContain('triggerEnrichment');
  });

  it('applies the constraint filters', async () => {
    const search = async (args: Record<string, unknown>) =>
      (await client.callTool('search_endpoints', args)).structuredContent.results as {
        operationId: string;
        charged: string;
        readOnly: boolean;
        category: string;
        typicalCreditsPerCall: number | null;
      }[];
    const free = await search({ query: 'enrich emails phones audience', freeOnly: true, limit: 25 });
    expect(free.length).toBeGreaterThan(0);
    expect(free.every((r) => r.charged === 'free')).toBe(true);
    expect(free.map((r) => r.operationId)).not.toContain('triggerEnrichment');

    const readOnly = await search({ query: 'audience', readOnlyOnly: true, limit: 25 });
    expect(readOnly.every((r) => r.readOnly)).toBe(true);
    expect(readOnly.map((r) => r.operationId)).not.toContain('buildAudience');

    const contact = await search({ query: 'email', category: 'contact', limit: 25 });
    expect(contact.length).toBeGreaterThan(0);
    expect(contact.every((r) => r.category === 'contact')).toBe(true);

    const cheap = await search({ query: 'search companies people', maxCreditsPerCall: 5, limit: 25 });
    expect(cheap.every((r) => r.typicalCreditsPerCall !== null && r.typicalCreditsPerCall <= 5)).toBe(true);
    expect(cheap.map((r) => r.operationId)).not.toContain('companySearch');

    expect(await search({ query: 'companies', limit: 2 })).toHaveLength(2);
    const invalid = await client.callTool('search_endpoints', { query: '', limit: 500 });
    expect(invalid.isError).toBe(true);
  });

  /** The reference is given once, as JSON text (the second content block). */
  const detailsOf = async (operationId: string) => {
    const answer = await client.callTool('get_endpoint_details_full', { operationId });
    expect(answer.isError, operationId).toBeFalsy();
    expect(answer.structuredContent).toBeUndefined();
    return JSON.parse(answer.content[1]?.text ?? 'null');
  };

  it('details every operation with schemas, fields, rest, credits, rate limit, confirmation, example and workflow', async () => {
    const rateLimits = app.service.context.config;
    for (const operation of operations) {
      const details = await detailsOf(operation.operationId);
      expect(details.operationId).toBe(operation.operationId);
      expect(details.rest).toMatchObject({ method: operation.method, path: operation.path });
      expect(details.inputSchema.type).toBe('object');
      expect(details.outputSchema).toBeTypeOf('object');
      const fieldNames = [...details.requiredFields, ...details.optionalFields]
        .map((f: { name: string }) => f.name)
        .sort();
      expect(fieldNames).toEqual(Object.keys(operation.input.shape).sort());
      expect(details.credits).toMatchObject({
        unit: operation.credits.unit,
        charged: operation.credits.charged,
        rule: operation.credits.rule,
        example: operation.credits.example,
      });
      expect(details.rateLimit.class).toBe(operation.rateLimitClass);
      expect(details.rateLimit.requestsPerMinute).toBeGreaterThan(0);
      expect(details.pollIntervalSeconds).toBe(operation.pollIntervalSeconds ?? null);
      expect(details.confirmationRequired).toBe(operation.confirmation);
      expect(details.example.payload).toEqual(operation.example);
      expect(details.workflow.before).toEqual(operation.workflow.before);
      expect(details.workflow.after).toEqual(operation.workflow.after);
      expect(details.authentication).toContain('x-api-key');
    }
    const search = await detailsOf('companySearch');
    expect(search.rateLimit.requestsPerMinute).toBe(rateLimits.RATE_LIMIT_SEARCH_PER_MINUTE);
    const pageSize = search.optionalFields.find((f: { name: string }) => f.name === 'pageSize');
    expect(pageSize).toMatchObject({ default: 25, type: 'integer' });
    expect(search.inputSchema.properties.pageSize).toMatchObject({ maximum: 1000 });
    expect(search.inputSchema.properties.pageSize.description).toContain('1000');
    expect(search.requiredFields.map((f: { name: string }) => f.name)).toEqual(['searchParams']);
  });
});
