import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../../operations/index.js';
import { pathParameters } from '../../../operations/define.js';
import { accountWithResources, fuzzEnv, snapshot, type FuzzAccount } from '../../fuzz/fixtures.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { connectMcp, type McpTestClient } from '../../mcp/clients.js';

/**
 * OWASP API1:2023 Broken Object Level Authorization. An account that names another account's
 * object, of any kind, anywhere (a path, a body, an MCP stored result, a confirmation token),
 * is answered as if the object did not exist (404, never 403: existence is not disclosed), and
 * nothing of the owner's changes. One table over the registry, so a new operation with a path
 * parameter is covered the day it is added. Random probes of the same rule: test/fuzz/rest-valid.test.ts
 * ("naming another account's resources"); tampered export links: test/audiences/exports.test.ts.
 */
describe('API1 object-level authorization across accounts', () => {
  let app: TestApp;
  let owner: FuzzAccount;
  let stranger: { accountId: number; apiKey: string };
  beforeAll(async () => {
    app = await startTestApp({ env: { ...fuzzEnv, MCP_RESPONSE_TOKEN_BUDGET: '2500', CONFIRM_ABOVE_CREDITS: '100' } });
    owner = await accountWithResources(app);
    stranger = await app.createAccount({ credits: 10_000 });
  }, 300_000);
  afterAll(async () => {
    await app?.stop();
  });

  /** The owner's object of each kind a path can name. */
  const idOf = (name: string): string => {
    const run = owner.savedSearchRuns[0];
    const ids: Record<string, string | undefined> = {
      audienceId: owner.normalAudiences[0],
      exportId: owner.exports[0]?.exportId,
      taskId: owner.tasks[0],
      exclusionListId: owner.exclusionLists[0],
      savedSearchId: run?.savedSearchId,
      runId: run?.runId,
      webhookEndpointId: owner.webhookDeliveries[0]?.webhookEndpointId,
      deliveryId: owner.webhookDeliveries[0]?.deliveryId,
      watchListId: owner.watchLists[0],
    };
    const id = ids[name];
    if (!id) throw new Error(`no object of the owner for the path parameter ${name}: add it to this table`);
    return id;
  };
  /** Bodies that are valid for each operation, so that only the object's owner can be why a call is refused. */
  const validBodies: Record<string, Record<string, unknown>> = {
    updateAudienceSearchParams: {
      companySearchParams: { headquartersCountryCode: ['US'] },
      maxCompanies: 3,
      maxProspects: 8,
    },
    estimateEnrichmentCost: { runContactEnrichment: true, enrichmentType: { getWorkEmails: true } },
    triggerEnrichment: { runContactEnrichment: true, enrichmentType: { getWorkEmails: true } },
    updateSavedSearch: { name: 'Taken over' },
    updateWebhookEndpoint: { disabled: false },
    runSavedSearch: { maxNewRecords: 3 },
    addExclusionListEntries: { companies: [{ domain: 'taken-over.example' }] },
    removeExclusionListEntries: { companies: [{ domain: 'taken-over.example' }] },
    updateWatchList: { name: 'Taken over' },
    addWatchListItems: { items: [{ profileUrl: 'taken-over' }] },
    // The list is looked up first: whose audience this is cannot change the answer.
    addWatchListItemsFromAudience: { audienceId: '1' },
    removeWatchListItems: { itemIds: ['1'] },
  };
  const withPath = operations.filter((operation) => pathParameters(operation.path).length > 0);

  it("answers every operation on another account's object 404 not_found, the same as an id that exists nowhere, and changes nothing of either account", async () => {
    expect(withPath.length).toBeGreaterThanOrEqual(24);
    const ownerBefore = await snapshot(app, owner.accountId);
    const strangerBefore = await snapshot(app, stranger.accountId);
    const answers: string[] = [];
    for (const operation of withPath) {
      let path = operation.path;
      let nowhere = operation.path;
      for (const name of pathParameters(operation.path)) {
        path = path.replace(`{${name}}`, idOf(name));
        nowhere = nowhere.replace(`{${name}}`, '999999999999');
      }
      const body =
        operation.method === 'GET' || operation.method === 'DELETE'
          ? undefined
          : (validBodies[operation.operationId] ?? {});
      const send = (target: string) =>
        fetch(`${app.url}${target}`, {
          method: operation.method,
          headers: { 'x-api-key': stranger.apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        }).then(async (response) => ({
          status: response.status,
          body: (await response.json()) as { error?: { code?: string; message?: string } },
        }));
      const theirs = await send(path);
      const absent = await send(nowhere);
      answers.push(`${operation.operationId} ${theirs.status}`);
      expect(
        theirs.status,
        `${operation.operationId} ${operation.method} ${path}: ${JSON.stringify(theirs.body)}`,
      ).toBe(404);
      expect(theirs.body.error?.code).toBe('not_found');
      // The message is shaped like the one for an id that exists nowhere: it tells a stranger nothing more.
      expect(theirs.body.error?.message?.replace(/\d+/g, 'N')).toBe(absent.body.error?.message?.replace(/\d+/g, 'N'));
    }
    expect(answers).toHaveLength(withPath.length);
    expect(await snapshot(app, owner.accountId)).toEqual(ownerBefore);
    expect(await snapshot(app, stranger.accountId)).toEqual(strangerBefore);
  });

  it("answers another account's objects named in a body 404, and lists none of them", async () => {
    const ownerBefore = await snapshot(app, owner.accountId);
    const call = (method: string, path: string, body?: unknown) =>
      app.request(method, path, body === undefined ? undefined : { apiKey: stranger.apiKey, ...(body as object) });
    const draft = (await call('POST', '/v1/audiences/create', { name: 'Stranger draft' })).body.output
      .audienceId as string;
    const list = owner.exclusionLists[0] as string;
    const refused = [
      await call('POST', '/v1/exclusion-lists/from-audience', {
        audienceId: owner.normalAudiences[0],
        kind: 'companies',
        name: 'Copied',
      }),
      await call('PATCH', `/v1/audiences/${draft}/search-params`, {
        companySearchParams: {},
        companyExclusionListIDs: [list],
      }),
      await call('POST', '/v1/saved-searches', {
        name: 'Copied',
        kind: 'companies',
        companySearchParams: {},
        companyExclusionListIDs: [list],
      }),
    ];
    for (const answer of refused) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(404);
      expect(answer.body.error.code).toBe('not_found');
    }
    const lists = [
      ['/v1/audiences', 'audienceId', owner.audiences],
      ['/v1/exclusion-lists', 'exclusionListId', owner.exclusionLists],
      ['/v1/saved-searches', 'savedSearchId', owner.savedSearches],
      ['/v1/webhook-endpoints', 'webhookEndpointId', owner.webhookEndpoints],
    ] as const;
    for (const [path, field, ownersIds] of lists) {
      const answer = await app.request('GET', `${path}?apiKey=${stranger.apiKey}`);
      expect(answer.status).toBe(200);
      const seen = JSON.stringify(answer.body.output);
      if (field === 'audienceId') expect(seen).toContain(draft);
      for (const id of ownersIds) expect(seen).not.toContain(`"${field}":"${id}"`);
    }
    expect(await snapshot(app, owner.accountId)).toEqual(ownerBefore);
  });

  describe('through MCP', () => {
    const connect = (apiKey: string): Promise<McpTestClient> =>
      connectMcp(`${app.url}/mcp`, 'v2-modern', { headers: { 'x-api-key': apiKey } });

    it('keeps a stored result to the account whose call made it: another account reading its real resultId is not_found, by tool and by resource', async () => {
      const ownerClient = await connect(owner.apiKey);
      let resultId: string;
      try {
        const first = await ownerClient.callTool('call_operation', {
          operationId: 'companySearch',
          payload: { searchParams: { headquartersCountryCode: ['US'] }, pageSize: 60 },
        });
        expect(first.isError).toBeFalsy();
        resultId = first.structuredContent.truncated?.resultId as string;
        expect(resultId, 'the page must be cut to the budget, so that a result is stored').toBeTruthy();
        // The owner reads it back: the id is real.
        const own = await ownerClient.callTool('call_operation', { operationId: 'companySearch', resultId, offset: 1 });
        expect(own.isError).toBeFalsy();
      } finally {
        await ownerClient.close();
      }
      const strangerClient = await connect(stranger.apiKey);
      try {
        const probe = await strangerClient.callTool('call_operation', {
          operationId: 'companySearch',
          resultId,
          offset: 0,
        });
        expect(probe.isError).toBe(true);
        expect(probe.structuredContent.error.code).toBe('not_found');
        expect(JSON.stringify(probe)).not.toContain('"data"');
        await expect(strangerClient.readResource(`pds://results/${resultId}?offset=0`)).rejects.toThrow();
      } finally {
        await strangerClient.close();
      }
    });

    it('does not let another account redeem a confirmation token, nor spend it', async () => {
      const payload = { searchParams: { headquartersCountryCode: ['US'] }, pageSize: 101 };
      const ownerClient = await connect(owner.apiKey);
      let token: string;
      try {
        const asked = await ownerClient.callTool('call_operation', { operationId: 'companySearch', payload });
        token = asked.structuredContent.confirmationRequired.confirmationToken as string;
        expect(token).toMatch(/^ct1\./);
      } finally {
        await ownerClient.close();
      }
      const strangerBalance = (await snapshot(app, stranger.accountId)).balance;
      const ownerBalance = (await snapshot(app, owner.accountId)).balance;
      const strangerClient = await connect(stranger.apiKey);
      try {
        const refused = await strangerClient.callTool('call_operation', {
          operationId: 'companySearch',
          payload,
          confirmationToken: token,
        });
        expect(refused.isError).toBe(true);
        expect(refused.structuredContent.error.code).toBe('confirmation_refused');
      } finally {
        await strangerClient.close();
      }
      expect((await snapshot(app, stranger.accountId)).balance).toBe(strangerBalance);
      expect((await snapshot(app, owner.accountId)).balance).toBe(ownerBalance);
      // The refusal did not spend it: its owner still can, once.
      const again = await connect(owner.apiKey);
      try {
        const confirmed = await again.callTool('call_operation', {
          operationId: 'companySearch',
          payload,
          confirmationToken: token,
        });
        expect(confirmed.structuredContent.chargeInfo.creditsCharged).toBe(101);
      } finally {
        await again.close();
      }
    });
  });
});
