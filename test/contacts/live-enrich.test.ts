import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { startLocalServer, type LocalServer } from '../providers/local-server.js';

/**
 * Live enrichment through HTTP: three instances of the service, one whose simulated network
 * always answers, one whose network always fails (NETWORK_SOURCE_FAILURE_RATE=1), and one
 * on the real HTTP adapter against a local server playing the network.
 */
let app: TestApp;
let failing: TestApp;
let viaHttp: TestApp;
let upstream: LocalServer;

beforeAll(async () => {
  upstream = await startLocalServer();
  [app, failing, viaHttp] = await Promise.all([
    startTestApp(),
    startTestApp({ env: { NETWORK_SOURCE_FAILURE_RATE: '1' } }),
    startTestApp({
      env: { NETWORK_SOURCE_URL: upstream.url, NETWORK_SOURCE_API_KEY: 'net-key', NETWORK_SOURCE_TIMEOUT_MS: '500' },
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([app?.stop(), failing?.stop(), viaHttp?.stop()]);
  await upstream?.close();
});

async function balanceOf(target: TestApp, apiKey: string): Promise<number> {
  const response = await target.request('GET', `/v1/credits?apiKey=${encodeURIComponent(apiKey)}`);
  return response.body.output.balance;
}

interface CompanyRow {
  id: number;
  network_primary_slug: string;
  network_org_id: number;
  preferred_name: string;
}
interface PersonRow {
  id: number;
  network_slug: string;
  network_user_id: number;
  first_name: string;
  title: string;
}

async function companyAt(target: TestApp, offset: number): Promise<CompanyRow> {
  const rows = await target.db.pool.query<CompanyRow>(
    'SELECT id, network_primary_slug, network_org_id, preferred_name FROM companies ORDER BY id OFFSET $1 LIMIT 1',
    [offset],
  );
  return rows.rows[0] as CompanyRow;
}

async function personAt(target: TestApp, offset: number): Promise<PersonRow> {
  const rows = await target.db.pool.query<PersonRow>(
    'SELECT id, network_slug, network_user_id, first_name, title FROM people ORDER BY id OFFSET $1 LIMIT 1',
    [offset],
  );
  return rows.rows[0] as PersonRow;
}

const liveCompany = (target: TestApp, apiKey: string, type: string, value: string) =>
  target.request('POST', '/v1/network-live-fetch/company/single', { apiKey, type, value });
const liveProfile = (target: TestApp, apiKey: string, body: Record<string, unknown>) =>
  target.request('POST', '/v1/network-live-fetch/profile/single', { apiKey, ...body });

describe('liveEnrichCompany', () => {
  it('charges 2 credits for a live fetch and stores the refreshed record', async () => {
    const account = await app.createAccount({ credits: 100 });
    const company = await companyAt(app, 10);
    const response = await liveCompany(app, account.apiKey, 'slug', company.network_primary_slug);
    expect(response.status).toBe(200);
    expect(response.body.chargeInfo).toMatchObject({ method: 'charged-now', creditsCharged: 2 });
    expect(response.body.output).toMatchObject({ found: true, source: 'live' });
    expect(Date.now() - Date.parse(response.body.output.fetchedAt)).toBeLessThan(60_000);
    expect(response.body.output.company.network_primary_slug).toBe(company.network_primary_slug);
    expect(response.body.output.company.last_sort_key).toBe(String(company.id));
    expect(await balanceOf(app, account.apiKey)).toBe(98);
    const ledger = await app.db.pool.query(
      'SELECT amount, unit FROM credit_ledger WHERE account_id = $1 AND amount < 0',
      [account.accountId],
    );
    expect(ledger.rows).toEqual([{ amount: -2, unit: 'liveEnrichCompany' }]);
    const stored = await app.db.pool.query<{
      employee_count_min: number;
      employee_count_max: number;
      live_fetched_at: Date | null;
    }>('SELECT employee_count_min, employee_count_max, live_fetched_at FROM companies WHERE id = $1', [company.id]);
    expect(stored.rows[0]?.live_fetched_at).not.toBeNull();
    expect(response.body.output.company.employee_count_consensus).toEqual({
      min: stored.rows[0]?.employee_count_min,
      max: stored.rows[0]?.employee_count_max,
    });
  });

  it('resolves a full company URL, a numeric organisation id, a URL carrying the org id, and a service company id', async () => {
    const company = await companyAt(app, 20);
    const forms: Array<[string, string]> = [
      ['liUrl', `https://www.network.example.com/company/${company.network_primary_slug}/about/?trk=x`],
      ['liUrl', `network.example.com/company/${company.network_org_id}`],
      ['orgId', String(company.network_org_id)],
      ['orgId', String(company.id)],
      ['slug', company.network_primary_slug.toUpperCase()],
    ];
    for (const [type, value] of forms) {
      const response = await liveCompany(app, app.apiKey, type, value);
      expect(response.status, `${type} ${value}`).toBe(200);
      expect(response.body.output.company.preferred_name, `${type} ${value}`).toBe(company.preferred_name);
      expect(response.body.chargeInfo.creditsCharged).toBe(2);
    }
  });

  it('answers 404 for a company found nowhere, charging nothing', async () => {
    const account = await app.createAccount({ credits: 10 });
    const response = await liveCompany(app, account.apiKey, 'slug', 'no-such-company-xyz');
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('not_found');
    expect((await liveCompany(app, account.apiKey, 'orgId', '987654321987')).status).toBe(404);
    expect(await balanceOf(app, account.apiKey)).toBe(10);
  });

  it('refuses malformed identifiers with a 400 naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ type: 'orgId', value: 'acme' }, 'value'],
      [{ type: 'liUrl', value: 'https://network.example.com/in/jane-doe' }, 'value'],
      [{ type: 'liUrl', value: 'acme-robotics' }, 'value'],
      [{ type: 'domain', value: 'acme.com' }, 'type'],
      [{ value: 'acme' }, 'type'],
      [{ type: 'slug', value: '   ' }, 'value'],
      [{ type: 'slug', value: 'acme', extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const response = await app.request('POST', '/v1/network-live-fetch/company/single', {
        apiKey: app.apiKey,
        ...body,
      });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(
        response.body.error.details.issues.map((i: { field: string }) => i.field),
        JSON.stringify(body),
      ).toContain(field);
    }
  });

  it('refuses with 402 when the balance cannot pay a live fetch, and changes nothing', async () => {
    const account = await app.createAccount({ credits: 1 });
    const company = await companyAt(app, 30);
    const response = await liveCompany(app, account.apiKey, 'slug', company.network_primary_slug);
    expect(response.status).toBe(402);
    expect(response.body.error.code).toBe('insufficient_credits');
    expect(await balanceOf(app, account.apiKey)).toBe(1);
    const stored = await app.db.pool.query('SELECT live_fetched_at FROM companies WHERE id = $1', [company.id]);
    expect(stored.rows[0]?.live_fetched_at).toBeNull();
  });

  it('falls back to the stored company for free when the live fetch fails, in the same structure', async () => {
    const account = await failing.createAccount({ credits: 50 });
    const company = await companyAt(failing, 40);
    const response = await liveCompany(failing, account.apiKey, 'slug', company.network_primary_slug);
    expect(response.status).toBe(200);
    expect(response.body.chargeInfo).toMatchObject({ method: 'charged-now', creditsCharged: 0 });
    expect(response.body.chargeInfo.message).toMatch(/live fetch failed/i);
    expect(response.body.output).toMatchObject({ found: true, source: 'stored' });
    expect(response.body.output.company.preferred_name).toBe(company.preferred_name);
    const live = await liveCompany(app, app.apiKey, 'slug', (await companyAt(app, 40)).network_primary_slug);
    expect(Object.keys(response.body.output).sort()).toEqual(Object.keys(live.body.output).sort());
    expect(Object.keys(response.body.output.company).sort()).toEqual(Object.keys(live.body.output.company).sort());
    expect(await balanceOf(failing, account.apiKey)).toBe(50);
    const stored = await failing.db.pool.query('SELECT live_fetched_at FROM companies WHERE id = $1', [company.id]);
    expect(stored.rows[0]?.live_fetched_at).toBeNull();
    expect((await liveCompany(failing, account.apiKey, 'slug', 'no-such-company-xyz')).status).toBe(404);
  });
});

describe('liveEnrichPerson', () => {
  it('charges 2 for a live profile, by slug, URL, URN or numeric user id, with details on request', async () => {
    const account = await app.createAccount({ credits: 100 });
    const person = await personAt(app, 5);
    const forms = [
      person.network_slug,
      `https://www.network.example.com/in/${person.network_slug}/`,
      `urn:li:fs_salesProfile:(${person.network_user_id},NAME_SEARCH,abc)`,
      String(person.network_user_id),
    ];
    for (const identifier of forms) {
      const response = await liveProfile(app, account.apiKey, { identifier });
      expect(response.status, identifier).toBe(200);
      expect(response.body.chargeInfo.creditsCharged, identifier).toBe(2);
      expect(response.body.output).toMatchObject({ found: true, source: 'live' });
      expect(response.body.output.profile.first_name).toBe(person.first_name);
      expect(response.body.output.profile.detailed_education).toBeNull();
    }
    expect(await balanceOf(app, account.apiKey)).toBe(100 - 2 * forms.length);
    const detailed = await liveProfile(app, account.apiKey, {
      identifier: person.network_slug,
      getDetailedEducation: true,
      getDetailedWorkExperience: true,
    });
    expect(detailed.body.output.profile.detailed_education).toHaveProperty('degrees');
    expect(detailed.body.output.profile.detailed_work_experiences.positions.length).toBeGreaterThan(0);
    const stored = await app.db.pool.query<{ title: string; live_fetched_at: Date | null }>(
      'SELECT title, live_fetched_at FROM people WHERE id = $1',
      [person.id],
    );
    expect(stored.rows[0]?.live_fetched_at).not.toBeNull();
    expect(stored.rows[0]?.title).toBe(detailed.body.output.profile.title);
  });

  it('answers found=false with 200 and no charge for a profile that exists nowhere', async () => {
    const account = await app.createAccount({ credits: 10 });
    const response = await liveProfile(app, account.apiKey, {
      identifier: 'https://network.example.com/in/nobody-at-all-000',
    });
    expect(response.status).toBe(200);
    expect(response.body.output).toMatchObject({ found: false, source: null, profile: null });
    expect(response.body.chargeInfo.creditsCharged).toBe(0);
    expect(await balanceOf(app, account.apiKey)).toBe(10);
  });

  it('falls back to the stored profile (found, 0 credits) when the live fetch fails, and found=false with nothing stored', async () => {
    const account = await failing.createAccount({ credits: 10 });
    const person = await personAt(failing, 7);
    const response = await liveProfile(failing, account.apiKey, {
      identifier: person.network_slug,
      getDetailedWorkExperience: true,
    });
    expect(response.status).toBe(200);
    expect(response.body.output).toMatchObject({ found: true, source: 'stored' });
    expect(response.body.output.profile.title).toBe(person.title);
    expect(response.body.output.profile.detailed_work_experiences).not.toBeNull();
    expect(response.body.chargeInfo.creditsCharged).toBe(0);
    const missing = await liveProfile(failing, account.apiKey, { identifier: 'nobody-at-all-000' });
    expect(missing.body.output.found).toBe(false);
    expect(missing.body.chargeInfo.creditsCharged).toBe(0);
    expect(await balanceOf(failing, account.apiKey)).toBe(10);
  });

  it('refuses identifiers that cannot name a profile, naming the field', async () => {
    for (const identifier of ['https://network.example.com/company/acme', 'urn:li:member:abc', 'jane doe']) {
      const response = await liveProfile(app, app.apiKey, { identifier });
      expect(response.status, identifier).toBe(400);
      expect(response.body.error.details.issues[0].field).toBe('identifier');
    }
    const wrongType = await liveProfile(app, app.apiKey, { identifier: 'jane', getDetailedEducation: 'yes' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.details.issues[0].field).toBe('getDetailedEducation');
  });
});

describe('the HTTP network adapter behind the endpoints', () => {
  it('stores what the network says and charges 2', async () => {
    const company = await companyAt(viaHttp, 50);
    upstream.handler = (request) =>
      request.url === `/companies/${company.network_primary_slug}`
        ? {
            status: 200,
            json: {
              universal_name: company.network_primary_slug,
              id: company.network_org_id,
              name: `${company.preferred_name} Group`,
              website: 'https://new-site-for-test.com',
              staff_count_range: { start: 201, end: 500 },
              headquarter: { city: 'Oslo', country: 'NO' },
            },
          }
        : { status: 404 };
    const account = await viaHttp.createAccount({ credits: 20 });
    const response = await liveCompany(viaHttp, account.apiKey, 'slug', company.network_primary_slug);
    expect(response.status).toBe(200);
    expect(response.body.chargeInfo.creditsCharged).toBe(2);
    expect(upstream.requests.at(-1)?.headers.authorization).toBe('Bearer net-key');
    expect(response.body.output.company).toMatchObject({
      preferred_name: `${company.preferred_name} Group`,
      employee_count_consensus: { min: 201, max: 500 },
      location_consensus: { city: 'Oslo', country_code: 'NO' },
    });
    expect(response.body.output.company.domains[0]).toBe('new-site-for-test.com');
    const stored = await viaHttp.db.pool.query<{
      preferred_name: string;
      domains: string[];
      tlds: string[];
      employee_count_min: number;
    }>('SELECT preferred_name, domains, tlds, employee_count_min FROM companies WHERE id = $1', [company.id]);
    expect(stored.rows[0]).toMatchObject({
      preferred_name: `${company.preferred_name} Group`,
      employee_count_min: 201,
    });
    expect(stored.rows[0]?.domains).toContain('new-site-for-test.com');
    expect(stored.rows[0]?.tlds).toContain('.com');
    // The refreshed record is what search finds now.
    const search = await viaHttp.request('POST', '/v1/company-search', {
      apiKey: viaHttp.apiKey,
      searchParams: { domains: ['new-site-for-test.com'] },
    });
    expect(search.body.output.data.map((c: { last_sort_key: string }) => c.last_sort_key)).toEqual([
      String(company.id),
    ]);
  });

  it('falls back to stored data for free when the upstream errors or is too slow', async () => {
    const company = await companyAt(viaHttp, 60);
    const account = await viaHttp.createAccount({ credits: 20 });
    upstream.handler = () => ({ status: 503 });
    const erroring = await liveCompany(viaHttp, account.apiKey, 'slug', company.network_primary_slug);
    expect(erroring.body.output.source).toBe('stored');
    expect(erroring.body.chargeInfo.creditsCharged).toBe(0);
    upstream.handler = () => ({ status: 200, json: { name: 'Too late' }, delayMs: 1500 });
    const started = Date.now();
    const slow = await liveCompany(viaHttp, account.apiKey, 'slug', company.network_primary_slug);
    expect(slow.body.output.source).toBe('stored');
    expect(slow.body.output.company.preferred_name).toBe(company.preferred_name);
    expect(Date.now() - started).toBeLessThan(1400);
    expect(await balanceOf(viaHttp, account.apiKey)).toBe(20);
  });

  it('shows, charges but does not store a profile the network has and the catalog does not, asking by user id', async () => {
    upstream.handler = (request) =>
      request.url === '/profiles/by-id/777000111'
        ? {
            status: 200,
            json: {
              public_identifier: 'outside-person',
              member_id: 777000111,
              first_name: 'Outside',
              last_name: 'Person',
              occupation: 'Founder',
            },
          }
        : { status: 404 };
    const account = await viaHttp.createAccount({ credits: 5 });
    const response = await liveProfile(viaHttp, account.apiKey, { identifier: '777000111' });
    expect(response.status).toBe(200);
    expect(response.body.output).toMatchObject({ found: true, source: 'live' });
    expect(response.body.output.profile).toMatchObject({
      first_name: 'Outside',
      title: 'Founder',
      network_slug: 'outside-person',
      last_sort_key: '',
    });
    expect(response.body.chargeInfo.creditsCharged).toBe(2);
    expect(upstream.requests.at(-1)?.url).toBe('/profiles/by-id/777000111');
    const stored = await viaHttp.db.pool.query(
      "SELECT count(*)::int AS n FROM people WHERE network_slug = 'outside-person'",
    );
    expect(stored.rows[0]?.n).toBe(0);
    expect(await balanceOf(viaHttp, account.apiKey)).toBe(3);
  });

  it('updates a profile from the network, including its company link', async () => {
    const person = await personAt(viaHttp, 9);
    const otherCompany = await companyAt(viaHttp, 70);
    upstream.handler = (request) =>
      request.url === `/profiles/${person.network_slug}`
        ? {
            status: 200,
            json: {
              public_identifier: person.network_slug,
              member_id: person.network_user_id,
              first_name: person.first_name,
              last_name: 'Newname',
              headline: 'Fresh headline',
              country_code: 'DE',
              city: 'Berlin',
              experiences: [
                {
                  company: otherCompany.preferred_name,
                  company_universal_name: otherCompany.network_primary_slug,
                  title: 'Chief Robot Officer',
                  starts_at: '2026-01',
                  ends_at: null,
                },
              ],
            },
          }
        : { status: 404 };
    const response = await liveProfile(viaHttp, viaHttp.apiKey, {
      identifier: person.network_slug,
      getDetailedWorkExperience: true,
    });
    expect(response.body.chargeInfo.creditsCharged).toBe(2);
    expect(response.body.output.profile).toMatchObject({
      last_name: 'Newname',
      title: 'Chief Robot Officer',
      headline: 'Fresh headline',
      country3: 'DEU',
      current_company: { name: otherCompany.preferred_name, network_slug: otherCompany.network_primary_slug },
    });
    const stored = await viaHttp.db.pool.query<{ company_id: number; country3: string }>(
      'SELECT company_id, country3 FROM people WHERE id = $1',
      [person.id],
    );
    expect(stored.rows[0]).toEqual({ company_id: otherCompany.id, country3: 'DEU' });
  });
});
