import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateEnrichmentCost, operations } from '../../operations/index.js';
import { createAudience, setSearchParams } from '../../src/core/audiences/audiences.js';
import { startBuild } from '../../src/core/audiences/build.js';
import { estimateEnrichment } from '../../src/core/audiences/enrichment.js';
import { charge, credit, getBalance } from '../../src/core/credits.js';
import { waitFor } from '../audiences/helpers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * A free-plan account's monthly credits arrive with its first request of the month, whatever
 * operation that is: the router grants them, so an operation that charges cannot forget to.
 * Each charging operation of the registry is called as the very first request of a new
 * free-plan account with no credits; an operation added without a case here fails the test.
 */

const monthlyCredits = 500;
type Setup = (accountId: number) => Promise<{ method: string; path: string; body?: Record<string, unknown> }>;

describe("the free plan's monthly grant", () => {
  let app: TestApp;
  let personSlug: string;
  let companySlug: string;
  let workEmail: string;
  beforeAll(async () => {
    app = await startTestApp({
      env: { FREE_PLAN_MONTHLY_CREDITS: String(monthlyCredits), JOB_POLL_INTERVAL_MS: '20' },
    });
    const people = await app.db.pool.query<{ network_slug: string }>(
      'SELECT network_slug FROM people WHERE network_slug IS NOT NULL ORDER BY id LIMIT 1',
    );
    personSlug = people.rows[0]?.network_slug as string;
    const companies = await app.db.pool.query<{ network_primary_slug: string }>(
      'SELECT network_primary_slug FROM companies WHERE network_primary_slug IS NOT NULL ORDER BY id LIMIT 1',
    );
    companySlug = companies.rows[0]?.network_primary_slug as string;
    workEmail = (
      await app.db.pool.query<{ value: string }>(
        `SELECT value FROM person_contacts WHERE kind = 'work_email' ORDER BY person_id LIMIT 1`,
      )
    ).rows[0]?.value as string;
  });
  afterAll(async () => {
    await app.stop();
  });

  /** A built audience of the account, made without a request of the account's own (so the next request is its first). */
  async function builtAudience(accountId: number): Promise<string> {
    const db = app.service.context.db;
    await db.transaction((tx) => credit(tx, accountId, 10_000, { unit: 'purchase', reason: 'test: pays the build' }));
    const audience = await createAudience(db.pool, accountId, { name: 'grant test', creationMethod: 'NORMAL' });
    await setSearchParams(db, accountId, String(audience.id), {
      companySearchParams: {},
      maxCompanies: 3,
      maxProspects: 5,
    });
    await startBuild(db, accountId, String(audience.id));
    await waitFor('the build', async () => {
      const row = await db.pool.query<{ status: string }>(
        'SELECT status FROM audiences WHERE account_id = $1 AND id = $2',
        [accountId, audience.id],
      );
      return row.rows[0]?.status === 'NORMAL';
    });
    // Spend what is left, so the account starts the month with nothing but its grant.
    const left = await getBalance(db.pool, accountId);
    await db.transaction((tx) => charge(tx, accountId, left, { unit: 'test', reason: 'test: empties the balance' }));
    return String(audience.id);
  }

  const setups: Record<string, Setup> = {
    companySearch: async () => ({
      method: 'POST',
      path: '/v1/company-search',
      body: { searchParams: {}, pageSize: 5 },
    }),
    peopleSearch: async () => ({ method: 'POST', path: '/v1/people-search', body: { searchParams: {}, pageSize: 5 } }),
    buildAudience: async (accountId) => {
      const db = app.service.context.db;
      const audience = await createAudience(db.pool, accountId, { name: 'grant test', creationMethod: 'NORMAL' });
      await setSearchParams(db, accountId, String(audience.id), {
        companySearchParams: {},
        maxCompanies: 3,
        maxProspects: 5,
      });
      return { method: 'POST', path: `/v1/audiences/${audience.id}/build`, body: {} };
    },
    triggerEnrichment: async (accountId) => {
      const audienceId = await builtAudience(accountId);
      const options = {
        maxProspectsToEnrich: 2,
        runContactEnrichment: true,
        enrichmentType: { getWorkEmails: true, getPersonalEmails: false, getPhoneNumbers: false },
      };
      const { audienceId: _id, ...parsed } = estimateEnrichmentCost.input.parse({ audienceId, ...options });
      await estimateEnrichment(app.service.context.db, accountId, audienceId, parsed);
      return { method: 'POST', path: `/v1/audiences/${audienceId}/enrich`, body: options };
    },
    startBatchContactEnrichment: async () => ({
      method: 'POST',
      path: '/v1/contact-enrichment/batch',
      body: {
        profileUrls: [personSlug],
        enrichmentType: { getWorkEmails: true, getPersonalEmails: false, getPhoneNumbers: false },
      },
    }),
    revealContactSync: async () => ({
      method: 'POST',
      path: '/v1/individual-reveal/sync',
      body: {
        profileUrl: personSlug,
        enrichmentType: { getWorkEmails: true, getPersonalEmails: false, getPhoneNumbers: false },
      },
    }),
    revealContactSingle: async () => ({
      method: 'POST',
      path: '/v1/contact-details/single',
      body: { profileUrl: personSlug },
    }),
    liveEnrichCompany: async () => ({
      method: 'POST',
      path: '/v1/network-live-fetch/company/single',
      body: { type: 'slug', value: companySlug },
    }),
    liveEnrichPerson: async () => ({
      method: 'POST',
      path: '/v1/network-live-fetch/profile/single',
      body: { identifier: personSlug },
    }),
    companyCount: async () => ({ method: 'POST', path: '/v1/company-count', body: { searchParams: {} } }),
    peopleCount: async () => ({ method: 'POST', path: '/v1/people-search/count', body: { searchParams: {} } }),
    companyTypeahead: async () => ({ method: 'GET', path: `/v1/typeahead/companies?query=a&apiKey=` }),
    locationTypeahead: async () => ({ method: 'GET', path: `/v1/typeahead/locations?query=par&apiKey=` }),
    validateEmail: async () => ({
      method: 'POST',
      path: '/v1/email/validate',
      body: { email: 'jane@acme-widgets.com' },
    }),
    findPersonByWorkEmail: async () => ({
      method: 'POST',
      path: '/v1/people/by-work-email',
      body: { email: workEmail },
    }),
    createSavedSearch: async () => ({
      method: 'POST',
      path: '/v1/saved-searches',
      body: { name: 'watch', kind: 'companies', companySearchParams: {}, schedule: 'daily' },
    }),
    updateSavedSearch: async (accountId) => ({
      method: 'PATCH',
      path: `/v1/saved-searches/${await savedSearchOf(accountId)}`,
      body: { schedule: 'weekly' },
    }),
    runSavedSearch: async (accountId) => ({
      method: 'POST',
      path: `/v1/saved-searches/${await savedSearchOf(accountId)}/runs`,
      body: { maxNewRecords: 5 },
    }),
    matchCompanies: async () => ({ method: 'POST', path: '/v1/companies/match', body: { rows: [{ name: 'Acme' }] } }),
    matchPeople: async () => ({
      method: 'POST',
      path: '/v1/people/match',
      body: { rows: [{ profileUrl: personSlug }] },
    }),
    findSimilarCompanies: async () => ({
      method: 'POST',
      path: '/v1/companies/similar',
      body: { seeds: [{ slug: companySlug }], pageSize: 5 },
    }),
    findSimilarPeople: async () => ({
      method: 'POST',
      path: '/v1/people/similar',
      body: { seeds: [{ slug: personSlug }], pageSize: 5 },
    }),
    createWatchList: async () => ({
      method: 'POST',
      path: '/v1/watch-lists',
      body: { name: 'grant test', kind: 'people', checkEvery: 'month' },
    }),
    updateWatchList: async (accountId) => ({
      method: 'PATCH',
      path: `/v1/watch-lists/${await watchListOf(accountId)}`,
      body: { checkEvery: 'week' },
    }),
    addWatchListItems: async (accountId) => ({
      method: 'POST',
      path: `/v1/watch-lists/${await watchListOf(accountId)}/items`,
      body: { items: [personSlug] },
    }),
    addWatchListItemsFromAudience: async (accountId) => ({
      method: 'POST',
      path: `/v1/watch-lists/${await watchListOf(accountId)}/items/from-audience`,
      body: { audienceId: await builtAudience(accountId) },
    }),
  };

  /** A watch list of the account, made without a request of the account's own. */
  async function watchListOf(accountId: number): Promise<string> {
    const created = await app.db.pool.query<{ id: number }>(
      `INSERT INTO watch_lists (account_id, name, kind, check_every) VALUES ($1, 'grant test', 'people', 'month') RETURNING id`,
      [accountId],
    );
    return String(created.rows[0]?.id);
  }

  /** A saved search of the account, made without a request of the account's own. */
  async function savedSearchOf(accountId: number): Promise<string> {
    const created = await app.db.pool.query<{ id: number }>(
      `INSERT INTO saved_searches (account_id, name, kind, query, schedule, max_new_records_per_run) VALUES ($1, 'grant test', 'companies', $2, 'manual', 10) RETURNING id`,
      [accountId, JSON.stringify({ searchParams: {} })],
    );
    return String(created.rows[0]?.id);
  }

  const charging = operations.filter((operation) => operation.credits.charged !== 'free');

  it('has a case for every operation that charges', () => {
    expect(charging.length).toBeGreaterThan(0);
    const missing = charging.map((o) => o.operationId).filter((id) => !(id in setups));
    expect(missing, 'add a case to this test for each new charging operation').toEqual([]);
  });

  for (const operation of charging) {
    it(`${operation.operationId}: usable as a free-plan account's first request of the month`, async () => {
      const setup = setups[operation.operationId];
      if (!setup) throw new Error(`no case for ${operation.operationId}`);
      const account = await app.createAccount({ credits: 0, plan: 'free' });
      const call = await setup(account.accountId);
      // GET carries the key in the query string (a path ending in apiKey= takes it); the others in the body.
      const response =
        call.method === 'GET'
          ? await app.request('GET', `${call.path}${account.apiKey}`)
          : await app.request(call.method, call.path, { apiKey: account.apiKey, ...call.body });
      expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
      const grants = await app.db.pool.query('SELECT amount FROM credit_ledger WHERE account_id = $1 AND unit = $2', [
        account.accountId,
        'grant',
      ]);
      expect(grants.rows).toEqual([{ amount: monthlyCredits }]);
    });
  }

  it('grants once when fifty first requests of the month arrive together, with no 5xx', async () => {
    const account = await app.createAccount({ credits: 0, plan: 'free' });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => app.request('GET', `/v1/credits?apiKey=${account.apiKey}`)),
    );
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    const grants = await app.db.pool.query('SELECT amount FROM credit_ledger WHERE account_id = $1 AND unit = $2', [
      account.accountId,
      'grant',
    ]);
    expect(grants.rowCount).toBe(1);
    expect(await getBalance(app.db.pool, account.accountId)).toBe(monthlyCredits);
  });
});
