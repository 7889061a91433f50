import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, testEnv } from '../audiences/helpers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * The webhook-endpoint operations over REST: what each answers, what bad input gets (a 400
 * naming the field, nothing changed), the addresses refused at registration, one account never
 * seeing another's endpoints, and that none of it costs a credit.
 */
describe('webhook endpoints', () => {
  let app: TestApp;
  beforeAll(async () => {
    // Private targets stay refused here: registration must say so.
    app = await startTestApp({ catalog: 'empty', env: testEnv });
  });
  afterAll(async () => {
    await app?.stop();
  });

  const url = 'https://hooks.example.com/prospecting';

  it('creates, lists, reads, changes and deletes an endpoint, free, showing the secret only at creation', async () => {
    const { apiKey } = await app.createAccount({ credits: 100 });
    const created = await app.request('POST', '/v1/webhook-endpoints', {
      apiKey,
      url,
      events: ['export.ready', 'audience.build.completed', 'export.ready'],
      description: 'CRM sync',
    });
    expect(created.status).toBe(200);
    expect(created.body.chargeInfo.method).toBe('free');
    const endpoint = created.body.output;
    expect(endpoint).toMatchObject({
      url,
      description: 'CRM sync',
      events: ['export.ready', 'audience.build.completed'],
      disabled: false,
      disabledReason: null,
      failingSince: null,
      previousSecretExpiresAt: null,
    });
    expect(endpoint.webhookEndpointId).toMatch(/^\d+$/);
    expect(endpoint.secret).toMatch(/^whsec_/);

    const listed = await app.request('GET', `/v1/webhook-endpoints?apiKey=${apiKey}`);
    expect(listed.body.output.data.map((e: any) => e.webhookEndpointId)).toEqual([endpoint.webhookEndpointId]);
    const read = await app.request('GET', `/v1/webhook-endpoints/${endpoint.webhookEndpointId}?apiKey=${apiKey}`);
    expect(read.status).toBe(200);
    expect(JSON.stringify([listed.body, read.body])).not.toContain('whsec_');

    const changed = await app.request('PATCH', `/v1/webhook-endpoints/${endpoint.webhookEndpointId}`, {
      apiKey,
      url: 'https://hooks.example.com/v2',
      events: ['credits.low'],
      description: null,
      disabled: true,
    });
    expect(changed.status).toBe(200);
    expect(changed.body.output).toMatchObject({
      url: 'https://hooks.example.com/v2',
      events: ['credits.low'],
      description: null,
      disabled: true,
      disabledReason: 'requested',
    });
    expect(changed.body.output.disabledAt).not.toBeNull();
    // What is not given stays.
    const unchanged = await app.request('PATCH', `/v1/webhook-endpoints/${endpoint.webhookEndpointId}`, {
      apiKey,
      description: 'Finance',
    });
    expect(unchanged.body.output).toMatchObject({ url: 'https://hooks.example.com/v2', disabled: true });

    const deleted = await app.request('DELETE', `/v1/webhook-endpoints/${endpoint.webhookEndpointId}?apiKey=${apiKey}`);
    expect(deleted.body.output).toEqual({ webhookEndpointId: endpoint.webhookEndpointId, deleted: true });
    const gone = await app.request('GET', `/v1/webhook-endpoints/${endpoint.webhookEndpointId}?apiKey=${apiKey}`);
    expect(gone.status).toBe(404);
    expect(await balanceOf(app, apiKey)).toBe(100);
  });

  it('refuses bad input with a 400 naming the field, and registers nothing', async () => {
    const { apiKey, accountId } = await app.createAccount();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ url: 'not a url', events: ['export.ready'] }, 'url'],
      [{ url: 'ftp://hooks.example.com/x', events: ['export.ready'] }, 'url'],
      [{ url, events: [] }, 'events'],
      [{ url, events: ['export.done'] }, 'events.0'],
      [{ events: ['export.ready'] }, 'url'],
      [{ url, events: ['export.ready'], secret: 'whsec_mine' }, 'secret'],
      [{ url: 'https://user:pass@hooks.example.com/x', events: ['export.ready'] }, 'url'],
      [{ url: `https://hooks.example.com/${'a'.repeat(2100)}`, events: ['export.ready'] }, 'url'],
    ];
    for (const [body, field] of cases) {
      const answer = await app.request('POST', '/v1/webhook-endpoints', { apiKey, ...body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.code).toBe('invalid_request');
      expect(
        answer.body.error.details.issues.map((i: any) => i.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    const count = await app.db.pool.query('SELECT 1 FROM webhook_endpoints WHERE account_id = $1', [accountId]);
    expect(count.rowCount).toBe(0);
  });

  it('refuses private, loopback and link-local targets at registration, by IP literal or localhost name', async () => {
    const { apiKey } = await app.createAccount();
    const created = await app.request('POST', '/v1/webhook-endpoints', { apiKey, url, events: ['export.ready'] });
    for (const target of [
      'http://127.0.0.1:8080/hook',
      'https://10.1.2.3/hook',
      'https://192.168.0.10/hook',
      'https://172.20.0.1/hook',
      'http://169.254.169.254/latest/meta-data',
      'https://[::1]/hook',
      'https://[fe80::1]/hook',
      'https://[::ffff:10.0.0.1]/hook',
      'https://localhost/hook',
      'https://api.localhost/hook',
      'https://0.0.0.0/hook',
      // IPv6 forms that carry an IPv4 address, and deprecated ranges (issue 30).
      'http://[::a9fe:a9fe]/',
      'http://[::ffff:0:a9fe:a9fe]/',
      'http://[fec0::1]/',
      'https://[64:ff9b::a9fe:a9fe]/hook',
      'https://[2002:a9fe:a9fe::1]/hook',
      'https://[2001:db8::1]/hook',
      'https://[ff02::1]/hook',
    ]) {
      const refused = await app.request('POST', '/v1/webhook-endpoints', {
        apiKey,
        url: target,
        events: ['export.ready'],
      });
      expect(refused.status, target).toBe(400);
      expect(refused.body.error.details.issues[0].field).toBe('url');
      expect(refused.body.error.message, target).toMatch(/webhooks go only to public addresses/);
      const moved = await app.request('PATCH', `/v1/webhook-endpoints/${created.body.output.webhookEndpointId}`, {
        apiKey,
        url: target,
      });
      expect(moved.status, target).toBe(400);
    }
    const read = await app.request(
      'GET',
      `/v1/webhook-endpoints/${created.body.output.webhookEndpointId}?apiKey=${apiKey}`,
    );
    expect(read.body.output.url).toBe(url);
  });

  it("answers 404 for another account's endpoint and deliveries, whatever the operation", async () => {
    const owner = await app.createAccount();
    const other = await app.createAccount();
    const created = await app.request('POST', '/v1/webhook-endpoints', {
      apiKey: owner.apiKey,
      url,
      events: ['export.ready'],
    });
    const id = created.body.output.webhookEndpointId;
    const key = other.apiKey;
    const calls: Array<[string, string, Record<string, unknown>?]> = [
      ['GET', `/v1/webhook-endpoints/${id}?apiKey=${key}`],
      ['PATCH', `/v1/webhook-endpoints/${id}`, { apiKey: key, disabled: true }],
      ['POST', `/v1/webhook-endpoints/${id}/rotate-secret`, { apiKey: key }],
      ['POST', `/v1/webhook-endpoints/${id}/test`, { apiKey: key }],
      ['GET', `/v1/webhook-endpoints/${id}/deliveries?apiKey=${key}`],
      ['POST', `/v1/webhook-endpoints/${id}/deliveries/1/resend`, { apiKey: key }],
      ['DELETE', `/v1/webhook-endpoints/${id}?apiKey=${key}`],
    ];
    for (const [method, path, body] of calls) {
      const answer = await app.request(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(404);
    }
    expect((await app.request('GET', `/v1/webhook-endpoints?apiKey=${key}`)).body.output.data).toEqual([]);
    const still = await app.request('GET', `/v1/webhook-endpoints/${id}?apiKey=${owner.apiKey}`);
    expect(still.body.output.disabled).toBe(false);
  });

  it('keeps an account to 20 endpoints, two registrations at once included', async () => {
    const { apiKey } = await app.createAccount();
    const create = (i: number) =>
      app.request('POST', '/v1/webhook-endpoints', { apiKey, url: `${url}/${i}`, events: ['export.ready'] });
    for (let i = 0; i < 19; i++) expect((await create(i)).status).toBe(200);
    const last = await Promise.all([create(19), create(20)]);
    expect(last.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(last.find((r) => r.status === 400)?.body.error.message).toMatch(/at most 20 webhook endpoints/);
    expect((await app.request('GET', `/v1/webhook-endpoints?apiKey=${apiKey}`)).body.output.data).toHaveLength(20);
  });

  it('sets the low-balance threshold of credits.low, shows it with the balance, and turns it off with null', async () => {
    const { apiKey } = await app.createAccount({ credits: 700 });
    const before = await app.request('GET', `/v1/credits?apiKey=${apiKey}`);
    expect(before.body.output.lowBalanceThreshold).toBeNull();
    const set = await app.request('PUT', '/v1/credits/low-balance-threshold', { apiKey, lowBalanceThreshold: 1000 });
    expect(set.status).toBe(200);
    expect(set.body.output).toEqual({ lowBalanceThreshold: 1000, balance: 700, belowThreshold: true });
    expect((await app.request('GET', `/v1/credits?apiKey=${apiKey}`)).body.output.lowBalanceThreshold).toBe(1000);
    const bad = await app.request('PUT', '/v1/credits/low-balance-threshold', { apiKey, lowBalanceThreshold: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.issues[0].field).toBe('lowBalanceThreshold');
    const off = await app.request('PUT', '/v1/credits/low-balance-threshold', { apiKey, lowBalanceThreshold: null });
    expect(off.body.output).toEqual({ lowBalanceThreshold: null, balance: 700, belowThreshold: false });
    // Subscribing to credits.low without a threshold says how to set one.
    const created = await app.request('POST', '/v1/webhook-endpoints', { apiKey, url, events: ['credits.low'] });
    expect(created.body.chargeInfo.message).toContain('setLowBalanceThreshold');
  });
});
