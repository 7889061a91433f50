import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * The probe's finding: search cursors were not signed, so editing the position inside one
 * worked. Cursors are signed with the service's key and bound to the account.
 */
describe('paging cursors', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.stop();
  });

  const search = { searchParams: { headquartersCountryCode: ['US'] }, pageSize: 5 };

  async function firstCursor(apiKey: string): Promise<string> {
    const first = await app.request('POST', '/v1/company-search', { apiKey, ...search });
    expect(first.status).toBe(200);
    return first.body.output.nextCursor as string;
  }

  it('refuses a cursor whose position was edited, charging nothing', async () => {
    const account = await app.createAccount({ credits: 100 });
    const cursor = await firstCursor(account.apiKey);
    const [payload, signature] = cursor.split('.') as [string, string];
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { k: number };
    const edited = Buffer.from(JSON.stringify({ ...decoded, k: decoded.k + 10_000 })).toString('base64url');
    const answer = await app.request('POST', '/v1/company-search', {
      apiKey: account.apiKey,
      ...search,
      cursor: `${edited}.${signature}`,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.details.issues[0]).toEqual({
      field: 'cursor',
      message: 'not a cursor issued by this service',
    });
    const balance = await app.request('GET', `/v1/credits?apiKey=${account.apiKey}`);
    expect(balance.body.output.balance).toBe(95);
  });

  it("refuses another account's cursor, and pages on with one's own", async () => {
    const owner = await app.createAccount({ credits: 100 });
    const other = await app.createAccount({ credits: 100 });
    const cursor = await firstCursor(owner.apiKey);
    const stolen = await app.request('POST', '/v1/company-search', { apiKey: other.apiKey, ...search, cursor });
    expect(stolen.status).toBe(400);
    expect(stolen.body.error.details.issues[0].field).toBe('cursor');
    const next = await app.request('POST', '/v1/company-search', { apiKey: owner.apiKey, ...search, cursor });
    expect(next.status).toBe(200);
    expect(next.body.output.data).toHaveLength(5);
  });
});
