import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkClock } from '../../src/core/network-clock.js';
import { NetworkSourceError, type NetworkSource } from '../../src/core/ports/network-source.js';
import { SimulatedNetworkSource } from '../../src/providers/network/simulated-source.js';
import { balanceOf, ok, testEnv, waitFor } from '../audiences/helpers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { replaceable } from '../helpers/replaceable.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { lastMailTo } from '../dashboard/helpers.js';

/**
 * Watch-list checks on the simulated network, whose clock the test moves: the first check of an
 * item records what the network says and finds no change; months later a check finds what the
 * network drifted to (job changes judged against what the source answers), charges one credit
 * per item checked once, and sends person.job_changed as a verified webhook through the outbox.
 * A failed check charges nothing, is no change, and is retried.
 */
const dayMs = 86_400_000;

describe('watch-list checks', () => {
  let app: TestApp;
  let receiver: Receiver;
  let at = Date.now();
  // Moved by the test; a due job is woken at once, a waiting one looks again shortly.
  const clock: NetworkClock = {
    now: () => new Date(at),
    realMsUntil: (time) => (time.getTime() <= at ? 0 : 50),
  };
  let simulated: SimulatedNetworkSource;
  const network = replaceable<NetworkSource>(() => simulated);

  beforeAll(async () => {
    app = await startTestApp({
      env: { ...testEnv, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
      services: { networkClock: clock, networkSource: network.service },
    });
    simulated = new SimulatedNetworkSource(app.db.pool, { failureRate: 0, latencyMs: 0, now: () => clock.now() });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await app?.stop();
  });

  const call = (method: string, path: string, key: string, body: Record<string, unknown> = {}) =>
    method === 'GET'
      ? app.request(method, `${path}${path.includes('?') ? '&' : '?'}apiKey=${key}`)
      : app.request(method, path, { apiKey: key, ...body });

  async function itemsOf(key: string, listId: string) {
    return ok(await call('GET', `/v1/watch-lists/${listId}/items?pageSize=1000`, key)).body.output.data as Array<{
      itemId: string;
      input: string;
      lastCheckedAt: string | null;
      failedChecks: number;
      current: Record<string, any> | null;
    }>;
  }

  /** Waits until every item of the list was last checked at the clock's time now. */
  async function checkedNow(key: string, listId: string, count: number) {
    const now = clock.now().toISOString();
    return waitFor('every item checked', async () => {
      const items = await itemsOf(key, listId);
      return items.length === count && items.every((i) => i.lastCheckedAt === now) ? items : null;
    });
  }

  async function allChanges(key: string, listId: string, query = '') {
    const changes: Array<Record<string, any>> = [];
    let cursor: string | null = null;
    for (let page = 0; page < 20; page++) {
      const response: { data: Array<Record<string, any>>; nextCursor: string | null } = ok(
        await call(
          'GET',
          `/v1/watch-lists/${listId}/changes?pageSize=25${query}${cursor ? `&cursor=${cursor}` : ''}`,
          key,
        ),
      ).body.output;
      changes.push(...response.data);
      cursor = response.nextCursor;
      if (!cursor) break;
    }
    return changes;
  }

  it('records what the network says first, then finds drifted job changes, charges each check once and sends them', async () => {
    const account = await app.createAccount({ credits: 1000 });
    const path = `/account-${account.accountId}`;
    const endpoint = ok(
      await call('POST', '/v1/webhook-endpoints', account.apiKey, {
        url: `${receiver.url}${path}`,
        events: ['person.job_changed', 'person.title_changed'],
      }),
    ).body.output;
    const slugs = (
      await app.db.pool.query<{ network_slug: string }>(
        'SELECT network_slug FROM people WHERE network_slug IS NOT NULL ORDER BY id LIMIT 60',
      )
    ).rows.map((r) => r.network_slug);
    const list = ok(
      await call('POST', '/v1/watch-lists', account.apiKey, { name: 'Champions', kind: 'people', checkEvery: 'day' }),
    ).body.output;
    ok(await call('POST', `/v1/watch-lists/${list.watchListId}/items`, account.apiKey, { items: slugs }));

    const first = await checkedNow(account.apiKey, list.watchListId, slugs.length);
    expect(first.every((i) => i.current && i.failedChecks === 0)).toBe(true);
    expect(await allChanges(account.apiKey, list.watchListId)).toEqual([]);
    expect(await balanceOf(app, account.apiKey)).toBe(1000 - slugs.length);

    // Four months on: every item is due again, and the network has drifted.
    at += 120 * dayMs;
    await checkedNow(account.apiKey, list.watchListId, slugs.length);
    expect(await balanceOf(app, account.apiKey)).toBe(1000 - 2 * slugs.length);
    const ledger = await app.db.pool.query<{ amount: number }>(
      "SELECT amount FROM credit_ledger WHERE account_id = $1 AND unit = 'watchListCheck'",
      [account.accountId],
    );
    expect(ledger.rows.reduce((sum, r) => sum + r.amount, 0)).toBe(-2 * slugs.length);

    const changes = await allChanges(account.apiKey, list.watchListId);
    const jobChanges = changes.filter((c) => c.kind === 'job_changed');
    expect(jobChanges.length).toBeGreaterThan(0);
    expect(jobChanges.length).toBeLessThan(slugs.length / 2);
    const checks = await app.db.pool.query<{ id: string }>('SELECT id FROM watch_list_checks WHERE account_id = $1', [
      account.accountId,
    ]);
    for (const change of changes) {
      expect(change.detectedAt).toBe(clock.now().toISOString());
      expect(checks.rows.map((r) => String(r.id))).toContain(change.checkId);
      expect(change.watchListId).toBe(list.watchListId);
    }
    for (const change of jobChanges) {
      // Judged on what the source answers: the new employer is the one the network shows now.
      const live = await simulated.fetchProfile({ slug: change.item.input });
      expect(change.after.company.slug).toBe(live?.currentCompany?.slug);
      expect(change.before.company.slug).not.toBe(change.after.company.slug);
    }
    const count = ok(await call('GET', `/v1/watch-lists/${list.watchListId}/changes/count`, account.apiKey)).body
      .output;
    expect(count.total).toBe(changes.length);
    expect(count.byKind.job_changed).toBe(jobChanges.length);
    const onlyJobs = await allChanges(account.apiKey, list.watchListId, '&kind=job_changed');
    expect(onlyJobs.map((c) => c.changeId)).toEqual(jobChanges.map((c) => c.changeId));
    const future = new Date(at + dayMs).toISOString();
    expect(await allChanges(account.apiKey, list.watchListId, `&detectedAfter=${future}`)).toEqual([]);

    // Each job change and title change is sent once, signed, carrying the change record.
    const announced = changes.filter((c) => c.kind === 'job_changed' || c.kind === 'title_changed');
    const requests = await receiver.waitFor(announced.length);
    const payloads = requests
      .filter((r) => r.path === path)
      .map((r) => new Webhook(endpoint.secret).verify(r.body, r.headers) as { type: string; data: any });
    expect(
      payloads
        .filter((p) => p.type === 'person.job_changed')
        .map((p) => p.data.changeId)
        .sort(),
    ).toEqual(jobChanges.map((c) => c.changeId).sort());
    const sent = payloads.find((p) => p.type === 'person.job_changed');
    expect(sent?.data).toMatchObject({ watchListId: list.watchListId, watchListName: 'Champions' });
    expect(sent?.data).toMatchObject(jobChanges.find((c) => c.changeId === sent?.data.changeId) ?? {});

    // Nothing more is due: no second charge, however long the job waits.
    const view = ok(await call('GET', `/v1/watch-lists/${list.watchListId}`, account.apiKey)).body.output;
    expect(view).toMatchObject({ items: slugs.length, changes: changes.length });
    expect(Date.parse(view.nextCheckAt)).toBe(at + dayMs);
  });

  it('holds the checks of a list to the daily cap of the key that created it, charging them to that key', async () => {
    const account = await app.createAccount({ credits: 1000 });
    const keyId = Number(
      (
        await app.db.pool.query<{ id: number }>(
          'UPDATE api_keys SET daily_credit_cap = 5 WHERE account_id = $1 RETURNING id',
          [account.accountId],
        )
      ).rows[0]?.id,
    );
    const slugs = (
      await app.db.pool.query<{ network_slug: string }>(
        'SELECT network_slug FROM people WHERE network_slug IS NOT NULL ORDER BY id DESC LIMIT 12',
      )
    ).rows.map((r) => r.network_slug);
    const list = ok(
      await call('POST', '/v1/watch-lists', account.apiKey, { name: 'Capped', kind: 'people', checkEvery: 'day' }),
    ).body.output;
    ok(await call('POST', `/v1/watch-lists/${list.watchListId}/items`, account.apiKey, { items: slugs }));
    const checked = async () =>
      (
        await app.db.pool.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM watch_list_items WHERE account_id = $1 AND last_checked_at IS NOT NULL',
          [account.accountId],
        )
      ).rows[0]?.n;
    // The job waits for the key's next day (at most a minute between looks) once the day's 5 credits are spent.
    const waiting = () =>
      waitFor('the check job waiting for the cap', async () => {
        const job = await app.db.pool.query<{ status: string; later: boolean }>(
          `SELECT status, run_after > now() + interval '20 seconds' AS later FROM jobs
            WHERE kind = 'watch-list.check' AND account_id = $1`,
          [account.accountId],
        );
        return job.rows[0]?.status === 'queued' && job.rows[0].later;
      });
    const capResetSoon = () =>
      Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1) - Date.now() <
      120_000;
    await waiting();
    if (!capResetSoon()) expect(await checked()).toBe(5);
    const ledger = await app.db.pool.query<{ amount: number; api_key_id: number }>(
      `SELECT amount, api_key_id FROM credit_ledger WHERE account_id = $1 AND unit = 'watchListCheck'`,
      [account.accountId],
    );
    expect(ledger.rows.reduce((sum, r) => sum + r.amount, 0)).toBe(-5);
    expect(ledger.rows.every((r) => Number(r.api_key_id) === keyId)).toBe(true);
    expect(await balanceOf(app, account.apiKey)).toBe(995);
    const view = ok(await call('GET', `/v1/watch-lists/${list.watchListId}`, account.apiKey)).body.output;
    expect(view).toMatchObject({ paused: false, pausedReason: null });

    // The key's next day: its spend starts again, and the next five are checked.
    await app.db.pool.query('DELETE FROM api_key_daily_spend WHERE account_id = $1', [account.accountId]);
    await app.db.pool.query(`UPDATE jobs SET run_after = now() WHERE kind = 'watch-list.check' AND account_id = $1`, [
      account.accountId,
    ]);
    await waitFor('five more checked', async () => (await checked()) === 10);
    await waiting();
    expect(await checked()).toBe(10);
    expect(await balanceOf(app, account.apiKey)).toBe(990);

    // A list whose checks another key pays (here one made without a key, as the dashboard makes them): the capped key
    // may pause it, not set its checks going.
    const other = await app.db.pool.query<{ id: number }>(
      `INSERT INTO watch_lists (account_id, name, kind, check_every) VALUES ($1, 'Not this key''s', 'people', 'day') RETURNING id`,
      [account.accountId],
    );
    const otherId = String(other.rows[0]?.id);
    const refused = await call('POST', `/v1/watch-lists/${otherId}/items`, account.apiKey, {
      items: slugs.slice(0, 2),
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain('charged to the key it was created with');
    const resumed = await call('PATCH', `/v1/watch-lists/${otherId}`, account.apiKey, { paused: false });
    expect(resumed.status).toBe(403);
    ok(await call('PATCH', `/v1/watch-lists/${otherId}`, account.apiKey, { paused: true }));
    const held = await app.db.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM watch_list_items WHERE account_id = $1 AND watch_list_id = $2',
      [account.accountId, otherId],
    );
    expect(held.rows[0]?.n).toBe(0);
  });

  it("mails a daily digest of a day's changes, once, to one of the account's own addresses", async () => {
    const email = `digest-${Date.now()}@example.org`;
    const account = await app.createAccount({ credits: 1000, email });
    const refused = await call('POST', '/v1/watch-lists', account.apiKey, {
      name: 'Digest',
      kind: 'people',
      checkEvery: 'day',
      digestEmail: 'someone-else@example.org',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.issues[0].field).toBe('digestEmail');
    const list = ok(
      await call('POST', '/v1/watch-lists', account.apiKey, {
        name: 'Digest',
        kind: 'people',
        checkEvery: 'day',
        digestEmail: email,
      }),
    ).body.output;
    expect(list.digestEmail).toBe(email);
    const slugs = (
      await app.db.pool.query<{ network_slug: string }>(
        'SELECT network_slug FROM people WHERE network_slug IS NOT NULL ORDER BY id LIMIT 60 OFFSET 100',
      )
    ).rows.map((r) => r.network_slug);
    ok(await call('POST', `/v1/watch-lists/${list.watchListId}/items`, account.apiKey, { items: slugs }));
    await checkedNow(account.apiKey, list.watchListId, slugs.length);
    at += 120 * dayMs;
    await checkedNow(account.apiKey, list.watchListId, slugs.length);
    const changes = await allChanges(account.apiKey, list.watchListId);
    expect(changes.length).toBeGreaterThan(0);
    const digests = async () =>
      (
        await app.db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM jobs WHERE kind = 'mail.send' AND account_id = $1`,
          [account.accountId],
        )
      ).rows[0]?.n;
    await waitFor('the digest mailed', async () => {
      const sent = await app.db.pool.query(
        `SELECT 1 FROM jobs WHERE kind = 'mail.send' AND account_id = $1 AND status = 'succeeded'`,
        [account.accountId],
      );
      return (sent.rowCount ?? 0) > 0;
    });
    const mail = await lastMailTo(app, email);
    expect(mail).toContain(`Subject: Your watch list ${list.watchListId} found ${changes.length} change`);
    expect(mail.replace(/=\r?\n/g, '')).toContain(`found ${changes.length} changes from`);
    const someJob = changes.find((c) => c.kind === 'job_changed');
    if (someJob) expect(mail.replace(/=\r?\n/g, '')).toContain(`${someJob.item.input}: job changed`);
    // The day was digested once: a later turn with nothing new sends nothing more.
    at += 2 * dayMs;
    await checkedNow(account.apiKey, list.watchListId, slugs.length);
    const after = await allChanges(account.apiKey, list.watchListId);
    await waitFor('the digest mark moved on', async () => {
      const row = await app.db.pool.query<{ through: Date }>(
        'SELECT digest_through AS through FROM watch_lists WHERE account_id = $1 AND id = $2',
        [account.accountId, list.watchListId],
      );
      return row.rows[0]?.through.getTime() === at;
    });
    expect(await digests()).toBe(after.length > changes.length ? 2 : 1);
  });

  it('charges nothing for a failed check, records no change, and checks it again later', async () => {
    const account = await app.createAccount({ credits: 1000 });
    const slugs = (
      await app.db.pool.query<{ network_slug: string }>(
        'SELECT network_slug FROM people WHERE network_slug IS NOT NULL ORDER BY id DESC LIMIT 5',
      )
    ).rows.map((r) => r.network_slug);
    const list = ok(
      await call('POST', '/v1/watch-lists', account.apiKey, { name: 'Flaky', kind: 'people', checkEvery: 'week' }),
    ).body.output;
    ok(await call('POST', `/v1/watch-lists/${list.watchListId}/items`, account.apiKey, { items: slugs }));
    await checkedNow(account.apiKey, list.watchListId, slugs.length);
    expect(await balanceOf(app, account.apiKey)).toBe(1000 - slugs.length);

    const failing = slugs[0] as string;
    network.use({
      name: 'failing',
      fetchCompany: (ref, signal) => simulated.fetchCompany(ref, signal),
      fetchProfile: (ref, signal) =>
        ref.slug === failing
          ? Promise.reject(new NetworkSourceError('unavailable', 'outage'))
          : simulated.fetchProfile(ref, signal),
    });
    try {
      at += 400 * dayMs;
      const items = await waitFor('the others checked and the one failed', async () => {
        const all = await itemsOf(account.apiKey, list.watchListId);
        const now = clock.now().toISOString();
        const others = all.filter((i) => i.input !== failing);
        const failed = all.find((i) => i.input === failing);
        return others.every((i) => i.lastCheckedAt === now) && failed && failed.failedChecks > 0 ? all : null;
      });
      expect(items.find((i) => i.input === failing)?.lastCheckedAt).not.toBe(clock.now().toISOString());
      expect(await balanceOf(app, account.apiKey)).toBe(1000 - slugs.length - (slugs.length - 1));
      const changes = await allChanges(account.apiKey, list.watchListId);
      expect(changes.filter((c) => c.item.input === failing)).toEqual([]);
    } finally {
      network.use(null);
    }
    // The network back, a retry an hour of network time later checks it.
    at += 2 * 3_600_000;
    await waitFor('the failed item checked again', async () => {
      const item = (await itemsOf(account.apiKey, list.watchListId)).find((i) => i.input === failing);
      return item?.failedChecks === 0 && item.lastCheckedAt === clock.now().toISOString() ? item : null;
    });
    expect(await balanceOf(app, account.apiKey)).toBe(1000 - 2 * slugs.length);
  });

  it('pauses a list whose balance cannot pay a check, charging nothing, and resumes it', async () => {
    const account = await app.createAccount({ credits: 3 });
    const slugs = (
      await app.db.pool.query<{ network_slug: string }>(
        'SELECT network_slug FROM people WHERE network_slug IS NOT NULL ORDER BY id LIMIT 5 OFFSET 100',
      )
    ).rows.map((r) => r.network_slug);
    const list = ok(
      await call('POST', '/v1/watch-lists', account.apiKey, { name: 'Broke', kind: 'people', checkEvery: 'day' }),
    ).body.output;
    ok(await call('POST', `/v1/watch-lists/${list.watchListId}/items`, account.apiKey, { items: slugs }));
    const paused = await waitFor('the list paused', async () => {
      const view = ok(await call('GET', `/v1/watch-lists/${list.watchListId}`, account.apiKey)).body.output;
      return view.paused ? view : null;
    });
    expect(paused.pausedReason).toMatch(/insufficient_credits/);
    expect(await balanceOf(app, account.apiKey)).toBe(3);
    expect((await itemsOf(account.apiKey, list.watchListId)).every((i) => i.lastCheckedAt === null)).toBe(true);
    const resumed = ok(await call('PATCH', `/v1/watch-lists/${list.watchListId}`, account.apiKey, { paused: false }))
      .body.output;
    expect(resumed).toMatchObject({ paused: false, pausedReason: null });
  });
});
