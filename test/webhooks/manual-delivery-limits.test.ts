import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../audiences/helpers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * Test events and resends are bounded per endpoint (item 6 of issue 30): each queues a delivery
 * retried up to ten times, so the account's per-minute limit alone let one caller make an
 * endpoint receive thousands of requests an hour. Past WEBHOOK_MANUAL_DELIVERIES_PER_HOUR (10 by
 * default, test events and resends together) the call is 429 with Retry-After and queues nothing.
 */
describe('test events and resends of a webhook endpoint', () => {
  let app: TestApp;
  beforeAll(async () => {
    // The account's own limits are lifted (testEnv): only the endpoint's bound can refuse here.
    app = await startTestApp({ catalog: 'empty', env: { ...testEnv, WEBHOOK_TIMEOUT_MS: '1000' } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('takes 10 an hour per endpoint, then answers 429 with Retry-After and queues nothing', async () => {
    const { apiKey, accountId } = await app.createAccount();
    const create = async () =>
      (
        await app.request('POST', '/v1/webhook-endpoints', {
          apiKey,
          url: 'https://hooks.example.com/limited',
          events: ['export.ready'],
        })
      ).body.output.webhookEndpointId as string;
    const endpointId = await create();
    const deliveries = async () =>
      Number(
        (
          await app.db.pool.query('SELECT count(*)::int AS n FROM webhook_deliveries WHERE account_id = $1', [
            accountId,
          ])
        ).rows[0].n,
      );

    const first = await app.request('POST', `/v1/webhook-endpoints/${endpointId}/test`, { apiKey });
    expect(first.status).toBe(202);
    for (let resend = 0; resend < 4; resend += 1) {
      const again = await app.request(
        'POST',
        `/v1/webhook-endpoints/${endpointId}/deliveries/${first.body.output.deliveryId}/resend`,
        { apiKey },
      );
      expect(again.status).toBe(202);
    }
    for (let test = 0; test < 5; test += 1)
      expect((await app.request('POST', `/v1/webhook-endpoints/${endpointId}/test`, { apiKey })).status).toBe(202);
    const queued = await deliveries();
    expect(queued).toBe(6);

    const refused = await app.request('POST', `/v1/webhook-endpoints/${endpointId}/test`, { apiKey });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(refused.body.error.message).toContain(`webhook endpoint ${endpointId} had 10 test events and resends`);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    const resend = await app.request(
      'POST',
      `/v1/webhook-endpoints/${endpointId}/deliveries/${first.body.output.deliveryId}/resend`,
      { apiKey },
    );
    expect(resend.status).toBe(429);
    expect(Number(resend.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await deliveries()).toBe(queued);

    // The bound is the endpoint's: another endpoint of the account is not refused.
    const other = await create();
    expect((await app.request('POST', `/v1/webhook-endpoints/${other}/test`, { apiKey })).status).toBe(202);
  });
});
