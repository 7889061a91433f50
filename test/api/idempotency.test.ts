import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimIdempotencyKey } from '../../src/runner/idempotency.js';
import type { Queryable } from '../../src/store/db.js';
import { balanceOf } from '../audiences/helpers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/** Idempotent retries, as Stripe does them, over HTTP on the real service. */
describe('Idempotency-Key', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { ACCOUNT_CONCURRENT_SEARCHES: '8', RATE_LIMIT_SEARCH_PER_MINUTE: '10000' } });
  });
  afterAll(async () => {
    await app.stop();
  });

  const post = async (path: string, body: Record<string, unknown>, key?: string) => {
    const response = await fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) },
      body: JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  };

  it('answers a repeat with the first answer, marked replayed, and charges once', async () => {
    const account = await app.createAccount({ credits: 1_000 });
    const body = { apiKey: account.apiKey, searchParams: {}, pageSize: 7 };
    const first = await post('/v1/company-search', body, 'retry-1');
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await post('/v1/company-search', body, 'retry-1');
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await balanceOf(app, account.apiKey)).toBe(1_000 - 7);
  });

  it('refuses the same key with another body with 400 idempotency_mismatch, changing nothing', async () => {
    const account = await app.createAccount({ credits: 1_000 });
    await post('/v1/company-search', { apiKey: account.apiKey, searchParams: {}, pageSize: 3 }, 'reused');
    const other = await post('/v1/company-search', { apiKey: account.apiKey, searchParams: {}, pageSize: 4 }, 'reused');
    expect(other.status).toBe(400);
    expect(other.body.error.code).toBe('idempotency_mismatch');
    const otherEndpoint = await post(
      '/v1/people-search',
      { apiKey: account.apiKey, searchParams: {}, pageSize: 3 },
      'reused',
    );
    expect(otherEndpoint.body.error.code).toBe('idempotency_mismatch');
    expect(await balanceOf(app, account.apiKey)).toBe(1_000 - 3);
  });

  it("keeps keys per account: another account's same key runs its own request", async () => {
    const first = await app.createAccount({ credits: 100 });
    const second = await app.createAccount({ credits: 100 });
    await post('/v1/company-search', { apiKey: first.apiKey, searchParams: {}, pageSize: 2 }, 'shared-key');
    const theirs = await post(
      '/v1/company-search',
      { apiKey: second.apiKey, searchParams: {}, pageSize: 2 },
      'shared-key',
    );
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(await balanceOf(app, second.apiKey)).toBe(98);
  });

  it('stores an answer to bad input like a success, and does not store a refusal to pay', async () => {
    const account = await app.createAccount({ credits: 5 });
    const bad = { apiKey: account.apiKey, searchParams: { employeeCountV2: { min: 10, max: 1 } } };
    const first = await post('/v1/company-search', bad, 'bad-input');
    expect(first.status).toBe(400);
    const again = await post('/v1/company-search', bad, 'bad-input');
    expect(again.status).toBe(400);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);

    // 402 is kept too (bad input for the balance); the key then answers it even after credits arrive.
    const tooMany = { apiKey: account.apiKey, searchParams: {}, pageSize: 10 };
    expect((await post('/v1/company-search', tooMany, 'pay')).status).toBe(402);
    expect((await post('/v1/company-search', tooMany, 'pay')).headers.get('idempotent-replayed')).toBe('true');
  });

  it('answers a repeat that arrives while the first still runs with 409 idempotency_in_flight, and runs it once', async () => {
    const account = await app.createAccount({ credits: 100_000 });
    const body = {
      apiKey: account.apiKey,
      searchParams: { jobTitleV2: { included: ['zz-no-such-title'] } },
      pageSize: 1000,
    };
    const answers = await Promise.all(Array.from({ length: 6 }, () => post('/v1/people-search', body, 'parallel')));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    for (const answer of answers.filter((a) => a.status === 409)) {
      expect(answer.body.error.code).toBe('idempotency_in_flight');
      expect(answer.headers.get('retry-after')).toBe('1');
    }
    const firstRuns = answers.filter((a) => a.status === 200 && a.headers.get('idempotent-replayed') === null);
    expect(firstRuns).toHaveLength(1);
  });

  it('replays to a repeat sent the moment the first answer arrives, though that answer is stored while it is sent', async () => {
    const account = await app.createAccount({ credits: 1_000 });
    for (let round = 0; round < 20; round += 1) {
      const body = { apiKey: account.apiKey, searchParams: {}, pageSize: 2 };
      const first = await post('/v1/company-search', body, `at-once-${round}`);
      const again = await post('/v1/company-search', body, `at-once-${round}`);
      expect(first.status).toBe(200);
      expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
      expect(again.body).toEqual(first.body);
    }
    expect(await balanceOf(app, account.apiKey)).toBe(1_000 - 20 * 2);
  });

  it('makes a repeat wait for a claim in flight that finishes soon, and answers it with the replay', async () => {
    const account = await app.createAccount({ credits: 10 });
    const claim = {
      accountId: account.accountId,
      key: 'finishing',
      hash: 'h',
      operationId: 'companySearch',
      inFlightLeaseMs: 60_000,
    };
    const first = await claimIdempotencyKey(app.db.pool, claim);
    // The repeat's reads, watched: it finishes only once it has found the first claim in flight and waits on it.
    let foundInFlight: () => void = () => undefined;
    const waiting = new Promise<void>((resolve) => (foundInFlight = resolve));
    const query = app.db.pool.query.bind(app.db.pool) as (...args: unknown[]) => Promise<pg.QueryResult>;
    const watched = {
      query: async (...args: unknown[]) => {
        const result = await query(...args);
        if (result.rows[0]?.state === 'in_flight') foundInFlight();
        return result;
      },
    } as Queryable;
    const repeat = claimIdempotencyKey(watched, { ...claim, inFlightWaitMs: 5_000 });
    await waiting;
    if (first.kind === 'run') await first.finish(200, '{"output":"first"}');
    await expect(repeat).resolves.toEqual({ kind: 'replay', status: 200, body: '{"output":"first"}' });
    // One that does not finish within the wait is told to come back.
    const stuck = { ...claim, key: 'stuck' };
    await claimIdempotencyKey(app.db.pool, stuck);
    const started = Date.now();
    await expect(claimIdempotencyKey(app.db.pool, { ...stuck, inFlightWaitMs: 100 })).rejects.toMatchObject({
      code: 'idempotency_in_flight',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
  });

  it('refuses a key that is too long, and ignores the header on GET', async () => {
    const account = await app.createAccount({ credits: 10 });
    const long = await post(
      '/v1/company-search',
      { apiKey: account.apiKey, searchParams: {}, pageSize: 1 },
      'k'.repeat(256),
    );
    expect(long.status).toBe(400);
    expect(long.body.error.details.issues[0].field).toBe('Idempotency-Key');
    const get = await fetch(`${app.url}/v1/credits?apiKey=${account.apiKey}`, { headers: { 'idempotency-key': 'x' } });
    expect(get.status).toBe(200);
    expect(get.headers.get('idempotent-replayed')).toBeNull();
  });

  it('documents the header in OpenAPI on every POST', async () => {
    const document = (await app.request('GET', '/openapi.json')).body;
    const search = document.paths['/v1/company-search'].post;
    expect(search.parameters.map((p: { name: string }) => p.name)).toContain('Idempotency-Key');
    expect(search.responses['409']).toBeDefined();
    expect(document.paths['/v1/credits'].get.parameters.map((p: { name: string }) => p.name)).not.toContain(
      'Idempotency-Key',
    );
  });

  it('lets a repeat take over a claim whose process died, under the same ledger key, and gives an expired key a new one', async () => {
    const account = await app.createAccount({ credits: 10 });
    const claim = { accountId: account.accountId, key: 'crashed', hash: 'h1', operationId: 'companySearch' };
    const first = await claimIdempotencyKey(app.db.pool, { ...claim, inFlightLeaseMs: 60_000 });
    expect(first.kind).toBe('run');
    // Still within its lease: a repeat is told to wait.
    await expect(claimIdempotencyKey(app.db.pool, { ...claim, inFlightLeaseMs: 60_000 })).rejects.toMatchObject({
      code: 'idempotency_in_flight',
    });
    // Its process died (the lease ran out): the repeat runs, charging under the same ledger key.
    await app.db.pool.query(
      `UPDATE idempotent_requests SET locked_until = now() - interval '1 second' WHERE account_id = $1 AND key = 'crashed'`,
      [account.accountId],
    );
    const takeover = await claimIdempotencyKey(app.db.pool, { ...claim, inFlightLeaseMs: 60_000 });
    expect(takeover.kind === 'run' && first.kind === 'run' && takeover.ledgerKey === first.ledgerKey).toBe(true);
    if (takeover.kind === 'run') await takeover.finish(200, '{"output":1}');
    // After 24 hours the key is free again, as a new use with a new ledger key.
    await app.db.pool.query(
      `UPDATE idempotent_requests SET created_at = now() - interval '25 hours' WHERE account_id = $1 AND key = 'crashed'`,
      [account.accountId],
    );
    const reused = await claimIdempotencyKey(app.db.pool, { ...claim, hash: 'h2', inFlightLeaseMs: 60_000 });
    expect(reused.kind === 'run' && first.kind === 'run' && reused.ledgerKey !== first.ledgerKey).toBe(true);
  });

  it('answers a repeat whose first answer was lost (an asynchronous finish) as the first run did, charging once', async () => {
    const account = await app.createAccount({ credits: 1_000 });
    const body = { apiKey: account.apiKey, searchParams: {}, pageSize: 9 };
    const first = await post('/v1/company-search', body, 'finish-lost');
    expect(first.status).toBe(200);
    expect(await balanceOf(app, account.apiKey)).toBe(1_000 - 9);
    // What a crash of the database leaves when the finish had not reached the disk: the claim, in flight, its lease run out.
    await leaveInFlightWithLeaseRunOut(app, account.accountId, 'finish-lost');
    const again = await post('/v1/company-search', body, 'finish-lost');
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    // Run again under the same ledger key: the same records, the same charge reported, nothing taken twice.
    expect(again.body).toEqual(first.body);
    expect(await balanceOf(app, account.apiKey)).toBe(1_000 - 9);
    const ledger = await app.db.pool.query(
      `SELECT count(*)::int AS n FROM credit_ledger WHERE account_id = $1 AND idempotency_key LIKE 'request:finish-lost:%'`,
      [account.accountId],
    );
    expect(ledger.rows[0]?.n).toBe(1);
    // And that answer is the one kept for later repeats.
    const third = await post('/v1/company-search', body, 'finish-lost');
    expect(third.headers.get('idempotent-replayed')).toBe('true');
    expect(third.body).toEqual(again.body);
  });

  it('runs a request again when its process died before it answered, without charging it twice', async () => {
    const account = await app.createAccount({ credits: 1_000 });
    const person = await app.db.pool.query<{ network_slug: string }>(
      `SELECT p.network_slug FROM people p WHERE p.network_slug IS NOT NULL
         AND EXISTS (SELECT 1 FROM person_contacts c WHERE c.person_id = p.id AND c.kind = 'work_email') ORDER BY p.id LIMIT 1`,
    );
    const body = {
      apiKey: account.apiKey,
      profileUrl: person.rows[0]?.network_slug,
      enrichmentType: { getWorkEmails: true },
    };
    const first = await post('/v1/individual-reveal/sync', body, 'reveal-once');
    expect(first.status).toBe(200);
    const charged = first.body.chargeInfo.creditsCharged as number;
    expect(charged).toBeGreaterThan(0);
    // As if the process had charged and then died before it stored its answer: the key is in flight, its lease run out.
    await leaveInFlightWithLeaseRunOut(app, account.accountId, 'reveal-once');
    const again = await post('/v1/individual-reveal/sync', body, 'reveal-once');
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await balanceOf(app, account.apiKey)).toBe(1_000 - charged);
  });
});

/** A key's row as a crash leaves it when the answer was never stored: in flight, its lease run out. */
async function leaveInFlightWithLeaseRunOut(app: TestApp, accountId: number, key: string): Promise<void> {
  // The answer is stored while it is sent: the crash comes after that store, or the store would undo it.
  await expect
    .poll(
      async () =>
        (
          await app.db.pool.query(`SELECT state FROM idempotent_requests WHERE account_id = $1 AND key = $2`, [
            accountId,
            key,
          ])
        ).rows[0]?.state,
      { timeout: 5_000, interval: 5 },
    )
    .toBe('done');
  await app.db.pool.query(
    `UPDATE idempotent_requests SET state = 'in_flight', response_status = NULL, response_body = NULL, locked_until = now() - interval '1 second'
      WHERE account_id = $1 AND key = $2`,
    [accountId, key],
  );
}
