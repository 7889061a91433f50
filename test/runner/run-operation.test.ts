import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companySearch, getCreditBalance } from '../../operations/index.js';
import type { Principal } from '../../src/core/principal.js';
import { runs } from '../../operations/runs.js';
import { OperationRunner } from '../../src/runner/run-operation.js';
import { balanceOf } from '../audiences/helpers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * The one function that runs an operation for a principal, called as the MCP gateway calls it
 * (in process, no HTTP), on the real service's database: what the credential allows, who it
 * runs as, and idempotency that agrees with REST's.
 */
describe('OperationRunner', () => {
  let app: TestApp;
  let runner: OperationRunner;
  beforeAll(async () => {
    app = await startTestApp({ catalog: 'seeded' });
    runner = new OperationRunner(app.service.context, runs);
  });
  afterAll(async () => {
    await app?.stop();
  });

  const principalOf = async (apiKey: string): Promise<Principal> => {
    const principal = await app.service.context.authenticator.authenticate(apiKey);
    if (!principal) throw new Error('key not found');
    return principal;
  };
  const oauth = (principal: Principal, scopes: string[]): Principal => ({
    ...principal,
    key: null,
    oauth: { clientId: 'test-client', scopes },
  });
  const via = { surface: 'mcp/v3', path: '/mcp/v3' } as const;
  const ledgerOf = async (accountId: number) =>
    (
      await app.db.pool.query<{ amount: string }>(
        'SELECT amount FROM credit_ledger WHERE account_id = $1 AND amount < 0',
        [accountId],
      )
    ).rows.map((row) => Number(row.amount));
  const page = { searchParams: {}, pageSize: 4 };

  it('runs as the API key that made the call, naming that key', async () => {
    const account = await app.createAccount({ credits: 100 });
    const principal = await principalOf(account.apiKey);
    const key = await app.db.pool.query<{ id: string }>('SELECT id FROM api_keys WHERE account_id = $1', [
      account.accountId,
    ]);
    expect(principal.key).toMatchObject({ id: Number(key.rows[0]?.id), readOnly: false, dailyCreditCap: null });
    const answer = await runner.run({ operation: companySearch, principal, fields: page, requestId: 'r-key', via });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ chargeInfo: { creditsCharged: 4 } });
    expect(JSON.parse(answer.json)).toEqual(answer.body);
    expect(answer.headers.RateLimit).toMatch(/^"search";r=\d+;t=\d+$/);
    expect(answer.headers['RateLimit-Policy']).toMatch(/^"search";q=\d+;w=60$/);
    expect(await balanceOf(app, account.apiKey)).toBe(96);
  });

  it('refuses an OAuth grant without mcp:spend an operation that charges, running and charging nothing', async () => {
    const account = await app.createAccount({ credits: 100 });
    const readOnly = oauth(await principalOf(account.apiKey), ['mcp:read']);
    const refused = await runner.run({
      operation: companySearch,
      principal: readOnly,
      fields: page,
      requestId: 'r-1',
      via,
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      error: { code: 'insufficient_scope', details: { requiredScope: 'mcp:spend' }, requestId: 'r-1' },
    });
    expect(await ledgerOf(account.accountId)).toEqual([]);
    // A free operation needs only mcp:read.
    const balance = await runner.run({
      operation: getCreditBalance,
      principal: readOnly,
      fields: {},
      requestId: 'r-2',
      via,
    });
    expect(balance.status).toBe(200);
    expect(balance.body).toMatchObject({ output: { balance: 100 } });
    // Neither scope: not even that.
    const none = await runner.run({
      operation: getCreditBalance,
      principal: oauth(readOnly, []),
      fields: {},
      requestId: 'r-3',
      via,
    });
    expect(none.body).toMatchObject({ error: { code: 'insufficient_scope', details: { requiredScope: 'mcp:read' } } });

    const spending = oauth(readOnly, ['mcp:read', 'mcp:spend']);
    const ran = await runner.run({
      operation: companySearch,
      principal: spending,
      fields: page,
      requestId: 'r-4',
      via,
    });
    expect(ran.status).toBe(200);
    expect(await ledgerOf(account.accountId)).toEqual([-4]);
    // Each run is a row of the account's request log, naming the assistant (the OAuth client), not a key.
    await expect
      .poll(
        async () =>
          (await app.db.pool.query('SELECT 1 FROM request_log WHERE account_id = $1', [account.accountId])).rowCount,
      )
      .toBe(4);
    const rows = await app.db.pool.query(
      'SELECT request_id, surface, status, error_code, credits, api_key_id, client_id FROM request_log WHERE account_id = $1 ORDER BY request_id',
      [account.accountId],
    );
    expect(rows.rows).toEqual([
      {
        request_id: 'r-1',
        surface: 'mcp/v3',
        status: 403,
        error_code: 'insufficient_scope',
        credits: 0,
        api_key_id: null,
        client_id: 'test-client',
      },
      {
        request_id: 'r-2',
        surface: 'mcp/v3',
        status: 200,
        error_code: null,
        credits: 0,
        api_key_id: null,
        client_id: 'test-client',
      },
      {
        request_id: 'r-3',
        surface: 'mcp/v3',
        status: 403,
        error_code: 'insufficient_scope',
        credits: 0,
        api_key_id: null,
        client_id: 'test-client',
      },
      {
        request_id: 'r-4',
        surface: 'mcp/v3',
        status: 200,
        error_code: null,
        credits: 4,
        api_key_id: null,
        client_id: 'test-client',
      },
    ]);
  });

  it('answers a refusal as REST does: the error body, and Retry-After where the refusal says when', async () => {
    const account = await app.createAccount({ credits: 100 });
    const principal = await principalOf(account.apiKey);
    const invalid = await runner.run({
      operation: companySearch,
      principal,
      fields: { searchParams: {}, pageSize: 0, bogus: true },
      requestId: 'r-invalid',
      via,
    });
    expect(invalid.status).toBe(400);
    const fields = (invalid.body as any).error.details.issues.map((issue: { field: string }) => issue.field);
    expect(fields).toEqual(expect.arrayContaining(['pageSize', 'bogus']));
    const rest = await app.request('POST', '/v1/company-search', {
      apiKey: account.apiKey,
      searchParams: {},
      pageSize: 0,
      bogus: true,
    });
    expect({ ...rest.body.error, requestId: null }).toEqual({ ...(invalid.body as any).error, requestId: null });
    expect(await ledgerOf(account.accountId)).toEqual([]);
  });

  it('keys a call as REST does: a repeat through either is answered from the first run and charged once', async () => {
    const account = await app.createAccount({ credits: 100 });
    const principal = await principalOf(account.apiKey);
    const first = await runner.run({
      operation: companySearch,
      principal,
      fields: page,
      requestId: 'r-idem',
      via,
      idempotency: { key: 'same-call' },
    });
    expect(first.status).toBe(200);
    const repeat = await runner.run({
      operation: companySearch,
      principal,
      fields: { pageSize: 4, searchParams: {} },
      requestId: 'r-idem-2',
      via,
      idempotency: { key: 'same-call' },
    });
    expect(repeat.headers['Idempotent-Replayed']).toBe('true');
    expect(repeat.json).toBe(first.json);
    const overRest = await fetch(`${app.url}/v1/company-search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey, 'idempotency-key': 'same-call' },
      body: JSON.stringify(page),
    });
    expect(overRest.headers.get('idempotent-replayed')).toBe('true');
    expect(await overRest.text()).toBe(first.json);
    const other = await runner.run({
      operation: companySearch,
      principal,
      fields: { ...page, pageSize: 5 },
      requestId: 'r-idem-3',
      via,
      idempotency: { key: 'same-call' },
    });
    expect(other.body).toMatchObject({ error: { code: 'idempotency_mismatch' } });
    expect(await ledgerOf(account.accountId)).toEqual([-4]);
  });
});
