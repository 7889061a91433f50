import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credit } from '../../src/core/credits.js';
import { buildAudience, ok, testEnv, waitFor, waitForEnrichment, waitForExport } from '../audiences/helpers.js';
import { startTestApp, type TestApp, type TestResponse } from '../helpers/app.js';
import { startReceiver, type Receiver } from './receiver.js';

/**
 * The events of real work, on the seeded catalog: each is sent to the endpoints subscribed to its
 * type, signed, with what the work's status operation answers at that moment, and to no other
 * endpoint or account. credits.low is sent once per crossing of the account's threshold.
 */
const accepted = (response: TestResponse): TestResponse => {
  expect(response.status, JSON.stringify(response.body)).toBe(202);
  return response;
};
const env = { ...testEnv, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_SCHEDULE: '100ms' };

describe('webhook events', () => {
  let app: TestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    app = await startTestApp({ env });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await app?.stop();
  });

  /** An account with one endpoint on its own path of the receiver, subscribed to `events`. */
  async function subscribed(events: string[], credits = 100_000) {
    const account = await app.createAccount({ credits });
    const path = `/account-${account.accountId}`;
    const created = await app.request('POST', '/v1/webhook-endpoints', {
      apiKey: account.apiKey,
      url: `${receiver.url}${path}`,
      events,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const secret = created.body.output.secret as string;
    /** The verified payloads of `type` this account's endpoint received, once there are `count`. */
    const received = (type: string, count = 1) =>
      waitFor(`${count} ${type} event(s)`, async () => {
        const payloads = receiver.received
          .filter((r) => r.path === path)
          .map((r) => new Webhook(secret).verify(r.body, r.headers) as { type: string; timestamp: string; data: any })
          .filter((p) => p.type === type);
        return payloads.length >= count ? payloads : null;
      });
    return { ...account, path, endpointId: created.body.output.webhookEndpointId as string, received };
  }

  const filters = { companySearchParams: { headquartersCountryCode: ['FR'] }, maxCompanies: 3, maxProspects: 4 };

  it("sends audience.build.completed with what getAudienceStatus answers, and export.ready with the export's link", async () => {
    const account = await subscribed(['audience.build.completed', 'export.ready']);
    const { audienceId, status } = await buildAudience(app, account.apiKey, { filters });
    const [built] = await account.received('audience.build.completed');
    expect(built?.data).toEqual(status);

    const accepted = ok(
      await app.request('POST', `/v1/audiences/${audienceId}/export/companies`, { apiKey: account.apiKey }),
    );
    const ready = await waitForExport(app, account.apiKey, audienceId, accepted.body.output.exportId);
    const [event] = await account.received('export.ready');
    const { downloadUrl, expiresAt, ...rest } = event?.data ?? {};
    const { downloadUrl: _link, expiresAt: _expiry, ...statusRest } = ready;
    expect(rest).toEqual(statusRest);
    expect(rest.status).toBe('READY');
    const file = await fetch(downloadUrl as string);
    expect(file.status).toBe(200);
    expect((await file.text()).split('\r\n').filter(Boolean)).toHaveLength(Number(ready.rows) + 1);
    expect(Date.parse(expiresAt as string)).toBeGreaterThan(Date.now());
  });

  it('sends audience.build.failed when the balance cannot pay for the build', async () => {
    const account = await subscribed(['audience.build.completed', 'audience.build.failed'], 2);
    const { status } = await buildAudience(app, account.apiKey, { filters, expect: 'FAILED' });
    const [failed] = await account.received('audience.build.failed');
    expect(failed?.data).toEqual(status);
    expect(failed?.data.failureReason).toMatch(/^insufficient credits/);
    const completed = await app.db.pool.query(
      "SELECT 1 FROM webhook_events WHERE account_id = $1 AND type = 'audience.build.completed'",
      [account.accountId],
    );
    expect(completed.rowCount).toBe(0);
  });

  it('sends enrichment.completed with what getEnrichmentStatus answers and the audience', async () => {
    const account = await subscribed(['enrichment.completed', 'enrichment.failed']);
    const { audienceId } = await buildAudience(app, account.apiKey, { filters });
    ok(await app.request('POST', `/v1/audiences/${audienceId}/enrichment/estimate`, { apiKey: account.apiKey }));
    ok(await app.request('POST', `/v1/audiences/${audienceId}/enrich`, { apiKey: account.apiKey }));
    const done = await waitForEnrichment(app, account.apiKey, audienceId);
    const [event] = await account.received('enrichment.completed');
    expect(event?.data).toEqual({ ...done, audienceId });
    expect(event?.data.status).toBe('DONE');
  });

  it('sends contacts.batch.completed with the counts of the batch, without the contact details', async () => {
    const account = await subscribed(['contacts.batch.completed']);
    const people = await app.db.pool.query<{ network_slug: string }>(
      'SELECT network_slug FROM people WHERE network_slug IS NOT NULL ORDER BY id LIMIT 3',
    );
    const started = accepted(
      await app.request('POST', '/v1/contact-enrichment/batch', {
        apiKey: account.apiKey,
        profileUrls: [
          ...people.rows.map((p) => `https://network.example.com/in/${p.network_slug}`),
          'no-such-person-x1',
        ],
        enrichmentType: { getWorkEmails: true, getPersonalEmails: false, getPhoneNumbers: false },
      }),
    );
    const taskId = started.body.output.taskId as string;
    const [event] = await account.received('contacts.batch.completed');
    const polled = ok(await app.request('GET', `/v1/contact-enrichment/batch/${taskId}?apiKey=${account.apiKey}`)).body
      .output;
    expect(event?.data).toEqual({
      taskId,
      status: 'DONE',
      failureReason: null,
      overallStats: polled.overallStats,
    });
    expect(event?.data.overallStats.total).toBe(4);
  });

  it('sends saved_search.new_matches with the run and the name when a run delivers new records, and nothing for a run without', async () => {
    const account = await subscribed(['saved_search.new_matches']);
    const created = ok(
      await app.request('POST', '/v1/saved-searches', {
        apiKey: account.apiKey,
        name: 'French firms',
        kind: 'companies',
        companySearchParams: { headquartersCountryCode: ['FR'] },
        maxNewRecordsPerRun: 3,
      }),
    );
    const savedSearchId = created.body.output.savedSearchId as string;
    const runTo = async (maxNewRecords: number) => {
      const run = await app.request('POST', `/v1/saved-searches/${savedSearchId}/runs`, {
        apiKey: account.apiKey,
        maxNewRecords,
      });
      expect(run.status).toBe(202);
      return waitFor('the run', async () => {
        const read = ok(
          await app.request(
            'GET',
            `/v1/saved-searches/${savedSearchId}/runs/${run.body.output.runId}?apiKey=${account.apiKey}`,
          ),
        ).body.output;
        return read.status === 'DONE' || read.status === 'FAILED' ? read : null;
      });
    };
    const first = await runTo(3);
    const [event] = await account.received('saved_search.new_matches');
    expect(event?.data).toEqual({ ...first, savedSearchName: 'French firms' });
    expect(event?.data.newRecords).toBe(3);
    // Cut the French companies that are left out of new matches: a run with nothing new sends nothing.
    await app.db.pool.query(
      `INSERT INTO saved_search_records (account_id, saved_search_id, record_id, run_id, delivered)
       SELECT $1, $2, c.id, $3, true FROM companies c WHERE c.country_code = 'FR' ON CONFLICT DO NOTHING`,
      [account.accountId, Number(savedSearchId), Number(first.runId)],
    );
    const second = await runTo(3);
    expect(second.newRecords).toBe(0);
    const events = await app.db.pool.query('SELECT 1 FROM webhook_events WHERE account_id = $1', [account.accountId]);
    expect(events.rowCount).toBe(1);
  });

  it('sends contacts.batch.failed and saved_search.run.failed when the balance runs out, with what their status calls answer', async () => {
    const account = await subscribed(
      ['contacts.batch.completed', 'contacts.batch.failed', 'saved_search.run.failed'],
      2,
    );
    const people = await app.db.pool.query<{ network_slug: string }>(
      `SELECT p.network_slug FROM people p WHERE p.network_slug IS NOT NULL
          AND EXISTS (SELECT 1 FROM person_contacts c WHERE c.person_id = p.id AND c.kind = 'work_email') ORDER BY p.id LIMIT 3`,
    );
    const started = accepted(
      await app.request('POST', '/v1/contact-enrichment/batch', {
        apiKey: account.apiKey,
        profileUrls: people.rows.map((p) => `https://network.example.com/in/${p.network_slug}`),
        enrichmentType: { getWorkEmails: true, getPersonalEmails: false, getPhoneNumbers: false },
      }),
    );
    const [batch] = await account.received('contacts.batch.failed');
    const polled = ok(
      await app.request('GET', `/v1/contact-enrichment/batch/${started.body.output.taskId}?apiKey=${account.apiKey}`),
    ).body.output;
    expect(batch?.data).toEqual({
      taskId: polled.taskId,
      status: 'FAILED',
      failureReason: polled.failureReason,
      overallStats: polled.overallStats,
    });
    expect(batch?.data.failureReason).toMatch(/insufficient credits/);

    const created = ok(
      await app.request('POST', '/v1/saved-searches', {
        apiKey: account.apiKey,
        name: 'Too dear',
        kind: 'companies',
        companySearchParams: { headquartersCountryCode: ['US'] },
      }),
    );
    const savedSearchId = created.body.output.savedSearchId as string;
    const run = await app.request('POST', `/v1/saved-searches/${savedSearchId}/runs`, {
      apiKey: account.apiKey,
      maxNewRecords: 5,
    });
    expect(run.status).toBe(202);
    const [failed] = await account.received('saved_search.run.failed');
    const read = ok(
      await app.request(
        'GET',
        `/v1/saved-searches/${savedSearchId}/runs/${run.body.output.runId}?apiKey=${account.apiKey}`,
      ),
    ).body.output;
    expect(read.status).toBe('FAILED');
    expect(failed?.data).toEqual({ ...read, savedSearchName: 'Too dear' });
    const completed = await app.db.pool.query(
      "SELECT 1 FROM webhook_events WHERE account_id = $1 AND type = 'contacts.batch.completed'",
      [account.accountId],
    );
    expect(completed.rowCount).toBe(0);
  });

  it('sends credits.low once when a charge crosses the threshold, and again after a top-up above it', async () => {
    const account = await subscribed(['credits.low'], 1000);
    ok(
      await app.request('PUT', '/v1/credits/low-balance-threshold', {
        apiKey: account.apiKey,
        lowBalanceThreshold: 995,
      }),
    );
    const search = async () =>
      ok(await app.request('POST', '/v1/company-search', { apiKey: account.apiKey, pageSize: 3, searchParams: {} }));
    const alerts = async () =>
      (
        await app.db.pool.query("SELECT 1 FROM webhook_events WHERE account_id = $1 AND type = 'credits.low'", [
          account.accountId,
        ])
      ).rowCount;
    await search(); // 997: above
    expect(await alerts()).toBe(0);
    await search(); // 994: crosses
    expect(await alerts()).toBe(1);
    await search(); // 991: still below, no new alert
    expect(await alerts()).toBe(1);
    const [event] = await account.received('credits.low');
    expect(event?.data).toEqual({
      balance: 994,
      lowBalanceThreshold: 995,
      plan: 'pro',
      accountName: expect.any(String),
    });
    await app.db.transaction((tx) => credit(tx, account.accountId, 100, { unit: 'topUp', reason: 'test top-up' }));
    await search(); // 1088
    expect(await alerts()).toBe(1);
    ok(
      await app.request('PUT', '/v1/credits/low-balance-threshold', {
        apiKey: account.apiKey,
        lowBalanceThreshold: 1087,
      }),
    );
    await search(); // 1085: crosses again
    const both = await account.received('credits.low', 2);
    expect(both.map((e) => e.data.balance)).toEqual([994, 1085]);
  });

  it("sends an event only to the account's enabled endpoints subscribed to its type", async () => {
    const account = await subscribed(['audience.build.completed']);
    const other = await subscribed(['audience.build.completed']);
    const unsubscribed = ok(
      await app.request('POST', '/v1/webhook-endpoints', {
        apiKey: account.apiKey,
        url: `${receiver.url}/unsubscribed`,
        events: ['export.ready'],
      }),
    ).body.output.webhookEndpointId;
    const disabled = ok(
      await app.request('POST', '/v1/webhook-endpoints', {
        apiKey: account.apiKey,
        url: `${receiver.url}/disabled`,
        events: ['audience.build.completed'],
      }),
    ).body.output.webhookEndpointId;
    ok(await app.request('PATCH', `/v1/webhook-endpoints/${disabled}`, { apiKey: account.apiKey, disabled: true }));
    await buildAudience(app, account.apiKey, { filters });
    await account.received('audience.build.completed');
    const deliveries = await app.db.pool.query<{ account_id: number; endpoint_id: number }>(
      'SELECT account_id, endpoint_id FROM webhook_deliveries WHERE account_id = ANY($1::bigint[])',
      [[account.accountId, other.accountId]],
    );
    expect(deliveries.rows).toEqual([{ account_id: account.accountId, endpoint_id: Number(account.endpointId) }]);
    expect(receiver.received.filter((r) => ['/unsubscribed', '/disabled', other.path].includes(r.path))).toEqual([]);
    expect(unsubscribed).not.toBe(account.endpointId);
  });
});
