import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.stop());

describe('authentication', () => {
  it('answers 401 without a key, with an unknown key, and with a revoked key, in the error envelope', async () => {
    const missing = await app.request('POST', '/v1/company-search', { searchParams: {} });
    expect(missing.status).toBe(401);
    expect(missing.body.error).toMatchObject({
      code: 'unauthorized',
      message: expect.stringContaining('apiKey'),
      requestId: expect.any(String),
    });
    const unknown = await app.request('GET', '/v1/credits?apiKey=pds_nope');
    expect(unknown.status).toBe(401);
    expect(JSON.stringify(unknown.body)).not.toContain('pds_nope');
    // The x-api-key header is accepted on REST too (test/security/owasp/api2-broken-authentication.test.ts).
    const headerOnly = await fetch(`${app.url}/v1/credits`, { headers: { 'x-api-key': app.apiKey } });
    expect(headerOnly.status).toBe(200);
    const account = await app.createAccount();
    const { revokeApiKey } = await import('../../src/core/accounts.js');
    expect(await revokeApiKey(app.db.pool, account.apiKey)).toBe(1);
    app.service.context.authenticator.forget(account.apiKey);
    expect((await app.request('GET', `/v1/credits?apiKey=${account.apiKey}`)).status).toBe(401);
  });

  it('stores keys hashed only', async () => {
    const rows = (
      await app.db.pool.query<{ key_hash: Buffer; key_prefix: string }>('SELECT key_hash, key_prefix FROM api_keys')
    ).rows;
    for (const row of rows) {
      expect(row.key_hash.length).toBe(32);
      expect(app.apiKey.startsWith(row.key_prefix) ? row.key_prefix.length : 0).toBeLessThan(app.apiKey.length / 2);
    }
    const dump = JSON.stringify((await app.db.pool.query('SELECT * FROM api_keys')).rows);
    expect(dump).not.toContain(app.apiKey);
  });
});

describe('validation', () => {
  it('names unknown fields, wrong types and bad values, and changes nothing', async () => {
    const cases: Array<[unknown, string]> = [
      [{ searchParams: {}, pageSzie: 10 }, 'pageSzie'],
      [{ searchParams: { keywords: 'ai' } }, 'searchParams.keywords'],
      [{ searchParams: { employeeCountV2: { min: 500, max: 10 } } }, 'searchParams.employeeCountV2.min'],
      [{ searchParams: { headquartersCountryCode: ['USA'] } }, 'searchParams.headquartersCountryCode.0'],
      [{ searchParams: { foundedOn: { min: '2020-13-45' } } }, 'searchParams.foundedOn.min'],
      [{ searchParams: { stage: ['SERIES_Z'] } }, 'searchParams.stage.0'],
      [{ searchParams: { unknownFilter: 1 } }, 'searchParams.unknownFilter'],
      [{}, 'searchParams'],
      [{ searchParams: {}, pageSize: 0 }, 'pageSize'],
    ];
    const before = (await app.request('GET', `/v1/credits?apiKey=${app.apiKey}`)).body.output.balance;
    for (const [body, field] of cases) {
      const response = await app.request('POST', '/v1/company-search', { apiKey: app.apiKey, ...(body as object) });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe('invalid_request');
      expect(
        response.body.error.details.issues.map((i: { field: string }) => i.field),
        JSON.stringify(body),
      ).toContain(field);
      expect(response.body.error.message).toContain(field);
    }
    const people = await app.request('POST', '/v1/people-search', {
      apiKey: app.apiKey,
      searchParams: { country3LetterCode: ['US'] },
      currentCompanies: [{}],
    });
    expect(people.status).toBe(400);
    expect(people.body.error.details.issues.map((i: { field: string }) => i.field)).toEqual(
      expect.arrayContaining(['searchParams.country3LetterCode.0', 'currentCompanies.0']),
    );
    expect((await app.request('GET', `/v1/credits?apiKey=${app.apiKey}`)).body.output.balance).toBe(before);
  });

  it('answers malformed JSON and non-object bodies with 400', async () => {
    const malformed = await app.request('POST', '/v1/company-search', '{"apiKey": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('invalid_request');
    const list = await app.request('POST', '/v1/company-search', [1, 2]);
    expect([400, 401]).toContain(list.status);
  });
});

describe('not found, rate limits, documents', () => {
  it('answers 404 for unknown endpoints', async () => {
    const response = await app.request('GET', `/v1/nothing-here?apiKey=${app.apiKey}`);
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('not_found');
  });

  it('answers 429 with Retry-After once the per-key class limit is spent, and other keys are unaffected', async () => {
    const limited = await startTestApp({ env: { RATE_LIMIT_SEARCH_PER_MINUTE: '3' } });
    try {
      await expectRateLimited(limited);
    } finally {
      await limited.stop();
    }
  });

  it('serves /healthz, /openapi.json, /llms.txt and the enums', async () => {
    expect((await app.request('GET', '/healthz')).body).toEqual({ status: 'ok' });
    const openapi = await app.request('GET', '/openapi.json');
    expect(openapi.body.openapi).toBe('3.1.0');
    expect(openapi.body.paths['/v1/people-search'].post['x-credit-cost'].unit).toBe('getPersonFromDb');
    const llms = await app.request('GET', '/llms.txt');
    expect(llms.headers.get('content-type')).toContain('text/plain');
    expect(llms.body).toContain('- companySearch: POST /v1/company-search');
    for (const path of ['/v1/enums/regions', '/v1/regions']) {
      const regions = await app.request('GET', `${path}?apiKey=${app.apiKey}`);
      expect(regions.status).toBe(200);
      const us = regions.body.output.countries.find((c: { code2: string }) => c.code2 === 'US');
      expect(us).toMatchObject({ code3: 'USA', name: expect.stringContaining('United States') });
      expect(us.states).toContain('California');
    }
    for (const path of ['/v1/enums/industries', '/v1/industries']) {
      const industries = await app.request('GET', `${path}?apiKey=${app.apiKey}`);
      expect(industries.body.output.industries.length).toBeGreaterThan(50);
      expect(industries.body.output.industries).toContainEqual(
        expect.objectContaining({ slug: 'software-development' }),
      );
    }
  });
});

async function expectRateLimited(app: TestApp): Promise<void> {
  const account = await app.createAccount({ credits: 1000 });
  const statuses: number[] = [];
  let retryAfter: string | null = null;
  for (let i = 0; i < 4; i++) {
    const response = await app.request('POST', '/v1/company-search', {
      apiKey: account.apiKey,
      searchParams: {},
      pageSize: 1,
    });
    statuses.push(response.status);
    if (response.status === 429) {
      retryAfter = response.headers.get('retry-after');
      expect(response.body.error.code).toBe('rate_limited');
    }
  }
  expect(statuses).toEqual([200, 200, 200, 429]);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  // Another class of the same key, and another key, are not limited.
  expect((await app.request('GET', `/v1/credits?apiKey=${account.apiKey}`)).status).toBe(200);
  const other = await app.createAccount({ credits: 10 });
  expect(
    (await app.request('POST', '/v1/company-search', { apiKey: other.apiKey, searchParams: {}, pageSize: 1 })).status,
  ).toBe(200);
}
