import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

let app: TestApp;

beforeAll(async () => {
  // The double-spend race needs all eight searches in flight at once, past the default per-account cap.
  app = await startTestApp({ env: { ACCOUNT_CONCURRENT_SEARCHES: '8' } });
});
afterAll(async () => app?.stop());

async function balanceOf(apiKey: string): Promise<number> {
  const response = await app.request('GET', `/v1/credits?apiKey=${encodeURIComponent(apiKey)}`);
  expect(response.status).toBe(200);
  return response.body.output.balance;
}

async function ledgerOf(accountId: number): Promise<Array<{ amount: number; balance_after: number; unit: string }>> {
  return (
    await app.db.pool.query('SELECT amount, balance_after, unit FROM credit_ledger WHERE account_id = $1 ORDER BY id', [
      accountId,
    ])
  ).rows;
}

describe('paging', () => {
  it('pages a result set with no duplicates and no gaps, in both searches', async () => {
    const expected = (
      await app.db.pool.query<{ id: number }>("SELECT id FROM companies WHERE country_code = 'US' ORDER BY id")
    ).rows.map((r) => String(r.id));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await app.request('POST', '/v1/company-search', {
        apiKey: app.apiKey,
        searchParams: { headquartersCountryCode: ['US'] },
        pageSize: 97,
        ...(cursor ? { cursor } : {}),
      });
      expect(response.status).toBe(200);
      const ids = response.body.output.data.map((r: { last_sort_key: string }) => r.last_sort_key);
      expect(ids.length).toBeLessThanOrEqual(97);
      if (response.body.output.nextCursor) expect(ids.length).toBe(97);
      seen.push(...ids);
      cursor = response.body.output.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(Math.ceil(expected.length / 97));
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expected);

    const people = (
      await app.db.pool.query<{ id: number }>("SELECT id FROM people WHERE title_words LIKE '% director %' ORDER BY id")
    ).rows.map((r) => String(r.id));
    const seenPeople: string[] = [];
    cursor = null;
    do {
      const response = await app.request('POST', '/v1/people-search', {
        apiKey: app.apiKey,
        searchParams: { jobTitleV2: { included: ['Director'] } },
        pageSize: 250,
        cursor,
      });
      seenPeople.push(...response.body.output.data.map((r: { last_sort_key: string }) => r.last_sort_key));
      cursor = response.body.output.nextCursor;
    } while (cursor);
    expect(seenPeople).toEqual(people);
  });

  it('defaults pageSize to 25 and refuses more than 1000', async () => {
    const response = await app.request('POST', '/v1/company-search', { apiKey: app.apiKey, searchParams: {} });
    expect(response.body.output.data).toHaveLength(25);
    const tooMany = await app.request('POST', '/v1/company-search', {
      apiKey: app.apiKey,
      searchParams: {},
      pageSize: 1001,
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details.issues).toEqual([expect.objectContaining({ field: 'pageSize' })]);
  });

  it('refuses a cursor replayed with other searchParams (cursor_mismatch) and a forged cursor', async () => {
    const first = await app.request('POST', '/v1/company-search', {
      apiKey: app.apiKey,
      searchParams: { stage: ['SEED'] },
      pageSize: 5,
    });
    const cursor = first.body.output.nextCursor as string;
    const before = await balanceOf(app.apiKey);
    const changed = await app.request('POST', '/v1/company-search', {
      apiKey: app.apiKey,
      searchParams: { stage: ['SERIES_A'] },
      pageSize: 5,
      cursor,
    });
    expect(changed.status).toBe(400);
    expect(changed.body.error.code).toBe('cursor_mismatch');
    const crossed = await app.request('POST', '/v1/people-search', {
      apiKey: app.apiKey,
      searchParams: {},
      pageSize: 5,
      cursor,
    });
    expect(crossed.body.error.code).toBe('cursor_mismatch');
    const forged = await app.request('POST', '/v1/company-search', {
      apiKey: app.apiKey,
      searchParams: { stage: ['SEED'] },
      cursor: 'not-a-cursor',
    });
    expect(forged.status).toBe(400);
    expect(forged.body.error.details.issues[0].field).toBe('cursor');
    expect(await balanceOf(app.apiKey)).toBe(before);
    const same = await app.request('POST', '/v1/company-search', {
      apiKey: app.apiKey,
      searchParams: { stage: ['SEED'] },
      pageSize: 5,
      cursor,
    });
    expect(same.status).toBe(200);
  });
});

