import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { redactedExcerpt } from '../../src/core/webhooks/excerpt.js';
import { webhookUrlRefusal } from '../../src/core/webhooks/targets.js';
import type { Resolver } from '../../src/providers/network-guard.js';
import { createWebhookSender } from '../../src/providers/webhook-sender.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';

/**
 * The HTTP adapter of webhook attempts against a real receiver on loopback, which stands for what
 * must stay unreachable (a metadata service, an internal API): the address rules hold on what DNS
 * answers when the connection is opened, not only on the name registered. A resolver passed to the
 * adapter plays DNS, so a name can answer a private address here without a DNS server.
 */
describe('the webhook sender', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  const port = () => new URL(receiver.url).port;
  const answering =
    (...addresses: string[]): Resolver =>
    (_hostname, callback) =>
      callback(
        null,
        addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      );
  const send = (sender: ReturnType<typeof createWebhookSender>, url: string) =>
    sender.send({ url, headers: { 'webhook-id': 'msg_test' }, body: '{}' }, new AbortController().signal);

  it('refuses at connect time a name whose DNS answer is loopback, private or link-local, and reaches nothing', async () => {
    const cases: string[][] = [
      ['127.0.0.1'],
      ['10.0.0.7'],
      ['169.254.169.254'],
      ['::1'],
      ['::a9fe:a9fe'],
      ['::ffff:0:a9fe:a9fe'],
      ['fec0::1'],
      ['64:ff9b::a9fe:a9fe'],
      // A name that answers a public address and a private one (round-robin, or rebinding) is refused whole.
      ['93.184.216.34', '127.0.0.1'],
    ];
    for (const addresses of cases) {
      const sender = createWebhookSender({
        timeoutMs: 2000,
        policy: { allowLoopback: false },
        resolve: answering(...addresses),
      });
      const outcome = await send(sender, `http://hooks.customer.example:${port()}/hook`);
      expect(outcome.statusCode, addresses.join(',')).toBeNull();
      expect(outcome.error).toBe('refused to connect to hooks.customer.example: the address is not public');
      await sender.close();
    }
    expect(receiver.received).toEqual([]);
  });

  it('never tells in the delivery log what a name resolved to (an account would learn what an internal name is)', async () => {
    const sender = createWebhookSender({
      timeoutMs: 2000,
      policy: { allowLoopback: false },
      resolve: answering('10.20.30.40'),
    });
    const outcome = await send(sender, `http://db.internal:${port()}/hook`);
    expect(outcome.error).toBe('refused to connect to db.internal: the address is not public');
    expect(outcome.error).not.toMatch(/10\.20\.30\.40|\d+\.\d+\.\d+\.\d+|private|reserved/);
    await sender.close();
  });

  it('refuses an IP literal, which no lookup sees, before the call; and the system resolver answers localhost with loopback', async () => {
    const sender = createWebhookSender({ timeoutMs: 2000, policy: { allowLoopback: false } });
    const literal = await send(sender, `http://127.0.0.1:${port()}/hook`);
    expect(literal.error).toBe('refused: 127.0.0.1 is a loopback address');
    const mapped = await send(sender, `http://[::ffff:127.0.0.1]:${port()}/hook`);
    expect(mapped.error).toMatch(/^refused: .* is a loopback address$/);
    const named = await send(sender, `http://localhost:${port()}/hook`);
    expect(named.error).toBe('refused to connect to localhost: the address is not public');
    expect(sender.refusedTarget(new URL('https://metrics.localhost/x'))).toBe('metrics.localhost is a loopback name');
    expect(sender.refusedTarget(new URL('https://hooks.example.com/x'))).toBeNull();
    await sender.close();
    expect(receiver.received).toEqual([]);
  });

  it('reaches such an address when private targets are allowed (development and tests)', async () => {
    const sender = createWebhookSender({
      timeoutMs: 2000,
      policy: { allowLoopback: true, allowPrivate: true },
      resolve: answering('127.0.0.1'),
    });
    const outcome = await send(sender, `http://hooks.customer.example:${port()}/allowed`);
    expect(outcome).toMatchObject({ statusCode: 200, error: null, responseText: 'ok' });
    expect(receiver.received.map((r) => r.path)).toEqual(['/allowed']);
    expect(receiver.received[0]?.headers['webhook-id']).toBe('msg_test');
    await sender.close();
  });

  it('reads at most the first kilobytes of an answer', async () => {
    receiver.answer = () => ({ status: 200, body: 'y'.repeat(1_000_000) });
    const sender = createWebhookSender({ timeoutMs: 5000, policy: { allowLoopback: true, allowPrivate: true } });
    const outcome = await send(sender, `${receiver.url}/big`);
    expect(outcome.statusCode).toBe(200);
    expect(outcome.responseText?.length).toBe(2048);
    await sender.close();
  });
});

