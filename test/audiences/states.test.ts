import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrichmentSteps } from '../../operations/schemas/audiences.js';
import { startTestApp, type TestApp, type TestResponse } from '../helpers/app.js';
import { balanceOf, buildAudience, ok, testEnv, waitFor, waitForEnrichment } from './helpers.js';

/**
 * Every call in the wrong state is a 400 invalid_state that says the state and what to do;
 * another account's audience is a 404; a build the balance cannot pay ends FAILED and charges
 * nothing. JOB_STEP_DELAY_MS keeps builds and enrichments running long enough to be seen.
 */
describe('audience state machine', () => {
  let app: TestApp;
  let apiKey: string;
  let accountId: number;

  beforeAll(async () => {
    app = await startTestApp({ env: { ...testEnv, JOB_STEP_DELAY_MS: '400' } });
    ({ apiKey, accountId } = await app.createAccount({ credits: 20_000 }));
  });
  afterAll(async () => {
    await app?.stop();
  });

  const filters = { companySearchParams: { headquartersCountryCode: ['DE'] }, maxCompanies: 10, maxProspects: 40 };

  function expectInvalidState(response: TestResponse, status: string, advice: RegExp): void {
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_state');
    expect(response.body.error.message).toContain(status);
    expect(response.body.error.message).toMatch(advice);
    expect(response.body.error.details.status).toBe(status);
  }

  async function create(creationMethod: 'NORMAL' | 'START_FROM_PROSPECTS' = 'NORMAL', key = apiKey): Promise<string> {
    return ok(await app.request('POST', '/v1/audiences/create', { apiKey: key, name: 'State test', creationMethod }))
      .body.output.audienceId;
  }

  it('DRAFT: build before filters, and everything that needs a built audience, are refused', async () => {
    const id = await create();
    const build = await app.request('POST', `/v1/audiences/${id}/build`, { apiKey });
    expect(build.status).toBe(400);
    expect(build.body.error.code).toBe('invalid_state');
    expect(build.body.error.message).toMatch(/no filters yet.*updateAudienceSearchParams/);

    expectInvalidState(
      await app.request('POST', `/v1/audiences/${id}/enrichment/estimate`, { apiKey }),
      'DRAFT',
      /build it with buildAudience/,
    );
    expectInvalidState(await app.request('POST', `/v1/audiences/${id}/enrich`, { apiKey }), 'DRAFT', /not been built/);
    expectInvalidState(
      await app.request('POST', `/v1/audiences/${id}/export/companies`, { apiKey }),
      'DRAFT',
      /not been built/,
    );
    expectInvalidState(
      await app.request('POST', `/v1/audiences/${id}/export/prospects`, { apiKey }),
      'DRAFT',
      /not been built/,
    );
    expectInvalidState(
      await app.request('GET', `/v1/audiences/${id}/prospects?apiKey=${apiKey}`),
      'DRAFT',
      /not been built/,
    );
    const status = ok(await app.request('GET', `/v1/audiences/${id}?apiKey=${apiKey}`)).body.output;
    expect(status).toMatchObject({ status: 'DRAFT', numCompanies: 0, numProspects: 0, builtAt: null });
  });

  it('filters are checked against the creation method and the schema, naming the field', async () => {
    const normal = await create();
    const noCompanies = await app.request('PATCH', `/v1/audiences/${normal}/search-params`, {
      apiKey,
      prospectSearchParams: {},
    });
    expect(noCompanies.status).toBe(400);
    expect(noCompanies.body.error.details.issues).toEqual([
      { field: 'companySearchParams', message: 'required for NORMAL audiences' },
    ]);

    const prospectsOnly = await create('START_FROM_PROSPECTS');
    const withCompanies = await app.request('PATCH', `/v1/audiences/${prospectsOnly}/search-params`, {
      apiKey,
      companySearchParams: {},
      prospectSearchParams: {},
    });
    expect(withCompanies.status).toBe(400);
    expect(withCompanies.body.error.details.issues[0].field).toBe('companySearchParams');

    const badCap = await app.request('PATCH', `/v1/audiences/${normal}/search-params`, {
      apiKey,
      companySearchParams: {},
      maxCompanies: 0,
    });
    expect(badCap.status).toBe(400);
    expect(badCap.body.error.details.issues[0].field).toBe('maxCompanies');
    const badFilter = await app.request('PATCH', `/v1/audiences/${normal}/search-params`, {
      apiKey,
      companySearchParams: { headquartersCountryCode: ['USA'] },
    });
    expect(badFilter.status).toBe(400);
    expect(badFilter.body.error.details.issues[0].field).toBe('companySearchParams.headquartersCountryCode.0');

    // Nothing was stored by the refused calls.
    const build = await app.request('POST', `/v1/audiences/${normal}/build`, { apiKey });
    expect(build.body.error.message).toMatch(/no filters yet/);
    // Defaults apply when the caps are omitted.
    const defaults = ok(
      await app.request('PATCH', `/v1/audiences/${normal}/search-params`, { apiKey, companySearchParams: {} }),
    ).body.output;
    expect(defaults).toMatchObject({ maxCompanies: 1000, maxProspects: 10000, prospectSearchParams: null });
  });

  it('BUILDING, then NORMAL: filters frozen, build refused, with the next step named', async () => {
    const id = await create();
    ok(await app.request('PATCH', `/v1/audiences/${id}/search-params`, { apiKey, ...filters }));
    ok(await app.request('POST', `/v1/audiences/${id}/build`, { apiKey }));

    expectInvalidState(
      await app.request('POST', `/v1/audiences/${id}/build`, { apiKey }),
      'BUILDING',
      /poll getAudienceStatus/,
    );
    expectInvalidState(
      await app.request('PATCH', `/v1/audiences/${id}/search-params`, { apiKey, ...filters }),
      'BUILDING',
      /create a new audience/,
    );
    expectInvalidState(
      await app.request('POST', `/v1/audiences/${id}/enrichment/estimate`, { apiKey }),
      'BUILDING',
      /poll getAudienceStatus/,
    );
    expectInvalidState(
      await app.request('POST', `/v1/audiences/${id}/export/prospects`, { apiKey }),
      'BUILDING',
      /poll getAudienceStatus/,
    );
    expectInvalidState(await app.request('GET', `/v1/audiences/${id}/companies?apiKey=${apiKey}`), 'BUILDING', /poll/);

    await waitFor(
      'NORMAL',
      async () => ok(await app.request('GET', `/v1/audiences/${id}?apiKey=${apiKey}`)).body.output.status === 'NORMAL',
    );
    expectInvalidState(
      await app.request('POST', `/v1/audiences/${id}/build`, { apiKey }),
      'NORMAL',
      /create a new audience/,
    );
    expectInvalidState(
      await app.request('PATCH', `/v1/audiences/${id}/search-params`, { apiKey, ...filters }),
      'NORMAL',
      /create a new audience/,
    );
  });

  it('a build the balance cannot pay ends FAILED, charges nothing and keeps no records', async () => {
    const poor = await app.createAccount({ credits: 15 });
    const { audienceId, status } = await buildAudience(app, poor.apiKey, { filters, expect: 'FAILED' });
    expect(status).toMatchObject({ numCompanies: 0, numProspects: 0 });
    expect(status.failureReason).toMatch(
      /insufficient credits: the build found 10 companies and \d+ prospects, which cost \d+ credits, and the balance was 15\. Nothing was charged/,
    );
    expect(await balanceOf(app, poor.apiKey)).toBe(15);
    const ledger = await app.db.pool.query('SELECT amount FROM credit_ledger WHERE account_id = $1 AND amount < 0', [
      poor.accountId,
    ]);
    expect(ledger.rows).toEqual([]);
    const members = await app.db.pool.query('SELECT count(*)::int AS n FROM audience_prospects WHERE account_id = $1', [
      poor.accountId,
    ]);
    expect(members.rows[0].n).toBe(0);

    const key = poor.apiKey;
    expectInvalidState(
      await app.request('POST', `/v1/audiences/${audienceId}/build`, { apiKey: key }),
      'FAILED',
      /create a new audience/,
    );
    expectInvalidState(
      await app.request('PATCH', `/v1/audiences/${audienceId}/search-params`, { apiKey: key, ...filters }),
      'FAILED',
      /create a new audience/,
    );
    expectInvalidState(
      await app.request('POST', `/v1/audiences/${audienceId}/enrich`, { apiKey: key }),
      'FAILED',
      /create a new audience/,
    );
    expectInvalidState(
      await app.request('POST', `/v1/audiences/${audienceId}/export/companies`, { apiKey: key }),
      'FAILED',
      /insufficient credits/,
    );
  });

  it("another account's audience, export and enrichment do not exist for the caller (404)", async () => {
    const { audienceId } = await buildAudience(app, apiKey, { filters });
    const exportId = ok(await app.request('POST', `/v1/audiences/${audienceId}/export/companies`, { apiKey })).body
      .output.exportId;
    const other = await app.createAccount({ credits: 1000 });
    const k = other.apiKey;
    const calls: Array<[string, string, unknown?]> = [
      ['GET', `/v1/audiences/${audienceId}?apiKey=${k}`],
      ['PATCH', `/v1/audiences/${audienceId}/search-params`, { apiKey: k, ...filters }],
      ['POST', `/v1/audiences/${audienceId}/build`, { apiKey: k }],
      ['POST', `/v1/audiences/${audienceId}/enrichment/estimate`, { apiKey: k }],
      ['POST', `/v1/audiences/${audienceId}/enrich`, { apiKey: k }],
      ['GET', `/v1/audiences/${audienceId}/enrichment/status?apiKey=${k}`],
      ['POST', `/v1/audiences/${audienceId}/export/companies`, { apiKey: k }],
      ['POST', `/v1/audiences/${audienceId}/export/prospects`, { apiKey: k }],
      ['GET', `/v1/audiences/${audienceId}/exports/${exportId}?apiKey=${k}`],
      ['GET', `/v1/audiences/${audienceId}/companies?apiKey=${k}`],
      ['GET', `/v1/audiences/${audienceId}/prospects?apiKey=${k}`],
    ];
    for (const [method, path, body] of calls) {
      const response = await app.request(method, path, body);
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
    expect(ok(await app.request('GET', `/v1/audiences?apiKey=${k}`)).body.output.data).toEqual([]);
    // Their own audience with the same export id in the path: the export is not theirs either.
    const theirs = await create('NORMAL', k);
    expect((await app.request('GET', `/v1/audiences/${theirs}/exports/${exportId}?apiKey=${k}`)).status).toBe(404);
    expect((await app.request('GET', `/v1/audiences/999999?apiKey=${apiKey}`)).status).toBe(404);
    const malformed = await app.request('GET', `/v1/audiences/abc?apiKey=${apiKey}`);
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.details.issues[0].field).toBe('audienceId');
  });

  it('enrichment: options that contradict, a second trigger while running, and a short balance are refused', async () => {
    const { audienceId } = await buildAudience(app, apiKey, { filters });
    const contradiction = await app.request('POST', `/v1/audiences/${audienceId}/enrichment/estimate`, {
      apiKey,
      runContactEnrichment: true,
    });
    expect(contradiction.status).toBe(400);
    expect(contradiction.body.error.details.issues[0].field).toBe('enrichmentType');
    const silent = await app.request('POST', `/v1/audiences/${audienceId}/enrichment/estimate`, {
      apiKey,
      enrichmentType: { getWorkEmails: true },
    });
    expect(silent.status).toBe(400);
    expect(silent.body.error.details.issues[0].field).toBe('runContactEnrichment');

    const noRun = await app.request('GET', `/v1/audiences/${audienceId}/enrichment/status?apiKey=${apiKey}`);
    expect(noRun.status).toBe(404);
    expect(noRun.body.error.message).toMatch(/no enrichment yet/);

    const options = { runContactEnrichment: true, enrichmentType: { getPhoneNumbers: true } };
    const estimate = ok(
      await app.request('POST', `/v1/audiences/${audienceId}/enrichment/estimate`, { apiKey, ...options }),
    ).body.output;
    expect(estimate.totalCredits).toBeGreaterThan(0);
    ok(await app.request('POST', `/v1/audiences/${audienceId}/enrich`, { apiKey, ...options }));
    const second = await app.request('POST', `/v1/audiences/${audienceId}/enrich`, { apiKey, ...options });
    expect(second.status).toBe(400);
    expect(second.body.error.code).toBe('invalid_state');
    expect(second.body.error.message).toMatch(/still (NOT_STARTED|RUNNING): poll getEnrichmentStatus/);
    await waitForEnrichment(app, apiKey, audienceId);

    // The same values again: the estimate is out of date (prospects now hold phone numbers and are not charged again).
    const stale = await app.request('POST', `/v1/audiences/${audienceId}/enrich`, { apiKey, ...options });
    expect(stale.status).toBe(400);
    expect(stale.body.error.message).toMatch(/out of date/);
    const again = ok(
      await app.request('POST', `/v1/audiences/${audienceId}/enrichment/estimate`, { apiKey, ...options }),
    ).body.output;
    expect(again.breakdown.waterfall.discount).toBeGreaterThan(0);
    expect(again.breakdown.waterfall.originalCredits - again.breakdown.waterfall.discount).toBe(again.totalCredits);

    // A balance that cannot pay the estimate: 402, and no run, no charge.
    const poor = await app.createAccount({ credits: 100 });
    const poorAudience = await buildAudience(app, poor.apiKey, { filters: { ...filters, maxProspects: 60 } });
    const left = await balanceOf(app, poor.apiKey);
    const big = {
      runContactEnrichment: true,
      enrichmentType: { getWorkEmails: true, getPersonalEmails: true, getPhoneNumbers: true },
    };
    ok(
      await app.request('POST', `/v1/audiences/${poorAudience.audienceId}/enrichment/estimate`, {
        apiKey: poor.apiKey,
        ...big,
      }),
    );
    const refused = await app.request('POST', `/v1/audiences/${poorAudience.audienceId}/enrich`, {
      apiKey: poor.apiKey,
      ...big,
    });
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe('insufficient_credits');
    expect(await balanceOf(app, poor.apiKey)).toBe(left);
    const runs = await app.db.pool.query('SELECT count(*)::int AS n FROM enrichment_runs WHERE account_id = $1', [
      poor.accountId,
    ]);
    expect(runs.rows[0].n).toBe(0);
    expect(accountId).toBeGreaterThan(0);
  });

  it('the progress of a running enrichment is observable step by step', async () => {
    const { audienceId } = await buildAudience(app, apiKey, { filters });
    const options = { runContactEnrichment: true, enrichmentType: { getWorkEmails: true } };
    ok(await app.request('POST', `/v1/audiences/${audienceId}/enrichment/estimate`, { apiKey, ...options }));
    ok(await app.request('POST', `/v1/audiences/${audienceId}/enrich`, { apiKey, ...options }));
    const seen: Array<Record<string, unknown>> = [];
    const done = await waitForEnrichment(app, apiKey, audienceId, seen);
    expect(done.status).toBe('DONE');
    const stages = [...new Set(seen.map((s) => s.currentStage))];
    // With a 400 ms pause in each step the poller sees the run move through the stages, in order.
    expect(stages).toEqual(
      expect.arrayContaining([
        'INITIALIZATION',
        'CLEANING_NAMES',
        'FETCHING_CONTACT_DETAILS',
        'VALIDATING_CONTACT_DETAILS',
        'COMPLETED',
        'DONE',
      ]),
    );
    // Switched-off steps complete at once: they are never the current stage.
    expect(stages).not.toContain('LIVE_ENRICHMENT');
    expect(stages).not.toContain('EXPORTING_CSV');
    const order = ['NOT_STARTED', ...enrichmentSteps.map((s) => s.toUpperCase().replace(/ /g, '_')), 'DONE'];
    const positions = stages.map((stage) => order.indexOf(stage as string));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(positions).not.toContain(-1);
    const percents = seen.map((s) => s.progressPercent as number);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents.some((p) => p > 0 && p < 100)).toBe(true);
    const running = seen.find((s) => s.currentStage === 'FETCHING_CONTACT_DETAILS');
    expect(running).toMatchObject({ status: 'RUNNING', currentStep: 'Fetching Contact Details' });
    expect(running?.stepsRemaining).toEqual(['Validating Contact Details', 'Exporting CSV', 'Completed']);
  });

  it('listing pages newest first with a cursor bound to the listing', async () => {
    const key = (await app.createAccount()).apiKey;
    const made: string[] = [];
    for (let i = 0; i < 5; i += 1) made.push(await create('NORMAL', key));
    const first = ok(await app.request('GET', `/v1/audiences?apiKey=${key}&pageSize=2`)).body.output;
    expect(first.data.map((a: { audienceId: string }) => a.audienceId)).toEqual([made[4], made[3]]);
    const second = ok(await app.request('GET', `/v1/audiences?apiKey=${key}&pageSize=2&cursor=${first.nextCursor}`))
      .body.output;
    const third = ok(await app.request('GET', `/v1/audiences?apiKey=${key}&pageSize=2&cursor=${second.nextCursor}`))
      .body.output;
    expect([...second.data, ...third.data].map((a: { audienceId: string }) => a.audienceId)).toEqual([
      made[2],
      made[1],
      made[0],
    ]);
    expect(third.nextCursor).toBeNull();
    const { audienceId } = await buildAudience(app, apiKey, { filters });
    const page = ok(await app.request('GET', `/v1/audiences/${audienceId}/prospects?apiKey=${apiKey}&pageSize=5`)).body
      .output;
    const { audienceId: otherAudience } = await buildAudience(app, apiKey, { filters });
    const crossed = await app.request(
      'GET',
      `/v1/audiences/${otherAudience}/prospects?apiKey=${apiKey}&pageSize=5&cursor=${page.nextCursor}`,
    );
    expect(crossed.status).toBe(400);
    expect(crossed.body.error.code).toBe('cursor_mismatch');
  });
});
