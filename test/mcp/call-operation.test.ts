import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { clientKinds, connectMcp, summaryOf, type McpTestClient } from './clients.js';

async function balanceOf(app: TestApp, apiKey: string): Promise<number> {
  const answer = await app.request('GET', `/v1/credits?apiKey=${encodeURIComponent(apiKey)}`);
  return answer.body.output.balance as number;
}

describe('call_operation forwards to the REST API as the caller', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ catalog: 'seeded' });
  });
  afterAll(async () => {
    await app?.stop();
  });

  const searches = [
    {
      operationId: 'companySearch',
      path: '/v1/company-search',
      payload: { searchParams: { headquartersCountryCode: ['US'] }, pageSize: 10 },
    },
    {
      operationId: 'peopleSearch',
      path: '/v1/people-search',
      payload: { searchParams: { yearsOfExperience: { min: 5 } }, pageSize: 10 },
    },
  ] as const;

  for (const kind of clientKinds) {
    for (const search of searches) {
      it(`${search.operationId} through call_operation returns the REST page and charges the same (${kind})`, async () => {
        const account = await app.createAccount({ credits: 10_000 });
        const rest = await app.request('POST', search.path, { apiKey: account.apiKey, ...search.payload });
        expect(rest.status).toBe(200);
        expect(rest.body.output.data).toHaveLength(10);
        expect(await balanceOf(app, account.apiKey)).toBe(10_000 - 10);

        const client = await connectMcp(`${app.url}/mcp`, kind, { headers: { 'x-api-key': account.apiKey } });
        try {
          const answer = await client.callTool('call_operation', {
            operationId: search.operationId,
            payload: search.payload,
          });
          expect(answer.isError).toBeFalsy();
          expect(answer.structuredContent.output).toEqual(rest.body.output);
          expect(answer.structuredContent.chargeInfo).toEqual(rest.body.chargeInfo);
          expect(answer.structuredContent.chargeInfo).toMatchObject({ method: 'charged-now', creditsCharged: 10 });
          expect(summaryOf(answer)).toContain('Charged 10 credits');
          expect(JSON.parse(answer.content[1]?.text ?? '{}')).toEqual(answer.structuredContent);
          expect(await balanceOf(app, account.apiKey)).toBe(10_000 - 20);

          const second = await client.callTool('call_operation', {
            operationId: search.operationId,
            payload: { ...search.payload, cursor: answer.structuredContent.output.nextCursor },
          });
          const restSecond = await app.request('POST', search.path, {
            apiKey: account.apiKey,
            ...search.payload,
            cursor: rest.body.output.nextCursor,
          });
          expect(second.structuredContent.output.data).toEqual(restSecond.body.output.data);
        } finally {
          await client.close();
        }
      });
    }
  }

  it('weighs a charged call against the balance without running getCreditBalance: one log row, one rate-limit token', async () => {
    const account = await app.createAccount({ credits: 1_000 });
    const client = await connectMcp(`${app.url}/mcp`, 'v2-modern', { headers: { 'x-api-key': account.apiKey } });
    try {
      // A worst case of 5 credits: the credit guard reads the balance before the page runs.
      const answer = await client.callTool('call_operation', {
        operationId: 'companySearch',
        payload: { searchParams: { headquartersCountryCode: ['US'] }, pageSize: 5 },
      });
      expect(answer.isError).toBeFalsy();
      expect(answer.structuredContent.chargeInfo).toMatchObject({ creditsCharged: 5 });
    } finally {
      await client.close();
    }
    // The customer's request log shows the one call they made, and nothing they did not.
    const logged = async () =>
      (
        await app.db.pool.query<{ operation_id: string }>(
          'SELECT operation_id FROM request_log WHERE account_id = $1 ORDER BY id',
          [account.accountId],
        )
      ).rows.map((row) => row.operation_id);
    await expect.poll(logged).toContain('companySearch');
    expect(await logged()).toEqual(['companySearch']);
    // No token of getCreditBalance's class was spent: this take is the minute's first.
    const taken = await app.service.context.services.rateLimits.take(String(account.accountId), 'status');
    expect(taken.remaining).toBe(taken.limit - 1);
  });

  it('runs the same call through the generated tool of /mcp/v2', async () => {
    const account = await app.createAccount({ credits: 1000 });
    const client = await connectMcp(`${app.url}/mcp/v2`, 'v2-modern', { headers: { 'x-api-key': account.apiKey } });
    try {
      const answer = await client.callTool('companySearch', {
        searchParams: { headquartersCountryCode: ['DE'] },
        pageSize: 3,
      });
      const rest = await app.request('POST', '/v1/company-search', {
        apiKey: account.apiKey,
        searchParams: { headquartersCountryCode: ['DE'] },
        pageSize: 3,
      });
      expect(answer.isError).toBeFalsy();
      expect(answer.structuredContent.output).toEqual(rest.body.output);
      expect(await balanceOf(app, account.apiKey)).toBe(1000 - 6);
      const balance = await client.callTool('getCreditBalance', {});
      expect(balance.structuredContent.output.balance).toBe(1000 - 6);
      expect(balance.structuredContent.chargeInfo.method).toBe('free');
    } finally {
      await client.close();
    }
  });

  it('turns REST errors into tool errors with status, code, message and next step, charging nothing', async () => {
    const account = await app.createAccount({ credits: 1000 });
    const client = await connectMcp(`${app.url}/mcp`, 'v1', { headers: { 'x-api-key': account.apiKey } });
    try {
      const first = await client.callTool('call_operation', {
        operationId: 'companySearch',
        payload: { searchParams: { headquartersCountryCode: ['US'] }, pageSize: 2 },
      });
      const mismatch = await client.callTool('call_operation', {
        operationId: 'companySearch',
        payload: {
          searchParams: { headquartersCountryCode: ['FR'] },
          pageSize: 2,
          cursor: first.structuredContent.output.nextCursor,
        },
      });
      expect(mismatch.isError).toBe(true);
      expect(mismatch.structuredContent.error).toMatchObject({ status: 400, code: 'cursor_mismatch' });
      expect(mismatch.structuredContent.error.nextStep).toContain('same searchParams');
      expect(summaryOf(mismatch)).toMatch(/^Error HTTP 400 cursor_mismatch: companySearch: .+ Next step: /);
      expect(await balanceOf(app, account.apiKey)).toBe(1000 - 2);
    } finally {
      await client.close();
    }
  });

  it('says when to retry after a 429', async () => {
    const limited = await startTestApp({ catalog: 'empty', env: { RATE_LIMIT_SEARCH_PER_MINUTE: '2' } });
    let client: McpTestClient | null = null;
    try {
      client = await connectMcp(`${limited.url}/mcp`, 'v2-modern', { headers: { 'x-api-key': limited.apiKey } });
      const call = () =>
        client!.callTool('call_operation', {
          operationId: 'companySearch',
          payload: { searchParams: {}, pageSize: 1 },
        });
      expect((await call()).isError).toBeFalsy();
      expect((await call()).isError).toBeFalsy();
      const refused = await call();
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent.error).toMatchObject({ status: 429, code: 'rate_limited' });
      expect(refused.structuredContent.error.retryAfterSeconds).toBeGreaterThan(0);
      expect(refused.structuredContent.error.nextStep).toMatch(/retry after \d+ s/);
    } finally {
      await client?.close();
      await limited.stop();
    }
  });
});
