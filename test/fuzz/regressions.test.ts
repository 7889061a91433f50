import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * What the fuzzer found, each kept as a plain test of its own (the fuzz runs draw new cases every
 * time; these stay).
 */
describe('found by the fuzzer', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.stop();
  });

  const nested = (depth: number): unknown => {
    let value: unknown = 'deep';
    for (let i = 0; i < depth; i++) value = [value];
    return value;
  };

  it('refuses JSON nested thousands deep with a 400 naming the field, also with an Idempotency-Key (it overflowed the stack: 500)', async () => {
    for (const headers of [{}, { 'idempotency-key': 'deep-nesting-1' }] as Array<Record<string, string>>) {
      const response = await fetch(`${app.url}/v1/audiences/1/enrichment/estimate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ apiKey: app.apiKey, runProfileLiveEnrichment: nested(3000) }),
      });
      const body = (await response.json()) as { error: { code: string; details: { issues: Array<{ field: string; message: string }> } } };
      expect(response.status).toBe(400);
      expect(body.error.code).toBe('invalid_request');
      expect(body.error.details.issues[0]?.field).toMatch(/^runProfileLiveEnrichment(\.0)+$/);
      expect(body.error.details.issues[0]?.message).toMatch(/nested deeper than 32 levels/);
    }
  });

  it('still reads fields nested as deep as the schemas go', async () => {
    const response = await app.request('POST', '/v1/people-search', {
      apiKey: app.apiKey,
      pageSize: 1,
      searchParams: { jobTitleV2: { included: ['Engineer'], excluded: [] }, education: { degreeTypes: ['BACHELORS'] } },
    });
    expect(response.status).toBe(200);
  });

  it('answers a body nested past what the JSON parser can take with a 400', async () => {
    const body = `{"apiKey":"${app.apiKey}","searchParams":${'['.repeat(500_000)}${']'.repeat(500_000)}}`;
    const response = await fetch(`${app.url}/v1/company-search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(response.status).toBe(400);
  });
});
