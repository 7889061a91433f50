import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../operations/index.js';
import { buildAudience, ok, testEnv, waitFor } from '../audiences/helpers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { connectMcp, type McpTestClient } from './clients.js';

/**
 * Every operation of the list-building surface through MCP: `call_operation` on /mcp and the
 * generated tool on /mcp/v2, with the official client. Each case makes its own resources over
 * REST, calls the operation, and checks the answer and what it charged; then bad input (a tool
 * error naming the field) and another account's resource (404).
 */
const newOperations = [
  'companyCount',
  'peopleCount',
  'listExclusionLists',
  'listExclusionListEntries',
  'addExclusionListEntries',
  'removeExclusionListEntries',
  'deleteExclusionList',
  'createExclusionListFromAudience',
  'deleteAudience',
  'createSavedSearch',
  'listSavedSearches',
  'getSavedSearch',
  'updateSavedSearch',
  'deleteSavedSearch',
  'runSavedSearch',
  'getSavedSearchRun',
  'listSavedSearchRuns',
  'listSavedSearchRunRecords',
  'companyTypeahead',
  'locationTypeahead',
  'listTags',
  'listLanguages',
  'listTimeZones',
  'listCountrySubdivisions',
  'validateEmail',
  'findPersonByWorkEmail',
] as const;
type NewOperation = (typeof newOperations)[number];

interface Case {
  /** A valid payload for the account, with whatever it names made over REST first. */
  payload: (apiKey: string) => Promise<Record<string, unknown>>;
  /** Credits the call charges (at once). */
  credits: number;
  check: (output: any) => void;
  /**
   * For a call that starts work in the background: waits for it and returns what it charged, so
   * the balance is read once the work is done rather than racing it.
   */
  settled?: (apiKey: string, output: any) => Promise<number>;
}

