import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathParameters } from '../../../operations/define.js';
import { operations } from '../../../operations/index.js';
import { accountWithResources, fuzzEnv, snapshot, type FuzzAccount } from '../../fuzz/fixtures.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { connectMcp } from '../../mcp/clients.js';

/**
 * OWASP API3:2023 Broken Object Property Level Authorization (mass assignment). What a caller may
 * set is what each operation's schema names; a property the service keeps for itself (whose
 * account, how many credits, what state, what a call cost) sent in a body, a query string or an
 * MCP payload is a 400 naming it, and changes nothing, on every operation of the registry.
 * Properties the service returns but nobody may set: the schemas are strict objects (an unknown
 * field is refused, test/fuzz/rest-invalid.test.ts 'unknown-field'), checked here by name.
 */
const forbidden: Record<string, unknown> = {
  accountId: 1,
  account_id: 1,
  credits: 1_000_000,
  balance: 1_000_000,
  creditsCharged: 0,
  chargeInfo: { method: 'free', creditsCharged: 0 },
  status: 'NORMAL',
  plan: 'enterprise',
  createdAt: '2020-01-01T00:00:00Z',
  id: '1',
  isAdmin: true,
  role: 'operator',
};

describe('API3 mass assignment', () => {
  let app: TestApp;
  let caller: FuzzAccount;
  let victim: { accountId: number; apiKey: string };
  beforeAll(async () => {
    app = await startTestApp({ env: fuzzEnv });
    caller = await accountWithResources(app);
    victim = await app.createAccount({ credits: 100 });
  }, 300_000);
  afterAll(async () => {
    await app?.stop();
  });

  const ownId = (name: string): string => {
    const run = caller.savedSearchRuns[0];
    const ids: Record<string, string | undefined> = {
      audienceId: caller.buildable[0],
      exportId: caller.exports[0]?.exportId,
      taskId: caller.tasks[0],
      exclusionListId: caller.exclusionLists[0],
      savedSearchId: run?.savedSearchId,
      runId: run?.runId,
    };
    return ids[name] as string;
  };
  /** Paths on the caller's own objects (exports and enrichment on its built audience). */
  const pathOf = (operation: (typeof operations)[number]): string => {
    let path = operation.path;
    for (const name of pathParameters(operation.path)) {
      const id =
        name === 'audienceId' && /export|enrich/i.test(operation.operationId) ? caller.normalAudiences[0] : ownId(name);
      path = path.replace(`{${name}}`, id as string);
    }
    return path;
  };

  it('refuses a property the service keeps for itself, in the body or the query of every operation, with a 400 naming it, and changes nothing', async () => {
    const callerBefore = await snapshot(app, caller.accountId);
    const victimBefore = await snapshot(app, victim.accountId);
    let calls = 0;
    for (const operation of operations) {
      const path = pathOf(operation);
      const inQuery = operation.method === 'GET' || operation.method === 'DELETE';
      for (const [name, value] of Object.entries(forbidden)) {
        const target = inQuery
          ? `${path}${path.includes('?') ? '&' : '?'}${name}=${encodeURIComponent(typeof value === 'object' ? JSON.stringify(value) : String(value))}`
          : path;
        const response = await fetch(`${app.url}${target}`, {
          method: operation.method,
          headers: { 'x-api-key': caller.apiKey, ...(inQuery ? {} : { 'content-type': 'application/json' }) },
          body: inQuery
            ? undefined
            : JSON.stringify({ [name]: name === 'accountId' || name === 'account_id' ? victim.accountId : value }),
        });
        const body = (await response.json()) as {
          error?: { code?: string; details?: { issues?: Array<{ field: string }> } };
        };
        const what = `${operation.operationId} ${operation.method} ${target} with ${name}: ${response.status} ${JSON.stringify(body).slice(0, 300)}`;
        expect(response.status, what).toBe(400);
        expect(body.error?.code, what).toBe('invalid_request');
        expect(
          body.error?.details?.issues?.map((issue) => issue.field),
          what,
        ).toContain(name);
        calls += 1;
      }
    }
    expect(calls).toBe(operations.length * Object.keys(forbidden).length);
    expect(await snapshot(app, caller.accountId)).toEqual(callerBefore);
    expect(await snapshot(app, victim.accountId)).toEqual(victimBefore);
  }, 300_000);

  it('refuses them nested in filters too, and in the calls that create things (the same call without them succeeds)', async () => {
    const creations = [
      { path: '/v1/audiences/create', body: { name: 'Mine' } },
      {
        path: '/v1/exclusion-lists',
        body: { name: 'Mine', kind: 'companies', companies: [{ domain: 'mine.example' }] },
      },
      {
        path: '/v1/saved-searches',
        body: {
          name: 'Mine',
          kind: 'companies',
          companySearchParams: { headquartersCountryCode: ['US'] },
          maxNewRecordsPerRun: 3,
        },
      },
      { path: '/v1/company-search', body: { searchParams: { headquartersCountryCode: ['US'] }, pageSize: 1 } },
    ];
    for (const { path, body } of creations) {
      const before = await snapshot(app, caller.accountId);
      for (const extra of [{ accountId: victim.accountId }, { credits: 1_000_000 }, { status: 'NORMAL' }]) {
        const refused = await app.request('POST', path, { apiKey: caller.apiKey, ...body, ...extra });
        expect(refused.status, `${path} ${JSON.stringify(extra)}: ${JSON.stringify(refused.body)}`).toBe(400);
        expect(refused.body.error.details.issues.map((i: { field: string }) => i.field)).toContain(
          Object.keys(extra)[0],
        );
      }
      expect(await snapshot(app, caller.accountId)).toEqual(before);
      const accepted = await app.request('POST', path, { apiKey: caller.apiKey, ...body });
      expect(accepted.status, JSON.stringify(accepted.body)).toBeLessThan(300);
    }
    const nested = await app.request('POST', '/v1/company-search', {
      apiKey: caller.apiKey,
      searchParams: { headquartersCountryCode: ['US'], accountId: victim.accountId },
      pageSize: 1,
    });
    expect(nested.status).toBe(400);
    expect(nested.body.error.details.issues.map((i: { field: string }) => i.field)).toContain('searchParams.accountId');
    expect(await snapshot(app, victim.accountId)).toMatchObject({ balance: 100 });
  });

  it('refuses them in an MCP payload before anything is sent or charged', async () => {
    const before = await snapshot(app, caller.accountId);
    const client = await connectMcp(`${app.url}/mcp`, 'v2-modern', { headers: { 'x-api-key': caller.apiKey } });
    try {
      for (const name of ['accountId', 'credits', 'status']) {
        const answer = await client.callTool('call_operation', {
          operationId: 'createAudience',
          payload: { name: 'Via MCP', [name]: forbidden[name] },
        });
        expect(answer.isError).toBe(true);
        expect(answer.structuredContent.error.code).toBe('invalid_request');
        expect(answer.structuredContent.error.details.issues.map((i: { field: string }) => i.field)).toContain(name);
      }
    } finally {
      await client.close();
    }
    expect(await snapshot(app, caller.accountId)).toEqual(before);
  });
});
