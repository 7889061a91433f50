import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, ok, testEnv, waitFor } from '../audiences/helpers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { connectMcp } from '../mcp/clients.js';

/**
 * Lists that restrict a search to what they list never widen it: an empty one is a 400 naming the
 * field, in searches, counts, audiences' filters and saved searches, over REST and MCP alike, and
 * nothing is charged. Filters stored empty before the rule are refused where they are used. A
 * company record from companySearch is a currentCompanies entry.
 */
describe('lists that never widen', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: testEnv });
  });
  afterAll(async () => {
    await app?.stop();
  });

  const empty = 'an empty list restricts to nothing; omit the field to search without it, or give at least one';

  it.each([
    ['/v1/company-search', { searchParams: { domains: [] } }, 'searchParams.domains', 'domain'],
    ['/v1/company-search', { searchParams: { networkSlugs: [] } }, 'searchParams.networkSlugs', 'slug'],
    ['/v1/company-search', { searchParams: { industriesV2: [] } }, 'searchParams.industriesV2', 'industry slug'],
    [
      '/v1/company-count',
      { searchParams: { headquartersCountryCode: [] } },
      'searchParams.headquartersCountryCode',
      'country code',
    ],
    ['/v1/people-search', { searchParams: {}, currentCompanies: [] }, 'currentCompanies', 'company'],
    ['/v1/people-search', { searchParams: { tags: { anyOf: [] } } }, 'searchParams.tags.anyOf', 'tag'],
    ['/v1/people-search/count', { searchParams: {}, currentCompanies: [] }, 'currentCompanies', 'company'],
    [
      '/v1/saved-searches',
      { name: 'empty', kind: 'companies', companySearchParams: { domains: [] } },
      'companySearchParams.domains',
      'domain',
    ],
    [
      '/v1/saved-searches',
      { name: 'empty', kind: 'people', peopleSearchParams: {}, currentCompanies: [] },
      'currentCompanies',
      'company',
    ],
  ])('POST %s %j is a 400 naming the field, and charges nothing', async (path, body, field, item) => {
    const { apiKey } = await app.createAccount({ credits: 100 });
    const answer = await app.request('POST', path, { apiKey, ...body });
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.error.code).toBe('invalid_request');
    expect(answer.body.error.message).toContain(`${field}: ${empty} ${item}`);
    expect(answer.body.error.details.issues).toContainEqual({ field, message: `${empty} ${item}` });
    expect(await balanceOf(app, apiKey)).toBe(100);
  });

  it("audiences' filters refuse an empty list, and the audience keeps no filters", async () => {
    const { apiKey } = await app.createAccount({ credits: 100 });
    const audienceId = ok(await app.request('POST', '/v1/audiences/create', { apiKey, name: 'A' })).body.output
      .audienceId as string;
    for (const [params, field] of [
      [{ companySearchParams: { domains: [] } }, 'companySearchParams.domains'],
      [
        { companySearchParams: {}, prospectSearchParams: { education: { schools: [] } } },
        'prospectSearchParams.education.schools',
      ],
    ] as const) {
      const answer = await app.request('PATCH', `/v1/audiences/${audienceId}/search-params`, { apiKey, ...params });
      expect(answer.status).toBe(400);
      expect(answer.body.error.details.issues[0].field).toBe(field);
    }
    const build = await app.request('POST', `/v1/audiences/${audienceId}/build`, { apiKey });
    expect(build.body.error.code).toBe('invalid_state');
    expect(build.body.error.message).toContain('has no filters yet');
    expect(await balanceOf(app, apiKey)).toBe(100);
  });

  it('MCP call_operation refuses it too, before anything runs', async () => {
    const { apiKey } = await app.createAccount({ credits: 100 });
    const client = await connectMcp(`${app.url}/mcp`, 'v2-modern', { headers: { 'x-api-key': apiKey } });
    try {
      const refused = await client.callTool('call_operation', {
        operationId: 'peopleSearch',
        payload: { searchParams: {}, currentCompanies: [] },
      });
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent.error.code).toBe('invalid_request');
      expect(refused.structuredContent.error.message).toContain(`currentCompanies: ${empty} company`);
      const hinted = await client.callTool('call_operation', {
        operationId: 'peopleSearch',
        payload: { searchParams: { jobTitle: { included: ['CTO'] } } },
      });
      expect(hinted.structuredContent.error.message).toContain(
        'searchParams.jobTitle: unknown field; did you mean jobTitleV2?',
      );
    } finally {
      await client.close();
    }
    expect(await balanceOf(app, apiKey)).toBe(100);
  });

  it('an audience whose stored filters hold an empty list from before is refused at build, naming the field', async () => {
    const { apiKey, accountId } = await app.createAccount({ credits: 10_000 });
    const create = async () => {
      const audienceId = ok(await app.request('POST', '/v1/audiences/create', { apiKey, name: 'Old' })).body.output
        .audienceId as string;
      ok(
        await app.request('PATCH', `/v1/audiences/${audienceId}/search-params`, {
          apiKey,
          companySearchParams: { headquartersCountryCode: ['US'] },
          maxCompanies: 5,
          maxProspects: 5,
        }),
      );
      return audienceId;
    };
    const widened = await create();
    await app.db.pool.query(
      `UPDATE audiences SET company_search_params = '{"domains": []}' WHERE account_id = $1 AND id = $2`,
      [accountId, widened],
    );
    const refused = await app.request('POST', `/v1/audiences/${widened}/build`, { apiKey });
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body.error.code).toBe('invalid_request');
    expect(refused.body.error.message).toContain(`companySearchParams.domains: ${empty} domain`);
    expect(refused.body.error.message).toContain('updateAudienceSearchParams');
    // Its status still answers, without the expected cost a build it would refuse cannot have.
    expect(ok(await app.request('GET', `/v1/audiences/${widened}?apiKey=${apiKey}`)).body.output).toMatchObject({
      status: 'DRAFT',
      buildExpectedCredits: null,
    });
    expect(await balanceOf(app, apiKey)).toBe(10_000);

    // How "no included titles" was always stored (the schema's default) keeps its meaning.
    const defaulted = await create();
    await app.db.pool.query(
      `UPDATE audiences SET prospect_search_params = '{"jobTitleV2": {"included": [], "excluded": ["intern"]}}'
        WHERE account_id = $1 AND id = $2`,
      [accountId, defaulted],
    );
    ok(await app.request('POST', `/v1/audiences/${defaulted}/build`, { apiKey }));
    const built = await waitFor('the build', async () => {
      const output = ok(await app.request('GET', `/v1/audiences/${defaulted}?apiKey=${apiKey}`)).body.output;
      return output.status === 'BUILDING' ? null : output;
    });
    expect(built).toMatchObject({ status: 'NORMAL', numCompanies: 5 });
  });

  it('a saved search whose stored filters hold an empty list from before is refused at run, naming the field', async () => {
    const { apiKey, accountId } = await app.createAccount({ credits: 1_000 });
    const created = ok(
      await app.request('POST', '/v1/saved-searches', {
        apiKey,
        name: 'Old',
        kind: 'companies',
        companySearchParams: { headquartersCountryCode: ['US'] },
      }),
    ).body.output;
    await app.db.pool.query(
      `UPDATE saved_searches SET query = jsonb_set(query, '{searchParams}', '{"networkSlugs": []}') WHERE account_id = $1 AND id = $2`,
      [accountId, created.savedSearchId],
    );
    const refused = await app.request('POST', `/v1/saved-searches/${created.savedSearchId}/runs`, { apiKey });
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body.error.message).toContain(`searchParams.networkSlugs: ${empty} slug`);
    const runs = await app.db.pool.query('SELECT 1 FROM saved_search_runs WHERE account_id = $1', [accountId]);
    expect(runs.rowCount).toBe(0);
    expect(await balanceOf(app, apiKey)).toBe(1_000);
  });

  it('a saved search drops its currentCompanies with null, not with an empty list', async () => {
    const { apiKey } = await app.createAccount({ credits: 100 });
    const created = ok(
      await app.request('POST', '/v1/saved-searches', {
        apiKey,
        name: 'At Acme',
        kind: 'people',
        peopleSearchParams: {},
        currentCompanies: [{ domain: 'acme.example' }],
      }),
    ).body.output;
    const path = `/v1/saved-searches/${created.savedSearchId}`;
    const refused = await app.request('PATCH', path, { apiKey, currentCompanies: [] });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.issues[0]).toEqual({ field: 'currentCompanies', message: `${empty} company` });
    const cleared = ok(await app.request('PATCH', path, { apiKey, currentCompanies: null })).body.output;
    expect(cleared.currentCompanies).toEqual([]);
  });

  it("takes companySearch's records as currentCompanies: one step's output.data is the next step's input", async () => {
    const { apiKey } = await app.createAccount({ credits: 10_000 });
    const companies = ok(
      await app.request('POST', '/v1/company-search', {
        apiKey,
        searchParams: { headquartersCountryCode: ['US'], employeeCountV2: { min: 1000 } },
        pageSize: 3,
      }),
    ).body.output.data as Array<{ domains: string[]; network_primary_slug: string | null; preferred_name: string }>;
    expect(companies).toHaveLength(3);
    const byRecords = ok(
      await app.request('POST', '/v1/people-search', {
        apiKey,
        searchParams: {},
        currentCompanies: companies,
        pageSize: 100,
      }),
    ).body.output.data as Array<{ current_company: { domain: string | null; network_slug: string | null } }>;
    const byReferences = ok(
      await app.request('POST', '/v1/people-search', {
        apiKey,
        searchParams: {},
        currentCompanies: companies.map((c) => ({ domain: c.domains[0] })),
        pageSize: 100,
      }),
    ).body.output.data;
    expect(byRecords.length).toBeGreaterThan(0);
    expect(byRecords).toEqual(byReferences);
    const slugs = new Set(companies.map((c) => c.network_primary_slug));
    for (const person of byRecords) expect(slugs.has(person.current_company.network_slug)).toBe(true);
  });

  it('REST errors name the nearest field and the right country code', async () => {
    const { apiKey } = await app.createAccount({ credits: 100 });
    const answer = await app.request('POST', '/v1/people-search', {
      apiKey,
      searchParams: { jobTitle: { included: ['CTO'] }, country3LetterCode: ['DE'] },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.details.issues).toEqual(
      expect.arrayContaining([
        { field: 'searchParams.jobTitle', message: 'unknown field; did you mean jobTitleV2?' },
        { field: 'searchParams.country3LetterCode.0', message: 'DE: expected a three-letter code such as DEU' },
      ]),
    );
    const companies = await app.request('POST', '/v1/company-search', {
      apiKey,
      searchParams: { headquartersCountryCode: ['DEU'] },
    });
    expect(companies.body.error.message).toContain('DEU: expected a two-letter code such as DE');
    expect(await balanceOf(app, apiKey)).toBe(100);
  });
});
