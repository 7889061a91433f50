import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { webhookRetention } from '../../src/core/webhooks/retention.js';
import { readMail, testEnv, waitFor } from '../audiences/helpers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { startReceiver, type Receiver } from './receiver.js';

/**
 * Deliveries to a real receiver over loopback: signatures checked with the standardwebhooks
 * library a receiver would use, retries on a short schedule, the delivery log, time limits,
 * redirects, the redacted excerpt, rotation overlap, and an endpoint disabled after days of failures.
 */
const retries = 3;
const env = {
  ...testEnv,
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_RETRY_SCHEDULE: Array.from({ length: retries }, () => '100ms').join(','),
  WEBHOOK_TIMEOUT_MS: '1000',
};

describe('webhook deliveries', () => {
  let app: TestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    app = await startTestApp({ catalog: 'empty', env });
  });
  afterAll(async () => {
    await app?.stop();
  });
  afterEach(async () => {
    await receiver?.close();
  });

  async function endpointFor(
    apiKey: string,
    path = '/hooks',
  ): Promise<{ webhookEndpointId: string; secret: string; url: string }> {
    receiver = await startReceiver();
    const url = `${receiver.url}${path}`;
    const created = await app.request('POST', '/v1/webhook-endpoints', {
      apiKey,
      url,
      events: ['export.ready'],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return { webhookEndpointId: created.body.output.webhookEndpointId, secret: created.body.output.secret, url };
  }

  async function sendTest(apiKey: string, endpointId: string): Promise<{ deliveryId: string; webhookId: string }> {
    const sent = await app.request('POST', `/v1/webhook-endpoints/${endpointId}/test`, { apiKey });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    return sent.body.output;
  }

  async function deliveryOf(apiKey: string, endpointId: string, deliveryId: string): Promise<any> {
    const log = await app.request('GET', `/v1/webhook-endpoints/${endpointId}/deliveries?apiKey=${apiKey}`);
    expect(log.status).toBe(200);
    return log.body.output.data.find((d: any) => d.deliveryId === deliveryId);
  }

  async function settled(apiKey: string, endpointId: string, deliveryId: string): Promise<any> {
    return waitFor('the delivery to settle', async () => {
      const delivery = await deliveryOf(apiKey, endpointId, deliveryId);
      return delivery && delivery.status !== 'pending' ? delivery : null;
    });
  }

  it('signs each delivery per Standard Webhooks, and the reference library verifies it', async () => {
    const { apiKey } = await app.createAccount();
    const endpoint = await endpointFor(apiKey);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const sent = await sendTest(apiKey, endpoint.webhookEndpointId);
    const [request] = await receiver.waitFor(1);
    expect(request?.path).toBe('/hooks');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['webhook-id']).toBe(sent.webhookId);
    expect(Math.abs(Number(request?.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);

    const payload = new Webhook(endpoint.secret).verify(request?.body as string, request?.headers as any) as any;
    expect(Object.keys(payload)).toEqual(['type', 'timestamp', 'data']);
    expect(payload.type).toBe('webhook.test');
    expect(payload.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(payload.data.webhookEndpointId).toBe(endpoint.webhookEndpointId);
    // Another secret, or a body changed by one byte, does not verify.
    const other = (
      await app.request('POST', '/v1/webhook-endpoints', { apiKey, url: endpoint.url, events: ['credits.low'] })
    ).body.output.secret as string;
    expect(() => new Webhook(other).verify(request?.body as string, request?.headers as any)).toThrow();
    expect(() =>
      new Webhook(endpoint.secret).verify((request?.body as string).replace('test', 'tesT'), request?.headers as any),
    ).toThrow();

    const delivery = await settled(apiKey, endpoint.webhookEndpointId, sent.deliveryId);
    expect(delivery).toMatchObject({
      webhookId: sent.webhookId,
      eventType: 'webhook.test',
      status: 'delivered',
      nextAttemptAt: null,
      failureReason: null,
    });
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0]).toMatchObject({ statusCode: 200, error: null, responseExcerpt: 'ok' });
    expect(delivery.attempts[0].durationMs).toBeGreaterThanOrEqual(0);
  });

  it('retries an attempt not answered 2xx, with the same webhook-id, and logs each attempt newest first', async () => {
    const { apiKey } = await app.createAccount();
    const endpoint = await endpointFor(apiKey);
    receiver.answer = (_request, index) => ({ status: [500, 503, 200][index] ?? 200, body: `answer ${index}` });
    const sent = await sendTest(apiKey, endpoint.webhookEndpointId);
    const requests = await receiver.waitFor(3);
    expect(new Set(requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([sent.webhookId]));
    // The same body every time, signed afresh at each attempt.
    expect(new Set(requests.map((r) => r.body)).size).toBe(1);
    for (const request of requests)
      expect(() => new Webhook(endpoint.secret).verify(request.body, request.headers)).not.toThrow();
    const delivery = await settled(apiKey, endpoint.webhookEndpointId, sent.deliveryId);
    expect(delivery.status).toBe('delivered');
    expect(delivery.attempts.map((a: any) => a.statusCode)).toEqual([200, 503, 500]);
    expect(delivery.attempts.map((a: any) => a.responseExcerpt)).toEqual(['answer 2', 'answer 1', 'answer 0']);
    expect(receiver.received).toHaveLength(3);
  });

  it('fails a delivery after its last retry, says why, and a resend starts again with the same webhook-id', async () => {
    const { apiKey } = await app.createAccount();
    const endpoint = await endpointFor(apiKey);
    receiver.answer = () => ({ status: 500, body: 'down' });
    const sent = await sendTest(apiKey, endpoint.webhookEndpointId);
    const failed = await settled(apiKey, endpoint.webhookEndpointId, sent.deliveryId);
    expect(failed.status).toBe('failed');
    expect(failed.attempts).toHaveLength(retries + 1);
    expect(failed.failureReason).toBe(`no 2xx answer after ${retries + 1} attempts; the last answered 500`);
    const failedOnly = await app.request(
      'GET',
      `/v1/webhook-endpoints/${endpoint.webhookEndpointId}/deliveries?apiKey=${apiKey}&status=failed`,
    );
    expect(failedOnly.body.output.data.map((d: any) => d.deliveryId)).toEqual([sent.deliveryId]);
    const endpointNow = await app.request(
      'GET',
      `/v1/webhook-endpoints/${endpoint.webhookEndpointId}?apiKey=${apiKey}`,
    );
    expect(endpointNow.body.output.failingSince).not.toBeNull();

    receiver.answer = () => ({ status: 204 });
    const resent = await app.request(
      'POST',
      `/v1/webhook-endpoints/${endpoint.webhookEndpointId}/deliveries/${sent.deliveryId}/resend`,
      { apiKey },
    );
    expect(resent.status).toBe(202);
    expect(resent.body.output.status).toBe('pending');
    const all = await receiver.waitFor(retries + 2);
    expect(all.at(-1)?.headers['webhook-id']).toBe(sent.webhookId);
    const delivered = await settled(apiKey, endpoint.webhookEndpointId, sent.deliveryId);
    expect(delivered.status).toBe('delivered');
    expect(delivered.attempts[0].statusCode).toBe(204);
    expect(delivered.attempts).toHaveLength(retries + 2);
    // A success ends the endpoint's failing spell.
    const recovered = await app.request('GET', `/v1/webhook-endpoints/${endpoint.webhookEndpointId}?apiKey=${apiKey}`);
    expect(recovered.body.output.failingSince).toBeNull();
    expect(recovered.body.output.lastSuccessAt).not.toBeNull();
  });

  it('counts an endpoint that does not answer within the time limit as a failed attempt', async () => {
    const { apiKey } = await app.createAccount();
    const endpoint = await endpointFor(apiKey);
    receiver.answer = (_request, index) => (index === 0 ? 'hang' : { status: 200 });
    const sent = await sendTest(apiKey, endpoint.webhookEndpointId);
    const delivery = await settled(apiKey, endpoint.webhookEndpointId, sent.deliveryId);
    expect(delivery.status).toBe('delivered');
    expect(delivery.attempts.map((a: any) => a.statusCode)).toEqual([200, null]);
    expect(delivery.attempts[1].error).toBe('no answer within 1000 ms');
    expect(delivery.attempts[1].durationMs).toBeGreaterThanOrEqual(900);
  });

  it('does not follow a redirect: a 3xx is a failed attempt, and the place it points to is never called', async () => {
    const { apiKey } = await app.createAccount();
    const endpoint = await endpointFor(apiKey);
    receiver.answer = (request) =>
      request.path === '/hooks'
        ? { status: 307, headers: { location: `${receiver.url}/elsewhere` } }
        : { status: 200, body: 'followed' };
    const sent = await sendTest(apiKey, endpoint.webhookEndpointId);
    const delivery = await settled(apiKey, endpoint.webhookEndpointId, sent.deliveryId);
    expect(delivery.status).toBe('failed');
    expect(delivery.failureReason).toContain('answered 307 (redirects are not followed)');
    expect(receiver.received.map((r) => r.path)).toEqual(Array.from({ length: retries + 1 }, () => '/hooks'));
  });

  it('keeps only a short excerpt of the answer, without tokens or addresses', async () => {
    const { apiKey } = await app.createAccount();
    const endpoint = await endpointFor(apiKey);
    const token = 'sk_live_4eC39HqLyjWDarjtT1zdp7dcXyZ';
    receiver.answer = () => ({
      status: 200,
      body: `{"received":true,"session":"${token}","owner":"jane.doe@customer-corp.com","note":"${'x'.repeat(5000)}"}`,
    });
    const sent = await sendTest(apiKey, endpoint.webhookEndpointId);
    const delivery = await settled(apiKey, endpoint.webhookEndpointId, sent.deliveryId);
    const excerpt = delivery.attempts[0].responseExcerpt as string;
    expect(excerpt.startsWith('{"received":true')).toBe(true);
    expect(excerpt.length).toBeLessThanOrEqual(201);
    expect(excerpt).not.toContain(token);
    expect(excerpt).not.toContain('jane.doe');
    const stored = await app.db.pool.query<{ text: string }>(
      "SELECT string_agg(coalesce(response_excerpt, ''), ' ') AS text FROM webhook_attempts",
    );
    expect(stored.rows[0]?.text).not.toContain(token);
  });

  it('signs with the old and the new secret for 24 hours after a rotation, then with the new one only', async () => {
    const { apiKey } = await app.createAccount();
    const endpoint = await endpointFor(apiKey);
    const rotated = await app.request('POST', `/v1/webhook-endpoints/${endpoint.webhookEndpointId}/rotate-secret`, {
      apiKey,
    });
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.output.secret as string;
    expect(newSecret).not.toBe(endpoint.secret);
    const overlapHours = (Date.parse(rotated.body.output.previousSecretExpiresAt) - Date.now()) / 3_600_000;
    expect(overlapHours).toBeGreaterThan(23.9);
    expect(overlapHours).toBeLessThanOrEqual(24);

    await sendTest(apiKey, endpoint.webhookEndpointId);
    const [during] = await receiver.waitFor(1);
    expect(during?.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    for (const secret of [newSecret, endpoint.secret])
      expect(() => new Webhook(secret).verify(during?.body as string, during?.headers as any)).not.toThrow();

    await app.db.pool.query(
      "UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1",
      [Number(endpoint.webhookEndpointId)],
    );
    await sendTest(apiKey, endpoint.webhookEndpointId);
    const after = (await receiver.waitFor(2))[1];
    expect(after?.headers['webhook-signature']?.split(' ')).toHaveLength(1);
    expect(() => new Webhook(newSecret).verify(after?.body as string, after?.headers as any)).not.toThrow();
    expect(() => new Webhook(endpoint.secret).verify(after?.body as string, after?.headers as any)).toThrow();
    const read = await app.request('GET', `/v1/webhook-endpoints/${endpoint.webhookEndpointId}?apiKey=${apiKey}`);
    expect(read.body.output.previousSecretExpiresAt).toBeNull();
  });

  it("disables an endpoint whose deliveries have failed for five days, ends its pending deliveries and mails the account's owners", async () => {
    const owner = 'owner@webhook-owners.example';
    const { apiKey, accountId } = await app.createAccount({ email: owner });
    const endpoint = await endpointFor(apiKey, '/hooks?token=abc');
    receiver.answer = () => ({ status: 500 });
    await app.db.pool.query(
      "UPDATE webhook_endpoints SET failing_since = now() - interval '6 days' WHERE account_id = $1",
      [accountId],
    );
    const sent = await sendTest(apiKey, endpoint.webhookEndpointId);
    const delivery = await settled(apiKey, endpoint.webhookEndpointId, sent.deliveryId);
    expect(delivery.status).toBe('failed');
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.failureReason).toMatch(/^the endpoint was disabled: its deliveries failed since /);
    const disabled = await app.request('GET', `/v1/webhook-endpoints/${endpoint.webhookEndpointId}?apiKey=${apiKey}`);
    expect(disabled.body.output).toMatchObject({ disabled: true, disabledReason: 'failing' });

    const mail = await waitFor('the mail', async () => {
      const files = await readdir(path.join(app.dataDir, 'outbox')).catch(() => [] as string[]);
      // A message still being written is a .partial file, renamed when whole.
      for (const file of files.filter((name) => name.endsWith('.eml'))) {
        const parsed = readMail(await readFile(path.join(app.dataDir, 'outbox', file), 'utf8'));
        if (parsed.headers.to === owner) return parsed;
      }
      return null;
    });
    expect(mail.headers.subject).toBe(`Your webhook endpoint ${endpoint.webhookEndpointId} was disabled`);
    expect(mail.text).toContain(`${receiver.url}/hooks`);
    expect(mail.text).not.toContain('token=abc');

    // Disabled: no test event is taken, until the account enables it again.
    const refused = await app.request('POST', `/v1/webhook-endpoints/${endpoint.webhookEndpointId}/test`, { apiKey });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('invalid_state');
    const enabled = await app.request('PATCH', `/v1/webhook-endpoints/${endpoint.webhookEndpointId}`, {
      apiKey,
      disabled: false,
    });
    expect(enabled.body.output).toMatchObject({ disabled: false, disabledReason: null, failingSince: null });
  });

  it('deletes the delivery log after WEBHOOK_RETENTION_DAYS, but never a delivery still pending', async () => {
    const { apiKey, accountId } = await app.createAccount();
    const endpoint = await endpointFor(apiKey);
    receiver.answer = () => ({ status: 200 });
    const old = await sendTest(apiKey, endpoint.webhookEndpointId);
    await settled(apiKey, endpoint.webhookEndpointId, old.deliveryId);
    const pending = await sendTest(apiKey, endpoint.webhookEndpointId);
    await settled(apiKey, endpoint.webhookEndpointId, pending.deliveryId);
    await app.db.pool.query(
      `UPDATE webhook_deliveries SET status = CASE WHEN id = $2 THEN 'pending' ELSE status END,
              next_attempt_at = now() + interval '1 day', created_at = now() - interval '31 days'
        WHERE account_id = $1`,
      [accountId, Number(pending.deliveryId)],
    );
    await app.db.pool.query("UPDATE webhook_events SET created_at = now() - interval '31 days' WHERE account_id = $1", [
      accountId,
    ]);
    await app.db.pool.query(
      "UPDATE webhook_attempts SET attempted_at = now() - interval '31 days' WHERE account_id = $1",
      [accountId],
    );
    expect(await webhookRetention(30).sweep(app.db.pool)).toBeGreaterThanOrEqual(4);
    const left = await app.db.pool.query<{ id: number; status: string }>(
      'SELECT id, status FROM webhook_deliveries WHERE account_id = $1',
      [accountId],
    );
    expect(left.rows).toEqual([{ id: Number(pending.deliveryId), status: 'pending' }]);
    const events = await app.db.pool.query('SELECT 1 FROM webhook_events WHERE account_id = $1', [accountId]);
    expect(events.rowCount).toBe(1);
    const attempts = await app.db.pool.query('SELECT 1 FROM webhook_attempts WHERE account_id = $1', [accountId]);
    expect(attempts.rowCount).toBe(0);
  });

  it('ends the pending deliveries of an endpoint its account disables, and makes no further attempt', async () => {
    const { apiKey, accountId } = await app.createAccount();
    const endpoint = await endpointFor(apiKey);
    // The first attempt hangs until its time limit: the endpoint is disabled while it is in flight.
    receiver.answer = (_request, index) => (index === 0 ? 'hang' : { status: 200 });
    const sent = await sendTest(apiKey, endpoint.webhookEndpointId);
    await receiver.waitFor(1);
    const disabled = await app.request('PATCH', `/v1/webhook-endpoints/${endpoint.webhookEndpointId}`, {
      apiKey,
      disabled: true,
    });
    expect(disabled.body.output).toMatchObject({ disabled: true, disabledReason: 'requested' });
    expect(await deliveryOf(apiKey, endpoint.webhookEndpointId, sent.deliveryId)).toMatchObject({
      status: 'failed',
      failureReason: 'the endpoint was disabled before it was delivered',
    });
    // The attempt in flight is logged when it ends, and changes nothing; no job is left to try again.
    const jobs = await waitFor('the delivery job to end', async () => {
      const rows = await app.db.pool.query<{ status: string }>(
        "SELECT status FROM jobs WHERE kind = 'webhook.delivery' AND account_id = $1",
        [accountId],
      );
      return rows.rows.every((r) => r.status === 'succeeded' || r.status === 'failed') ? rows.rows : null;
    });
    expect(jobs).toHaveLength(1);
    const ended = await deliveryOf(apiKey, endpoint.webhookEndpointId, sent.deliveryId);
    expect(ended.status).toBe('failed');
    expect(ended.attempts.map((a: any) => a.error)).toEqual(['no answer within 1000 ms']);
    expect(receiver.received).toHaveLength(1);
    const resend = await app.request(
      'POST',
      `/v1/webhook-endpoints/${endpoint.webhookEndpointId}/deliveries/${sent.deliveryId}/resend`,
      { apiKey },
    );
    expect(resend.status).toBe(400);
    expect(resend.body.error.code).toBe('invalid_state');
  });
});