describe('webhook settings and rules', () => {
  it('refuses WEBHOOK_ALLOW_PRIVATE_TARGETS with NODE_ENV=production, and a schedule that is not durations', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' })).toThrow(
      /WEBHOOK_ALLOW_PRIVATE_TARGETS: is for development and tests only/,
    );
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '5s,soon' })).toThrow(ConfigError);
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '5s,soon' })).toThrow(
      /WEBHOOK_RETRY_SCHEDULE: must be a comma list/,
    );
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '250ms, 5s,2m,1h,1d' }).webhookRetryScheduleMs).toEqual([
      250, 5000, 120_000, 3_600_000, 86_400_000,
    ]);
  });

  it('retries over about three days and disables after five by default, with attempts of at most 10 s', () => {
    const config = loadConfig({});
    const days = config.webhookRetryScheduleMs.reduce((sum, ms) => sum + ms, 0) / 86_400_000;
    expect(days).toBeGreaterThan(2.5);
    expect(days).toBeLessThan(3.5);
    expect(config.webhookDisableAfterMs).toBe(5 * 86_400_000);
    expect(() => loadConfig({ WEBHOOK_DISABLE_AFTER: '5d,1h' })).toThrow(/WEBHOOK_DISABLE_AFTER: must be a duration/);
    expect(config.WEBHOOK_TIMEOUT_MS).toBe(10_000);
    expect(config.WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe(false);
  });

  it('takes http only outside production, and never a user and password in the URL', () => {
    const sender = { refusedTarget: () => null };
    expect(webhookUrlRefusal({ NODE_ENV: 'production' }, sender, 'http://hooks.example.com/x')).toBe(
      'must be https:// (http:// is refused)',
    );
    expect(webhookUrlRefusal({ NODE_ENV: 'production' }, sender, 'https://hooks.example.com/x')).toBeNull();
    expect(webhookUrlRefusal({ NODE_ENV: 'development' }, sender, 'http://hooks.example.com/x')).toBeNull();
    expect(webhookUrlRefusal({ NODE_ENV: 'development' }, sender, 'https://a:b@hooks.example.com/x')).toMatch(
      /must not carry a user name or password/,
    );
  });

  it('keeps of an answer a short excerpt without credentials or addresses', () => {
    expect(redactedExcerpt(null)).toBeNull();
    expect(redactedExcerpt('  \n ')).toBeNull();
    expect(redactedExcerpt('Internal\n  Server   Error')).toBe('Internal Server Error');
    const redacted = redactedExcerpt(
      'Authorization: Bearer abc.def.ghi token=xyz123 {"api_key":"k-1","password":"hunter2"} mail ops@corp.example +14155550123 ' +
        'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.sflKxwRJSMeKKF2QT4fw',
    ) as string;
    for (const secret of ['abc.def.ghi', 'xyz123', 'k-1', 'hunter2', 'ops@corp.example', '+14155550123', 'eyJhbGci'])
      expect(redacted, secret).not.toContain(secret);
    expect(redactedExcerpt('word '.repeat(300))?.length).toBe(201);
  });
});
