import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers/app.js';

/**
 * OWASP API7:2023 Server Side Request Forgery. The service calls four kinds of URL: the network
 * source an operator configured (NETWORK_SOURCE_URL), the client ID metadata documents of OAuth
 * clients, the webhook endpoints accounts register, and nothing else (mail goes to SMTP_URL).
 * - a webhook endpoint on a private, loopback or link-local address is refused at registration
 *   (test/webhooks/endpoints.test.ts) and, by the addresses DNS answers, at every connection
 *   (test/providers/webhook-sender.test.ts); redirects are not followed (test/webhooks/delivery.test.ts);
 * - an identifier cannot walk the source's path (test/security/identifiers.test.ts);
 * - a client metadata document on a private, link-local or loopback address is refused, as is an
 *   http:// one (test/auth/cimd.test.ts, 'refuses documents on private addresses...');
 * - here: what the source answers cannot send the service elsewhere. A redirect is not followed
 *   (it would carry the upstream bearer token to wherever it points), and URLs inside a record
 *   are data, never fetched.
 */
interface Recorder {
  url: string;
  requests: Array<{ method: string; url: string; authorization: string | undefined }>;
  reply: (path: string) => { status: number; headers?: Record<string, string>; json?: unknown };
  close(): Promise<void>;
}

async function startRecorder(): Promise<Recorder> {
  const recorder: Recorder = {
    url: '',
    requests: [],
    reply: () => ({ status: 404 }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req, res) => {
    recorder.requests.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    const { status, headers, json } = recorder.reply(req.url ?? '');
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(json === undefined ? '' : JSON.stringify(json));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  recorder.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return recorder;
}

describe("API7 server-side request forgery through the network source's answers", () => {
  let source: Recorder;
  /** Stands for what must stay unreachable from outside: a metadata service, an internal admin API. */
  let internal: Recorder;
  let app: TestApp;
  beforeAll(async () => {
    [source, internal] = await Promise.all([startRecorder(), startRecorder()]);
    internal.reply = () => ({ status: 200, json: { secret: 'internal' } });
    app = await startTestApp({
      env: {
        NETWORK_SOURCE_URL: `${source.url}/api/v2`,
        NETWORK_SOURCE_API_KEY: 'upstream-secret',
        NETWORK_SOURCE_TIMEOUT_MS: '2000',
      },
    });
  });
  afterAll(async () => {
    await app?.stop();
    await Promise.all([source?.close(), internal?.close()]);
  });
  beforeEach(() => {
    source.requests.length = 0;
    internal.requests.length = 0;
  });

  const liveFetches = [
    ['company', '/v1/network-live-fetch/company/single', { type: 'slug', value: 'acme-robotics' }],
    ['profile', '/v1/network-live-fetch/profile/single', { identifier: 'jane-doe-42' }],
  ] as const;

  for (const status of [301, 302, 303, 307, 308]) {
    it(`does not follow a ${status} redirect from the source to an internal address, and is no 500`, async () => {
      source.reply = (path) => ({ status, headers: { location: `${internal.url}/latest/meta-data${path}` } });
      for (const [what, path, body] of liveFetches) {
        const answer = await app.request('POST', path, { apiKey: app.apiKey, ...body });
        expect(source.requests.length, what).toBeGreaterThan(0);
        expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).not.toBe(500);
        // A failed live fetch: a 404 when nothing is stored, or found: false, and nothing charged either way.
        if (answer.status === 200)
          expect(answer.body).toMatchObject({ output: { found: false }, chargeInfo: { creditsCharged: 0 } });
        else expect(answer.body.error.details.liveFetch).toBe('failed');
        expect(JSON.stringify(answer.body)).not.toContain('internal');
      }
      expect(internal.requests).toEqual([]);
    });
  }

  it('never fetches URLs found inside the records it is sent', async () => {
    const at = (what: string) => `${internal.url}/${what}`;
    source.reply = (path) =>
      path.includes('/companies/')
        ? {
            status: 200,
            json: {
              universal_name: 'acme-robotics',
              id: '48213',
              name: 'Acme Robotics',
              website: at('website'),
              logo_url: at('logo.png'),
              url: at('company'),
              industries: ['industrial-automation'],
              staff_count: 140,
              headquarter: { city: 'Lyon', country: 'fr' },
              next: at('next'),
            },
          }
        : {
            status: 200,
            json: {
              public_identifier: 'jane-doe-42',
              first_name: 'Jane',
              last_name: 'Doe',
              headline: 'Engineer',
              profile_pic_url: at('photo.jpg'),
              background_cover_image_url: at('cover.jpg'),
              experiences: [
                {
                  title: 'Engineer',
                  company: 'Acme Robotics',
                  company_linkedin_profile_url: at('employer'),
                  starts_at: { year: 2020 },
                },
              ],
            },
          };
    for (const [what, path, body] of liveFetches) {
      const answer = await app.request('POST', path, { apiKey: app.apiKey, ...body });
      expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBeLessThan(500);
      expect(source.requests.length, what).toBeGreaterThan(0);
    }
    expect(internal.requests).toEqual([]);
    expect(source.requests.every((r) => r.authorization === 'Bearer upstream-secret')).toBe(true);
  });
});
