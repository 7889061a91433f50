import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { startLocalServer, type LocalServer } from '../providers/local-server.js';

/**
 * The probe's path walk: a profile identifier `..` (or `/in/%2e%2e`) made the live source request
 * `{NETWORK_SOURCE_URL}/` with the upstream bearer token. Identifiers are held to the network's
 * slug rules and refused before any request leaves.
 */
describe('identifiers that would walk the upstream path', () => {
  let upstream: LocalServer;
  let app: TestApp;
  beforeAll(async () => {
    upstream = await startLocalServer(() => ({ status: 404 }));
    app = await startTestApp({
      env: { NETWORK_SOURCE_URL: `${upstream.url}/v1`, NETWORK_SOURCE_API_KEY: 'upstream-secret' },
    });
  });
  afterAll(async () => {
    await app.stop();
    await upstream.close();
  });

  const profileIdentifiers = [
    '..',
    '.',
    '/in/%2e%2e',
    'https://network.example.com/in/%2E%2E/',
    'https://network.example.com/in/../',
    '%2e%2e',
    'https://network.example.com/in/%E0%A4%A',
  ];
  for (const identifier of profileIdentifiers) {
    it(`refuses the profile identifier ${JSON.stringify(identifier)} with a 400, asking nothing upstream`, async () => {
      upstream.requests.length = 0;
      const answer = await app.request('POST', '/v1/network-live-fetch/profile/single', {
        apiKey: app.apiKey,
        identifier,
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error.details.issues[0].field).toBe('identifier');
      expect(upstream.requests).toEqual([]);
    });
  }

  for (const value of ['..', '.', 'https://network.example.com/company/%2e%2e']) {
    it(`refuses the company identifier ${JSON.stringify(value)} with a 400, asking nothing upstream`, async () => {
      upstream.requests.length = 0;
      const type = value.includes('/') ? 'liUrl' : 'slug';
      const answer = await app.request('POST', '/v1/network-live-fetch/company/single', {
        apiKey: app.apiKey,
        type,
        value,
      });
      expect(answer.status).toBe(400);
      expect(upstream.requests).toEqual([]);
    });
  }

  it('still asks upstream for a slug with dots inside it, under its own path', async () => {
    upstream.requests.length = 0;
    await app.request('POST', '/v1/network-live-fetch/profile/single', {
      apiKey: app.apiKey,
      identifier: 'jane.doe-42',
    });
    expect(upstream.requests.map((r) => r.url)).toEqual(['/v1/profiles/jane.doe-42']);
  });
});