describe('credits', () => {
  it('charges exactly the records returned, and the ledger matches the balance', async () => {
    const account = await app.createAccount({ credits: 5000 });
    let returned = 0;
    for (const [path, body] of [
      ['/v1/company-search', { searchParams: { stage: ['SEED'] }, pageSize: 40 }],
      ['/v1/people-search', { searchParams: { jobTitleV2: { included: ['VP'] } }, pageSize: 33 }],
      ['/v1/company-search', { searchParams: { nameLike: 'zzzz-no-such-company' } }],
    ] as const) {
      const response = await app.request('POST', path, { apiKey: account.apiKey, ...body });
      expect(response.status).toBe(200);
      expect(response.body.chargeInfo.method).toBe('charged-now');
      expect(response.body.chargeInfo.creditsCharged).toBe(response.body.output.data.length);
      returned += response.body.output.data.length;
    }
    expect(returned).toBe(73);
    expect(await balanceOf(account.apiKey)).toBe(5000 - 73);
    const ledger = await ledgerOf(account.accountId);
    expect(ledger.map((e) => e.amount)).toEqual([5000, -40, -33]);
    expect(ledger.map((e) => e.unit)).toEqual(['grant', 'getCompanyFromDb', 'getPersonFromDb']);
    expect(ledger.at(-1)!.balance_after).toBe(5000 - 73);
    expect(ledger.reduce((sum, e) => sum + e.amount, 0)).toBe(5000 - 73);
  });

  it('answers 402 and charges nothing when the balance cannot pay for the page', async () => {
    const account = await app.createAccount({ credits: 10 });
    const refused = await app.request('POST', '/v1/people-search', {
      apiKey: account.apiKey,
      searchParams: {},
      pageSize: 25,
    });
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({ code: 'insufficient_credits', details: { required: 25, balance: 10 } });
    expect(refused.body.output).toBeUndefined();
    expect(await balanceOf(account.apiKey)).toBe(10);
    expect(await ledgerOf(account.accountId)).toHaveLength(1);
    const exact = await app.request('POST', '/v1/people-search', {
      apiKey: account.apiKey,
      searchParams: {},
      pageSize: 10,
    });
    expect(exact.status).toBe(200);
    expect(await balanceOf(account.apiKey)).toBe(0);
    const empty = await app.request('POST', '/v1/company-search', {
      apiKey: account.apiKey,
      searchParams: { nameLike: 'zzzz-no-such' },
    });
    expect(empty.status).toBe(200);
  });

  it('never double-spends under concurrent requests', async () => {
    const account = await app.createAccount({ credits: 100 });
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        app.request('POST', '/v1/company-search', { apiKey: account.apiKey, searchParams: {}, pageSize: 30 }),
      ),
    );
    const ok = responses.filter((r) => r.status === 200).length;
    expect(ok).toBe(3);
    expect(responses.filter((r) => r.status === 402)).toHaveLength(5);
    expect(await balanceOf(account.apiKey)).toBe(10);
  });

  it('grants the free plan 500 credits once per month and reports the plan', async () => {
    const account = await app.createAccount({ credits: 0, plan: 'free' });
    const first = await app.request('GET', `/v1/credits?apiKey=${account.apiKey}`);
    expect(first.body.output).toMatchObject({ balance: 500, plan: 'free', monthlyFreeCredits: 500 });
    expect(first.body.chargeInfo).toEqual({ method: 'free' });
    const again = await app.request('GET', `/v1/get-org-credits?apiKey=${account.apiKey}`);
    expect(again.body.output.balance).toBe(500);
  });

  it('keeps the ledger append-only in the database itself', async () => {
    await expect(app.db.pool.query('UPDATE credit_ledger SET amount = 1')).rejects.toThrow(/append-only/);
    await expect(app.db.pool.query('DELETE FROM credit_ledger')).rejects.toThrow(/append-only/);
    await expect(app.db.pool.query('UPDATE credit_balances SET balance = -1')).rejects.toThrow(/check/i);
  });
});
