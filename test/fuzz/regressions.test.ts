import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../audiences/helpers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { connectMcp } from '../mcp/clients.js';

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
      const body = (await response.json()) as {
        error: { code: string; details: { issues: Array<{ field: string; message: string }> } };
      };
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
    const response = await fetch(`${app.url}/v1/company-search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(response.status).toBe(400);
  });

  it('answers range filters on whole-number columns given any JSON number (1.5 and 1e80 answered 500), with their meaning', async () => {
    const search = async (path: string, searchParams: Record<string, unknown>) => {
      const response = await app.request('POST', path, { apiKey: app.apiKey, searchParams, pageSize: 50 });
      expect(response.status, JSON.stringify(searchParams)).toBe(200);
      return response.body.output.data as Array<Record<string, any>>;
    };
    const atLeastTwo = await search('/v1/company-search', { employeeCountV2: { min: 1.5 } });
    expect(atLeastTwo.length).toBeGreaterThan(0);
    for (const company of atLeastTwo) expect(company.employee_count_consensus.min).toBeGreaterThanOrEqual(2);
    expect(await search('/v1/company-search', { employeeCountV2: { min: 1.6e80 } })).toEqual([]);
    expect((await search('/v1/company-search', { employeeCountV2: { max: 3.98e307 } })).length).toBeGreaterThan(0);
    expect(
      (await search('/v1/company-search', { totalFundingUSD: { min: 5e-324, max: 1.7976931348623157e308 } })).length,
    ).toBeGreaterThan(0);
    const juniors = await search('/v1/people-search', { yearsOfExperience: { max: 2.5 } });
    expect(juniors.length).toBeGreaterThan(0);
    for (const person of juniors) expect(person.years_of_experience).toBeLessThanOrEqual(2);
    expect(await search('/v1/people-search', { yearsOfExperience: { min: 1e300 } })).toEqual([]);
  });

  it('builds an audience whose filters hold a fractional headcount (its build failed on the same 500)', async () => {
    const created = await app.request('POST', '/v1/audiences/create', { apiKey: app.apiKey, name: 'Fractional' });
    const audienceId = created.body.output.audienceId as string;
    const set = await app.request('PATCH', `/v1/audiences/${audienceId}/search-params`, {
      apiKey: app.apiKey,
      companySearchParams: { employeeCountV2: { min: 10.5, max: 1e12 } },
      maxCompanies: 5,
      maxProspects: 5,
    });
    expect(set.status).toBe(200);
    expect((await app.request('POST', `/v1/audiences/${audienceId}/build`, { apiKey: app.apiKey })).status).toBe(200);
    const status = await waitFor('the build', async () => {
      const response = await app.request('GET', `/v1/audiences/${audienceId}?apiKey=${app.apiKey}`);
      return response.body.output.status === 'BUILDING' ? null : response.body.output;
    });
    expect(status.status).toBe('NORMAL');
    expect(status.numCompanies).toBe(5);
  });

  it('refuses the date 0000-01-01 with a 400 naming the field (PostgreSQL has no year zero: it answered 500)', async () => {
    const response = await app.request('POST', '/v1/company-search', {
      apiKey: app.apiKey,
      searchParams: { foundedOn: { min: '0000-01-01' } },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.details.issues).toEqual([
      {
        field: 'searchParams.foundedOn.min',
        message: 'expected a date from 0001-01-01 to 9999-12-31 (there is no year 0000)',
      },
    ]);
    const earliest = await app.request('POST', '/v1/company-search', {
      apiKey: app.apiKey,
      searchParams: { foundedOn: { min: '0001-01-01', max: '9999-12-31' } },
      pageSize: 1,
    });
    expect(earliest.status).toBe(200);
  });

  it('refuses a NUL character in an MCP payload as the REST API does, instead of asking the user to confirm a call that cannot run', async () => {
    const client = await connectMcp(`${app.url}/mcp`, 'v2-legacy', { headers: { 'x-api-key': app.apiKey } });
    try {
      const profileUrls = Array.from({ length: 300 }, (_, i) => `person-${i}`);
      profileUrls[7] = 'jane\u0000doe';
      const answer = await client.callTool('call_operation', {
        operationId: 'startBatchContactEnrichment',
        payload: {
          profileUrls,
          enrichmentType: { getWorkEmails: true, getPersonalEmails: true, getPhoneNumbers: true },
        },
      });
      expect(answer.isError).toBe(true);
      expect(answer.structuredContent.error.code).toBe('invalid_request');
      expect(answer.structuredContent.error.details.issues).toEqual([
        { field: 'profileUrls.7', message: 'must not contain a NUL character (\\u0000)' },
      ]);
      expect(JSON.stringify(answer)).not.toMatch(/confirmationToken/);
    } finally {
      await client.close();
    }
  });
});
