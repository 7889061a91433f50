import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { degreeTypeOf, HttpNetworkSource } from '../../src/providers/network/http-source.js';
import { NetworkSourceError } from '../../src/core/ports/network-source.js';
import { startLocalServer, type LocalServer } from './local-server.js';

let upstream: LocalServer;
let source: HttpNetworkSource;

beforeAll(async () => {
  upstream = await startLocalServer();
  // A path prefix and a trailing slash, as an operator may write the URL.
  source = new HttpNetworkSource({ baseUrl: `${upstream.url}/api/v2/`, apiKey: 'upstream-secret', timeoutMs: 400 });
});
afterAll(async () => {
  await source?.close();
  await upstream?.close();
});
beforeEach(() => {
  upstream.requests.length = 0;
});

const upstreamCompany = {
  universal_name: 'Acme-Robotics',
  id: '48213',
  name: 'Acme Robotics',
  description: 'Robots for warehouses.',
  website: 'https://www.AcmeRobotics.io/about',
  industries: ['industrial-automation'],
  staff_count: 140,
  staff_count_range: { start: 51, end: 200 },
  headquarter: { city: 'Lyon', geographic_area: 'Auvergne-Rhône-Alpes', country: 'fr' },
  founded_on: '2014',
  unknown_field: { ignored: true },
};

