import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * parseSearchQuery over HTTP: the filters it answers are taken by the searches as they are, its
 * count is the count companyCount and peopleCount give for them, and it charges nothing.
 */
describe('parseSearchQuery over HTTP', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => app?.stop());

  const balance = async (): Promise<number> =>
    (await app.request('GET', `/v1/credits?apiKey=${app.apiKey}`)).body.output.balance;

  it('reads a sentence about companies into filters companyCount counts the same, for free', async () => {
    const before = await balance();
    const response = await app.request('POST', '/v1/search/parse', {
      apiKey: app.apiKey,
      text: 'software companies in the United States with 51 to 500 employees',
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const output = response.body.output;
    expect(output.plan.kind).toBe('companies');
    expect(output.companySearchParams).toEqual({
      industriesV2: ['software-development'],
      headquartersCountryCode: ['US'],
      employeeCountV2: { min: 51, max: 500 },
    });
    expect(response.body.chargeInfo).toMatchObject({ method: 'free', creditsCharged: 0 });
    expect(await balance()).toBe(before);

    const counted = await app.request('POST', '/v1/company-count', {
      apiKey: app.apiKey,
      searchParams: output.companySearchParams,
    });
    expect(counted.status).toBe(200);
    expect(output.count).toEqual({
      companies: { count: counted.body.output.count, exact: counted.body.output.exact },
      exactUpTo: counted.body.output.exactUpTo,
    });
    expect(output.count.companies.count).toBeGreaterThan(0);
  });

  it('reads a sentence about people into filters peopleSearch takes, and counts the people', async () => {
    const response = await app.request('POST', '/v1/search/parse', {
      apiKey: app.apiKey,
      text: 'senior software engineers in Germany',
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const output = response.body.output;
    expect(output.plan.kind).toBe('people');
    expect(output.prospectSearchParams).toMatchObject({
      jobTitleV2: { included: ['Senior Software Engineer'], excluded: [] },
      country3LetterCode: ['DEU'],
    });
    const counted = await app.request('POST', '/v1/people-search/count', {
      apiKey: app.apiKey,
      searchParams: output.prospectSearchParams,
    });
    expect(output.count.people).toEqual({ count: counted.body.output.count, exact: counted.body.output.exact });
    const search = await app.request('POST', '/v1/people-search', {
      apiKey: app.apiKey,
      searchParams: output.prospectSearchParams,
      pageSize: 1,
    });
    expect(search.status, JSON.stringify(search.body)).toBe(200);
  });

  it('plans companies then people, and skips the count when asked', async () => {
    const response = await app.request('POST', '/v1/search/parse', {
      apiKey: app.apiKey,
      text: 'VPs of engineering at fintech startups in Germany',
      count: false,
    });
    expect(response.status).toBe(200);
    expect(response.body.output.plan.steps.map((s: { operationId: string }) => s.operationId)).toEqual([
      'companySearch',
      'peopleSearch',
      'createAudience',
    ]);
    expect(response.body.output.count).toBeNull();
  });

  it('refuses an empty or oversized sentence with a 400 naming text', async () => {
    for (const text of ['   ', 'x'.repeat(501)]) {
      const response = await app.request('POST', '/v1/search/parse', { apiKey: app.apiKey, text });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_request');
      expect(response.body.error.details.issues[0].field).toBe('text');
    }
  });
});