describe('the list-building operations over MCP', () => {
  let app: TestApp;
  let audienceId: string;
  let workEmail: string;
  beforeAll(async () => {
    app = await startTestApp({ env: testEnv });
    workEmail = (
      await app.db.pool.query<{ value: string }>(
        `SELECT value FROM person_contacts WHERE kind = 'work_email' ORDER BY person_id LIMIT 1`,
      )
    ).rows[0]?.value as string;
  });
  afterAll(async () => app?.stop());

  const post = async (apiKey: string, path: string, body: Record<string, unknown>) =>
    ok(await app.request('POST', path, { apiKey, ...body })).body.output;
  const list = (apiKey: string) =>
    post(apiKey, '/v1/exclusion-lists', {
      name: 'mcp list',
      kind: 'companies',
      companies: [{ domain: 'example.org' }, { domain: 'nobody-here.example' }],
    });
  const saved = (apiKey: string) =>
    post(apiKey, '/v1/saved-searches', {
      name: 'mcp watch',
      kind: 'companies',
      companySearchParams: { headquartersCountryCode: ['NL'] },
    });
  async function finishedRun(apiKey: string): Promise<{ savedSearchId: string; runId: string }> {
    const search = await saved(apiKey);
    const started = await app.request('POST', `/v1/saved-searches/${search.savedSearchId}/runs`, {
      apiKey,
      maxNewRecords: 2,
    });
    await waitFor('the run', async () => {
      const run = ok(
        await app.request(
          'GET',
          `/v1/saved-searches/${search.savedSearchId}/runs/${started.body.output.runId}?apiKey=${apiKey}`,
        ),
      ).body.output;
      return run.status === 'DONE';
    });
    return { savedSearchId: search.savedSearchId, runId: started.body.output.runId };
  }

  const cases: Record<NewOperation, Case> = {
    companyCount: {
      payload: async () => ({ searchParams: { headquartersCountryCode: ['US'], employeeCountV2: { min: 51 } } }),
      credits: 1,
      check: (o) => expect(o).toMatchObject({ exact: true, exactUpTo: 1_000 }),
    },
    peopleCount: { payload: async () => ({ searchParams: {} }), credits: 1, check: (o) => expect(o.exact).toBe(false) },
    listExclusionLists: {
      payload: async (k) => (await list(k), {}),
      credits: 0,
      check: (o) => expect(o.data[0]).toMatchObject({ name: 'mcp list', entries: 2 }),
    },
    listExclusionListEntries: {
      payload: async (k) => ({ exclusionListId: (await list(k)).exclusionListId }),
      credits: 0,
      check: (o) => expect(o.data.map((e: { matched: boolean }) => e.matched)).toEqual([false, false]),
    },
    addExclusionListEntries: {
      payload: async (k) => ({
        exclusionListId: (await list(k)).exclusionListId,
        companies: [{ domain: 'another.example' }],
      }),
      credits: 0,
      check: (o) => expect(o).toMatchObject({ added: 1, entries: 3, unmatched: [0] }),
    },
    removeExclusionListEntries: {
      payload: async (k) => ({
        exclusionListId: (await list(k)).exclusionListId,
        companies: [{ domain: 'www.example.org' }],
      }),
      credits: 0,
      check: (o) => expect(o).toMatchObject({ removed: 1, entries: 1 }),
    },
    deleteExclusionList: {
      payload: async (k) => ({ exclusionListId: (await list(k)).exclusionListId }),
      credits: 0,
      check: (o) => expect(o.deleted).toBe(true),
    },
    createExclusionListFromAudience: {
      payload: async () => ({ audienceId, kind: 'companies', name: 'from audience' }),
      credits: 0,
      check: (o) => expect(o).toMatchObject({ kind: 'companies', size: 3 }),
    },
    deleteAudience: {
      payload: async (k) => ({ audienceId: (await post(k, '/v1/audiences/create', { name: 'to delete' })).audienceId }),
      credits: 0,
      check: (o) => expect(o).toMatchObject({ deleted: true, refundedCredits: 0 }),
    },
    createSavedSearch: {
      payload: async () => ({
        name: 'watch',
        kind: 'people',
        peopleSearchParams: { jobTitleV2: { included: ['Director'] } },
        schedule: 'weekly',
        maxNewRecordsPerRun: 20,
      }),
      credits: 0,
      check: (o) => expect(o).toMatchObject({ kind: 'people', schedule: 'weekly', maxNewRecordsPerRun: 20 }),
    },
    listSavedSearches: {
      payload: async (k) => (await saved(k), {}),
      credits: 0,
      check: (o) => expect(o.data[0]).toMatchObject({ name: 'mcp watch' }),
    },
    getSavedSearch: {
      payload: async (k) => ({ savedSearchId: (await saved(k)).savedSearchId }),
      credits: 0,
      check: (o) => expect(o).toMatchObject({ name: 'mcp watch', latestRun: null }),
    },
    updateSavedSearch: {
      payload: async (k) => ({ savedSearchId: (await saved(k)).savedSearchId, name: 'renamed' }),
      credits: 0,
      check: (o) => expect(o).toMatchObject({ name: 'renamed', searchParams: { headquartersCountryCode: ['NL'] } }),
    },
    deleteSavedSearch: {
      payload: async (k) => ({ savedSearchId: (await saved(k)).savedSearchId }),
      credits: 0,
      check: (o) => expect(o.deleted).toBe(true),
    },
    runSavedSearch: {
      payload: async (k) => ({ savedSearchId: (await saved(k)).savedSearchId, maxNewRecords: 3 }),
      credits: 0,
      check: (o) => expect(o).toMatchObject({ status: 'QUEUED', maxNewRecords: 3 }),
      settled: async (k, o) => {
        let charged = -1;
        await waitFor('the run', async () => {
          const run = ok(await app.request('GET', `/v1/saved-searches/${o.savedSearchId}/runs/${o.runId}?apiKey=${k}`))
            .body.output;
          charged = run.creditsCharged;
          return run.status === 'DONE';
        });
        expect(charged).toBeGreaterThan(0);
        return charged;
      },
    },
    getSavedSearchRun: {
      payload: async (k) => finishedRun(k),
      credits: 0,
      check: (o) => expect(o).toMatchObject({ status: 'DONE', newRecords: 2, creditsCharged: 4 }),
    },
    listSavedSearchRuns: {
      payload: async (k) => ({ savedSearchId: (await finishedRun(k)).savedSearchId }),
      credits: 0,
      check: (o) => expect(o.data).toHaveLength(1),
    },
    listSavedSearchRunRecords: {
      payload: async (k) => finishedRun(k),
      credits: 0,
      check: (o) => expect(o.data.map((r: { isNew: boolean }) => r.isNew)).toEqual([true, true]),
    },
    companyTypeahead: {
      payload: async () => ({ query: 'a', limit: 3 }),
      credits: 1,
      check: (o) => expect(o.data).toHaveLength(3),
    },
    locationTypeahead: {
      payload: async () => ({ query: 'berl', kinds: 'city' }),
      credits: 1,
      check: (o) => expect(o.data[0]).toMatchObject({ kind: 'city', name: 'Berlin' }),
    },
    listTags: { payload: async () => ({}), credits: 0, check: (o) => expect(o.fundingStages).toContain('SEED') },
    listLanguages: {
      payload: async () => ({}),
      credits: 0,
      check: (o) => expect(o.languages.length).toBeGreaterThan(20),
    },
    listTimeZones: {
      payload: async () => ({}),
      credits: 0,
      check: (o) => expect(o.timeZones.length).toBeGreaterThan(300),
    },
    listCountrySubdivisions: {
      payload: async () => ({ countryCode: 'CA' }),
      credits: 0,
      check: (o) => expect(o.subdivisions.map((s: { code: string }) => s.code)).toContain('CA-QC'),
    },
    validateEmail: {
      payload: async () => ({ email: 'someone@yopmail.com' }),
      credits: 1,
      check: (o) => expect(o).toMatchObject({ valid: false, checks: { disposable: true } }),
    },
    findPersonByWorkEmail: {
      payload: async () => ({ email: workEmail }),
      credits: 2,
      check: (o) => expect(o.found).toBe(true),
    },
  };

  it('has a case for every operation this surface added, and they are in the registry', () => {
    const registered = new Set(operations.map((o) => o.operationId));
    for (const id of newOperations) expect(registered.has(id), id).toBe(true);
    expect(Object.keys(cases).sort()).toEqual([...newOperations].sort());
  });

  for (const surface of ['/mcp', '/mcp/v2'] as const) {
    it(`runs each of them through ${surface === '/mcp' ? 'call_operation on /mcp' : 'its generated tool on /mcp/v2'}, charging as REST does`, async () => {
      const account = await app.createAccount({ credits: 10_000 });
      audienceId = (
        await buildAudience(app, account.apiKey, {
          filters: { companySearchParams: { headquartersCountryCode: ['US'] }, maxCompanies: 3, maxProspects: 3 },
        })
      ).audienceId;
      const client: McpTestClient = await connectMcp(`${app.url}${surface}`, 'v2-modern', {
        headers: { 'x-api-key': account.apiKey },
      });
      try {
        for (const id of newOperations) {
          const payload = await cases[id].payload(account.apiKey);
          const before = ok(await app.request('GET', `/v1/credits?apiKey=${account.apiKey}`)).body.output.balance;
          const answer =
            surface === '/mcp'
              ? await client.callTool('call_operation', { operationId: id, payload })
              : await client.callTool(id, payload);
          expect(answer.isError, `${id}: ${answer.content[0]?.text}`).toBeFalsy();
          cases[id].check(answer.structuredContent.output);
          const later = (await cases[id].settled?.(account.apiKey, answer.structuredContent.output)) ?? 0;
          const after = ok(await app.request('GET', `/v1/credits?apiKey=${account.apiKey}`)).body.output.balance;
          expect(before - after, id).toBe(cases[id].credits + later);
          if (cases[id].credits > 0)
            expect(answer.structuredContent.chargeInfo.creditsCharged, id).toBe(cases[id].credits);
        }
      } finally {
        await client.close();
      }
    });
  }

  it('refuses bad input with a tool error naming the field, before anything runs', async () => {
    const account = await app.createAccount({ credits: 100 });
    const client = await connectMcp(`${app.url}/mcp`, 'v2-modern', { headers: { 'x-api-key': account.apiKey } });
    const v2 = await connectMcp(`${app.url}/mcp/v2`, 'v2-modern', { headers: { 'x-api-key': account.apiKey } });
    try {
      const bad: Array<[NewOperation, Record<string, unknown>, string]> = [
        ['companyCount', { searchParams: { employeeCountV2: { min: 9, max: 1 } } }, 'searchParams.employeeCountV2.min'],
        ['runSavedSearch', { savedSearchId: '1', maxNewRecords: 5000 }, 'maxNewRecords'],
        ['locationTypeahead', { query: 'x', kinds: 'moon' }, 'kinds'],
        ['validateEmail', { email: '' }, 'email'],
        ['addExclusionListEntries', { exclusionListId: 'one', companies: [] }, 'exclusionListId'],
      ];
      for (const [id, payload, field] of bad) {
        const answer = await client.callTool('call_operation', { operationId: id, payload });
        expect(answer.isError, id).toBe(true);
        expect(JSON.stringify(answer.structuredContent.error.details.issues), id).toContain(field);
        const generated = await v2.callTool(id, payload);
        expect(generated.isError, id).toBe(true);
        expect(generated.content.map((c) => c.text).join(' '), id).toContain(field);
      }
      expect(ok(await app.request('GET', `/v1/credits?apiKey=${account.apiKey}`)).body.output.balance).toBe(100);
    } finally {
      await client.close();
      await v2.close();
    }
  });

  it('tells agents to count before spending and to name exclusion lists before building, in llms.txt and the audience_workflow prompt', async () => {
    const client = await connectMcp(`${app.url}/mcp`, 'v2-modern', { headers: { 'x-api-key': app.apiKey } });
    try {
      const prompt = await client.getPromptText('audience_workflow', {});
      const llms = await client.readResource('pds://docs/llms.txt');
      for (const text of [prompt, llms]) {
        expect(text).toMatch(/Count before spending: companyCount or peopleCount/);
        expect(text).toMatch(/Exclusion lists before building: .*companyExclusionListIDs \/ prospectExclusionListIDs/);
      }
      // Both come before the first step of the workflow.
      expect(prompt.indexOf('companyCount')).toBeLessThan(prompt.indexOf('createAudience'));
      expect(prompt.indexOf('createExclusionList')).toBeLessThan(prompt.indexOf('1. createAudience'));
    } finally {
      await client.close();
    }
  });

  it("answers 404 for another account's lists, audiences and saved searches", async () => {
    const owner = await app.createAccount({ credits: 1000 });
    const stranger = await app.createAccount({ credits: 1000 });
    const theirList = (await list(owner.apiKey)).exclusionListId;
    const theirSearch = await finishedRun(owner.apiKey);
    const theirAudience = (await post(owner.apiKey, '/v1/audiences/create', { name: 'owned' })).audienceId;
    const client = await connectMcp(`${app.url}/mcp`, 'v2-modern', { headers: { 'x-api-key': stranger.apiKey } });
    try {
      const calls: Array<[NewOperation, Record<string, unknown>]> = [
        ['listExclusionListEntries', { exclusionListId: theirList }],
        ['deleteExclusionList', { exclusionListId: theirList }],
        ['companyCount', { searchParams: {}, companyExclusionListIDs: [theirList] }],
        ['deleteAudience', { audienceId: theirAudience }],
        ['getSavedSearch', { savedSearchId: theirSearch.savedSearchId }],
        ['runSavedSearch', { savedSearchId: theirSearch.savedSearchId }],
        ['listSavedSearchRunRecords', theirSearch],
      ];
      for (const [id, payload] of calls) {
        const answer = await client.callTool('call_operation', { operationId: id, payload });
        expect(answer.isError, id).toBe(true);
        expect(answer.structuredContent.error, id).toMatchObject({ status: 404, code: 'not_found' });
      }
      expect(ok(await app.request('GET', `/v1/credits?apiKey=${stranger.apiKey}`)).body.output.balance).toBe(1000);
    } finally {
      await client.close();
    }
  });
});
