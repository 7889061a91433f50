import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '../../src/core/accounts.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { connectMcp } from '../mcp/clients.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.stop());

interface Answer {
  status: number;
  body: any;
  requestId: string;
}

async function call(apiKey: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${app.url}${path}`, {
    method,
    headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  return {
    status: response.status,
    body: await response.json(),
    requestId: response.headers.get('x-request-id') ?? '',
  };
}

const get = (apiKey: string, path: string) => call(apiKey, 'GET', path);
const today = () => new Date().toISOString().slice(0, 10);

async function keyIdOf(apiKey: string): Promise<string> {
  const found = await app.db.pool.query<{ id: string }>('SELECT id FROM api_keys WHERE key_prefix = $1', [
    apiKey.slice(0, 10),
  ]);
  return String(found.rows[0]?.id);
}

async function balanceOf(apiKey: string): Promise<number> {
  return (await get(apiKey, '/v1/credits')).body.output.balance as number;
}

/** The log as it stands once the rows of `requestIds` are in it (a run is logged as its answer leaves). */
async function logWith(apiKey: string, requestIds: string[], query = 'pageSize=200'): Promise<any[]> {
  let data: any[] = [];
  await expect
    .poll(async () => {
      data = (await get(apiKey, `/v1/request-log?${query}`)).body.output.data;
      return requestIds.every((id) => data.some((row) => row.requestId === id));
    })
    .toBe(true);
  return data;
}

describe('usage and the request log through the API', () => {
  let account: { accountId: number; apiKey: string };
  let secondKey: string;
  const made: { people: Answer; company: Answer; typeahead: Answer; bad: Answer } = {} as never;

  beforeAll(async () => {
    account = await app.createAccount({ credits: 10_000 });
    secondKey = await issueApiKey(app.db, account.accountId, 'second');
    made.people = await call(account.apiKey, 'POST', '/v1/people-search', {
      searchParams: { jobTitleV2: { included: ['engineer'] } },
      pageSize: 3,
    });
    made.typeahead = await call(account.apiKey, 'GET', '/v1/typeahead/locations?query=san&limit=2');
    made.company = await call(secondKey, 'POST', '/v1/company-search', {
      searchParams: { headquartersCountryCode: ['US'] },
      pageSize: 2,
    });
    made.bad = await call(secondKey, 'POST', '/v1/company-search', {
      searchParams: { employeeCountV2: { min: 10, max: 1 } },
    });
    expect([made.people.status, made.typeahead.status, made.company.status, made.bad.status]).toEqual([
      200, 200, 200, 400,
    ]);
  });

  it('gives the credits of the ledger by day, operation and key, exactly', async () => {
    const people = made.people.body.chargeInfo.creditsCharged as number;
    const typeahead = made.typeahead.body.chargeInfo.creditsCharged as number;
    const company = made.company.body.chargeInfo.creditsCharged as number;
    expect([people, typeahead, company]).toEqual([3, expect.any(Number), 2]);
    expect(typeahead).toBeGreaterThan(0);
    const ledger = await app.db.pool.query<{ spent: string }>(
      'SELECT -sum(amount) AS spent FROM credit_ledger WHERE account_id = $1 AND amount < 0',
      [account.accountId],
    );
    const total = people + typeahead + company;
    expect(Number(ledger.rows[0]?.spent)).toBe(total);

    const usage = await get(account.apiKey, '/v1/usage');
    expect(usage.status).toBe(200);
    const output = usage.body.output;
    expect(output.total).toBe(total);
    expect(output.to).toBe(today());
    expect(output.byDay).toHaveLength(30);
    expect(output.byDay.at(-1)).toEqual({ day: today(), credits: total });
    expect(output.byOperation).toEqual(
      expect.arrayContaining([
        { operationId: 'peopleSearch', unit: 'getPersonFromDb', credits: people },
        { operationId: 'companySearch', unit: 'getCompanyFromDb', credits: company },
        { operationId: 'locationTypeahead', unit: 'typeahead', credits: typeahead },
      ]),
    );
    expect(output.byOperation).toHaveLength(3);
    const firstKey = { keyId: await keyIdOf(account.apiKey), name: 'initial', prefix: account.apiKey.slice(0, 10) };
    const second = { keyId: await keyIdOf(secondKey), name: 'second', prefix: secondKey.slice(0, 10) };
    expect(output.byKey).toEqual([
      { key: firstKey, credits: people + typeahead },
      { key: second, credits: company },
    ]);
    expect(output.rows).toBeNull();

    const grouped = (await get(account.apiKey, `/v1/usage?from=${today()}&to=${today()}&groupBy=day,key`)).body.output;
    expect(grouped.groupBy).toEqual(['day', 'key']);
    expect(grouped.rows).toEqual([
      { day: today(), key: firstKey, credits: people + typeahead },
      { day: today(), key: second, credits: company },
    ]);
    expect(JSON.stringify(output) + JSON.stringify(grouped)).not.toContain(account.apiKey);
    expect(JSON.stringify(output)).not.toContain(secondKey);
  });

  it('records the operation of each charge in the ledger, where the unit cannot tell it', async () => {
    // typeahead is the unit of companyTypeahead and locationTypeahead alike.
    const entries = await app.db.pool.query<{ operation_id: string; unit: string }>(
      'SELECT operation_id, unit FROM credit_ledger WHERE account_id = $1 AND amount < 0 ORDER BY id',
      [account.accountId],
    );
    expect(entries.rows).toEqual([
      { operation_id: 'peopleSearch', unit: 'getPersonFromDb' },
      { operation_id: 'locationTypeahead', unit: 'typeahead' },
      { operation_id: 'companySearch', unit: 'getCompanyFromDb' },
    ]);
  });

  it('lists the calls just made with their request ids, key names and prefixes, and no secret', async () => {
    const ids = [made.people, made.typeahead, made.company, made.bad].map((a) => a.requestId);
    expect(ids.every((id) => id.length > 0)).toBe(true);
    const data = await logWith(account.apiKey, ids);
    const byId = new Map(data.map((row) => [row.requestId, row]));
    expect(byId.get(made.people.requestId)).toMatchObject({
      operationId: 'peopleSearch',
      status: 200,
      errorCode: null,
      credits: 3,
      surface: 'rest',
      key: { keyId: await keyIdOf(account.apiKey), name: 'initial', prefix: account.apiKey.slice(0, 10) },
      assistant: null,
    });
    expect(byId.get(made.bad.requestId)).toMatchObject({
      operationId: 'companySearch',
      status: 400,
      errorCode: 'invalid_request',
      credits: 0,
      key: { name: 'second', prefix: secondKey.slice(0, 10) },
    });
    // Newest first.
    const times = data.map((row) => Date.parse(row.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const text = JSON.stringify(data);
    expect(text).not.toContain(account.apiKey);
    expect(text).not.toContain(secondKey);
  });

  it('filters by operation, status, status class, key, request id and time', async () => {
    await logWith(account.apiKey, [made.bad.requestId]);
    const list = async (query: string) => {
      const answer = await get(account.apiKey, `/v1/request-log?pageSize=200&${query}`);
      expect(answer.status).toBe(200);
      return answer.body.output.data as any[];
    };
    const people = await list('operationId=peopleSearch');
    expect(people.map((r) => r.requestId)).toEqual([made.people.requestId]);
    expect((await list('status=4xx')).map((r) => r.requestId)).toEqual([made.bad.requestId]);
    expect((await list('status=400')).map((r) => r.requestId)).toEqual([made.bad.requestId]);
    expect(await list('status=404')).toEqual([]);
    const bySecond = await list(`keyId=${await keyIdOf(secondKey)}`);
    expect(bySecond.map((r) => r.requestId).sort()).toEqual([made.company.requestId, made.bad.requestId].sort());
    expect((await list(`requestId=${made.typeahead.requestId}`)).map((r) => r.operationId)).toEqual([
      'locationTypeahead',
    ]);
    const peopleAt = people[0].at as string;
    const from = await list(`from=${encodeURIComponent(peopleAt)}&operationId=peopleSearch`);
    expect(from).toHaveLength(1);
    expect(await list(`to=${encodeURIComponent(peopleAt)}&operationId=peopleSearch`)).toEqual([]);
  });

  it('pages with pageSize and nextCursor, without gaps or repeats, and keeps a cursor to its filters', async () => {
    const account2 = await app.createAccount({ credits: 100 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push((await get(account2.apiKey, '/v1/enums/tags')).requestId);
    const all = (await logWith(account2.apiKey, ids)).filter((row) => row.operationId === 'listTags');
    expect(all.map((row) => row.requestId)).toEqual([...ids].reverse());
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `operationId=listTags&pageSize=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = await get(account2.apiKey, `/v1/request-log?${query}`);
      expect(page.status).toBe(200);
      expect(page.body.output.data.length).toBe(pages < 2 ? 2 : 1);
      seen.push(...page.body.output.data.map((row: any) => row.requestId));
      cursor = page.body.output.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());

    const first = await get(account2.apiKey, '/v1/request-log?operationId=listTags&pageSize=2');
    const moved = await get(
      account2.apiKey,
      `/v1/request-log?operationId=peopleSearch&pageSize=2&cursor=${encodeURIComponent(first.body.output.nextCursor)}`,
    );
    expect(moved.status).toBe(400);
    // Another account's cursor is refused, never read.
    const stolen = await get(
      account.apiKey,
      `/v1/request-log?operationId=listTags&pageSize=2&cursor=${encodeURIComponent(first.body.output.nextCursor)}`,
    );
    expect(stolen.status).toBe(400);
  });

  it('refuses bad ranges and values with a 400 that names the field', async () => {
    const cases: [string, string, string][] = [
      ['/v1/usage?from=2026-11-10&to=2026-11-01', 'from', 'later than to'],
      ['/v1/usage?from=2025-01-01&to=2026-11-30', 'from', 'at most 366'],
      ['/v1/usage?to=2026-13-01', 'to', 'YYYY-MM-DD'],
      ['/v1/usage?from=yesterday', 'from', 'YYYY-MM-DD'],
      ['/v1/usage?groupBy=week', 'groupBy', 'day, operation or key'],
      ['/v1/usage?days=7', 'days', ''],
      ['/v1/request-log?status=4x', 'status', '4xx'],
      ['/v1/request-log?keyId=abc', 'keyId', 'decimal'],
      ['/v1/request-log?from=2026-11-01', 'from', 'ISO 8601'],
      ['/v1/request-log?to=0000-02-29T23:04:58Z', 'to', 'year 0000'],
      ['/v1/usage?from=0000-02-29&to=0001-01-01', 'from', 'year 0000'],
      ['/v1/request-log?pageSize=201', 'pageSize', ''],
    ];
    for (const [path, field, expected] of cases) {
      const answer = await get(account.apiKey, path);
      expect(answer.status, path).toBe(400);
      expect(answer.body.error.code, path).toBe('invalid_request');
      expect(
        answer.body.error.details.issues.map((i: { field: string }) => i.field),
        path,
      ).toContain(field);
      expect(answer.body.error.message, path).toContain(field);
      expect(answer.body.error.message, path).toContain(expected);
    }
    // A full year, leap day included, is allowed.
    const year = await get(account.apiKey, '/v1/usage?from=2024-01-01&to=2024-12-31');
    expect(year.status).toBe(200);
    expect(year.body.output.byDay).toHaveLength(366);
  });

  it('shows another account nothing of this one', async () => {
    const other = await app.createAccount({ credits: 100 });
    const usage = await get(other.apiKey, '/v1/usage?groupBy=day,operation,key');
    expect(usage.body.output).toMatchObject({ total: 0, byOperation: [], byKey: [], rows: [] });
    const mine = await get(other.apiKey, '/v1/request-log?pageSize=200');
    const ids = [made.people.requestId, made.company.requestId, made.bad.requestId];
    await logWith(other.apiKey, [mine.requestId]);
    const log = (await get(other.apiKey, '/v1/request-log?pageSize=200')).body.output.data as any[];
    expect(log.every((row) => !ids.includes(row.requestId))).toBe(true);
    expect(log.every((row) => row.key.prefix === other.apiKey.slice(0, 10))).toBe(true);
    // Asking for this account's key or request by id finds nothing.
    const byKey = await get(other.apiKey, `/v1/request-log?keyId=${await keyIdOf(account.apiKey)}`);
    expect(byKey.body.output.data).toEqual([]);
    const byId = await get(other.apiKey, `/v1/request-log?requestId=${made.people.requestId}`);
    expect(byId.body.output.data).toEqual([]);
  });

  it('charges nothing for either operation', async () => {
    const before = await balanceOf(account.apiKey);
    const usage = await get(account.apiKey, '/v1/usage');
    const log = await get(account.apiKey, '/v1/request-log');
    expect(usage.body.chargeInfo.method).toBe('free');
    expect(log.body.chargeInfo.method).toBe('free');
    expect(await balanceOf(account.apiKey)).toBe(before);
    await logWith(account.apiKey, [usage.requestId, log.requestId]);
    const logged = (await get(account.apiKey, `/v1/request-log?requestId=${usage.requestId}`)).body.output.data;
    expect(logged).toMatchObject([{ operationId: 'getUsage', credits: 0 }]);
  });

  it('answers the same through MCP call_operation', async () => {
    const client = await connectMcp(`${app.url}/mcp`, 'v2-modern', { headers: { 'x-api-key': account.apiKey } });
    try {
      const rest = (await get(account.apiKey, '/v1/usage?groupBy=operation')).body.output;
      const usage = await client.callTool('call_operation', {
        operationId: 'getUsage',
        payload: { groupBy: 'operation' },
      });
      expect(usage.isError).toBeFalsy();
      expect(usage.structuredContent.output).toEqual(rest);
      expect(usage.structuredContent.chargeInfo.method).toBe('free');
      const log = await client.callTool('call_operation', {
        operationId: 'listRequestLog',
        payload: { operationId: 'peopleSearch' },
      });
      expect(log.isError).toBeFalsy();
      expect(log.structuredContent.output.data.map((r: any) => r.requestId)).toEqual([made.people.requestId]);
      const bad = await client.callTool('call_operation', {
        operationId: 'getUsage',
        payload: { from: '2026-02-30x' },
      });
      expect(bad.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});