describe('HttpNetworkSource: companies', () => {
  it('fetches by slug with the API key and maps the upstream record to ours', async () => {
    upstream.handler = () => ({ status: 200, json: upstreamCompany });
    const company = await source.fetchCompany({ slug: 'acme-robotics', orgId: 48213 });
    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0]?.method).toBe('GET');
    expect(upstream.requests[0]?.url).toBe('/api/v2/companies/acme-robotics');
    expect(upstream.requests[0]?.headers.authorization).toBe('Bearer upstream-secret');
    expect(company).toEqual({
      slug: 'acme-robotics',
      orgId: 48213,
      name: 'Acme Robotics',
      description: 'Robots for warehouses.',
      domains: ['acmerobotics.io'],
      industries: ['industrial-automation'],
      employeeCountMin: 51,
      employeeCountMax: 200,
      city: 'Lyon',
      stateName: 'Auvergne-Rhône-Alpes',
      countryCode: 'FR',
      foundedOn: '2014-01-01',
    });
  });

  it('fetches by organisation id when there is no slug, and reads a bare staff count as a range of one', async () => {
    upstream.handler = () => ({
      status: 200,
      json: { ...upstreamCompany, staff_count_range: null, staff_count: 77, website: null },
    });
    const company = await source.fetchCompany({ orgId: 48213 });
    expect(upstream.requests[0]?.url).toBe('/api/v2/companies/by-id/48213');
    expect(company?.employeeCountMin).toBe(77);
    expect(company?.employeeCountMax).toBe(77);
    expect(company?.domains).toEqual([]);
  });

  it('escapes the slug in the path', async () => {
    upstream.handler = () => ({ status: 404 });
    await source.fetchCompany({ slug: 'a b/c' });
    expect(upstream.requests[0]?.url).toBe('/api/v2/companies/a%20b%2Fc');
  });

  it('answers null when the network has no such company (404)', async () => {
    upstream.handler = () => ({ status: 404, json: { error: 'not found' } });
    await expect(source.fetchCompany({ slug: 'nobody' })).resolves.toBeNull();
  });

  it.each([429, 500, 503])('throws a NetworkSourceError (unavailable) on HTTP %i', async (status) => {
    upstream.handler = () => ({ status, json: { error: 'busy' } });
    const error = await source.fetchCompany({ slug: 'acme-robotics' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkSourceError);
    expect((error as NetworkSourceError).kind).toBe('unavailable');
    expect((error as Error).message).toContain(String(status));
  });

  it('throws a timeout error when the upstream is slower than the timeout', async () => {
    upstream.handler = () => ({ status: 200, json: upstreamCompany, delayMs: 1500 });
    const started = Date.now();
    const error = await source.fetchCompany({ slug: 'acme-robotics' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkSourceError);
    expect((error as NetworkSourceError).kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1200);
  });

  it('throws invalid_response on a body that is not JSON or not a company', async () => {
    upstream.handler = () => ({ status: 200, text: '<html>maintenance</html>' });
    const notJson = await source.fetchCompany({ slug: 'acme-robotics' }).catch((e: unknown) => e);
    expect((notJson as NetworkSourceError).kind).toBe('invalid_response');
    upstream.handler = () => ({ status: 200, json: { universal_name: 'acme' } });
    const noName = await source.fetchCompany({ slug: 'acme-robotics' }).catch((e: unknown) => e);
    expect((noName as NetworkSourceError).kind).toBe('invalid_response');
  });

  it('throws unavailable when nothing listens', async () => {
    const closed = await startLocalServer();
    const url = closed.url;
    await closed.close();
    const dead = new HttpNetworkSource({ baseUrl: url, timeoutMs: 400 });
    const error = await dead.fetchCompany({ slug: 'acme' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkSourceError);
    expect((error as NetworkSourceError).kind).toBe('unavailable');
    await dead.close();
  });

  it('stops when the caller aborts', async () => {
    upstream.handler = () => ({ status: 200, json: upstreamCompany, delayMs: 300 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(source.fetchCompany({ slug: 'acme-robotics' }, controller.signal)).rejects.toBeInstanceOf(
      NetworkSourceError,
    );
  });
});

describe('HttpNetworkSource: profiles', () => {
  const upstreamProfile = {
    public_identifier: 'Jane-Doe-3f9a2',
    member_id: 99120,
    first_name: 'Jane',
    last_name: 'Doe',
    headline: 'Building robots',
    occupation: 'Engineer at Acme',
    city: 'Lyon',
    country_code: 'fr',
    languages: [{ name: 'French', proficiency: 'NATIVE_OR_BILINGUAL' }, { name: 'English' }],
    experiences: [
      {
        company: 'Old Co',
        company_universal_name: 'old-co',
        company_domain: 'old.co',
        title: 'Engineer',
        starts_at: '2015-02',
        ends_at: '2019-06',
      },
      {
        company: 'Acme Robotics',
        company_universal_name: 'Acme-Robotics',
        company_domain: 'https://acmerobotics.io',
        title: 'Staff Engineer',
        starts_at: '2019-07-01',
        ends_at: null,
      },
    ],
    education: [
      {
        school: 'INSA Lyon',
        degree_name: 'Master of Science',
        field_of_study: 'Robotics',
        start_year: 2010,
        end_year: 2015,
      },
    ],
  };

  it('fetches by slug and maps the current position, languages and education', async () => {
    upstream.handler = () => ({ status: 200, json: upstreamProfile });
    const profile = await source.fetchProfile({ slug: 'jane-doe-3f9a2', userId: 99120 });
    expect(upstream.requests[0]?.url).toBe('/api/v2/profiles/jane-doe-3f9a2');
    expect(profile).toMatchObject({
      slug: 'jane-doe-3f9a2',
      userId: 99120,
      firstName: 'Jane',
      lastName: 'Doe',
      title: 'Staff Engineer',
      headline: 'Building robots',
      countryCode: 'FR',
      currentCompany: { name: 'Acme Robotics', slug: 'acme-robotics', domain: 'acmerobotics.io' },
      languages: [
        { name: 'French', proficiency_name: 'NATIVE_OR_BILINGUAL' },
        { name: 'English', proficiency_name: '' },
      ],
      education: [
        { school: 'INSA Lyon', degree_type: 'MASTERS', field_of_study: 'Robotics', start_year: 2010, end_year: 2015 },
      ],
    });
    expect(profile?.workExperiences).toEqual([
      {
        company_name: 'Old Co',
        company_slug: 'old-co',
        company_domain: 'old.co',
        title: 'Engineer',
        start_date: '2015-02-01',
        end_date: '2019-06-01',
        is_current: false,
      },
      {
        company_name: 'Acme Robotics',
        company_slug: 'acme-robotics',
        company_domain: 'acmerobotics.io',
        title: 'Staff Engineer',
        start_date: '2019-07-01',
        end_date: null,
        is_current: true,
      },
    ]);
  });

  it('fetches by user id, and takes the occupation as title when no position is current', async () => {
    upstream.handler = () => ({ status: 200, json: { ...upstreamProfile, experiences: [] } });
    const profile = await source.fetchProfile({ userId: 99120 });
    expect(upstream.requests[0]?.url).toBe('/api/v2/profiles/by-id/99120');
    expect(profile?.title).toBe('Engineer at Acme');
    expect(profile?.currentCompany).toBeNull();
  });

  it('answers null on 404 and throws on 502', async () => {
    upstream.handler = () => ({ status: 404 });
    await expect(source.fetchProfile({ slug: 'ghost' })).resolves.toBeNull();
    upstream.handler = () => ({ status: 502 });
    await expect(source.fetchProfile({ slug: 'ghost' })).rejects.toBeInstanceOf(NetworkSourceError);
  });

  it('maps degree names to the catalog degree codes', () => {
    expect(degreeTypeOf("Bachelor's Degree")).toBe('BACHELORS');
    expect(degreeTypeOf('B.Sc. Computer Science')).toBe('BACHELORS');
    expect(degreeTypeOf('Master of Business Administration (MBA)')).toBe('MBA');
    expect(degreeTypeOf('Doctor of Philosophy (PhD)')).toBe('PHD');
    expect(degreeTypeOf('Juris Doctor (JD)')).toBe('JD');
    expect(degreeTypeOf('Doctor of Medicine (MD)')).toBe('MD');
    expect(degreeTypeOf("Associate's Degree")).toBe('ASSOCIATES');
    expect(degreeTypeOf('High School Diploma')).toBe('HIGH_SCHOOL');
    expect(degreeTypeOf('Professional Certificate')).toBe('CERTIFICATE');
    expect(degreeTypeOf('Exchange semester')).toBeNull();
    expect(degreeTypeOf(null)).toBeNull();
  });
});
