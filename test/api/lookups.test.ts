import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

/** Typeahead, reference enums, email validation and the lookup by work email, over HTTP. */
describe('lookups', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => app?.stop());

  const balance = async (): Promise<number> =>
    (await app.request('GET', `/v1/credits?apiKey=${app.apiKey}`)).body.output.balance;

  describe('company typeahead', () => {
    it('suggests the companies whose name starts with the query, in name order, for 1 credit', async () => {
      const sample = (
        await app.db.pool.query<{ preferred_name: string }>('SELECT preferred_name FROM companies ORDER BY id LIMIT 1')
      ).rows[0]?.preferred_name as string;
      const prefix = sample.slice(0, 3);
      const expected = (
        await app.db.pool.query<{ id: number }>(
          `SELECT id FROM companies WHERE lower(preferred_name) LIKE $1 ORDER BY lower(preferred_name) COLLATE "C", id LIMIT 5`,
          [`${prefix.toLowerCase()}%`],
        )
      ).rows.map((r) => String(r.id));
      const before = await balance();
      const response = await app.request(
        'GET',
        `/v1/typeahead/companies?apiKey=${app.apiKey}&query=${encodeURIComponent(prefix.toUpperCase())}&limit=5`,
      );
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body.output.data.map((s: { companyId: string }) => s.companyId)).toEqual(expected);
      for (const suggestion of response.body.output.data) {
        expect(suggestion.name.toLowerCase().startsWith(prefix.toLowerCase())).toBe(true);
        expect(suggestion).toHaveProperty('domain');
        expect(suggestion).toHaveProperty('networkSlug');
        expect(suggestion.employeeCount).toHaveProperty('min');
      }
      expect(response.body.chargeInfo.creditsCharged).toBe(1);
      expect(await balance()).toBe(before - 1);
    });

    it('takes LIKE wildcards literally and charges 1 credit for finding nothing', async () => {
      const before = await balance();
      const response = await app.request(
        'GET',
        `/v1/typeahead/companies?apiKey=${app.apiKey}&query=${encodeURIComponent('%_')}`,
      );
      expect(response.body.output.data).toEqual([]);
      expect(await balance()).toBe(before - 1);
    });

    it('refuses a missing or oversized query with a 400 naming it, charging nothing', async () => {
      const before = await balance();
      const missing = await app.request('GET', `/v1/typeahead/companies?apiKey=${app.apiKey}`);
      expect(missing.status).toBe(400);
      expect(missing.body.error.details.issues[0].field).toBe('query');
      const long = await app.request('GET', `/v1/typeahead/companies?apiKey=${app.apiKey}&query=${'a'.repeat(500)}`);
      expect(long.status).toBe(400);
      const limit = await app.request('GET', `/v1/typeahead/companies?apiKey=${app.apiKey}&query=ab&limit=500`);
      expect(limit.body.error.details.issues[0].field).toBe('limit');
      expect(await balance()).toBe(before);
    });
  });

  describe('location typeahead', () => {
    it('spells places as the filters take them: a suggested city selects its companies', async () => {
      const city = (
        await app.db.pool.query<{ city: string; location_text: string }>(
          // A city named unlike its state: "New York, United States" would also be found inside "White Plains, New York, United States".
          `SELECT city, location_text FROM companies WHERE country_code = 'US' AND city IS NOT NULL AND city <> state_name
          GROUP BY city, location_text ORDER BY count(*) DESC LIMIT 1`,
        )
      ).rows[0] as { city: string; location_text: string };
      const response = await app.request(
        'GET',
        `/v1/typeahead/locations?apiKey=${app.apiKey}&query=${encodeURIComponent(city.city.slice(0, 4))}&kinds=city&limit=50`,
      );
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const suggestion = response.body.output.data.find((s: { label: string }) => s.label === city.location_text);
      expect(
        suggestion,
        `${city.location_text} among ${JSON.stringify(response.body.output.data.map((s: { label: string }) => s.label))}`,
      ).toBeDefined();
      expect(suggestion.kind).toBe('city');
      const search = await app.request('POST', '/v1/company-search', {
        apiKey: app.apiKey,
        searchParams: suggestion.filters,
        pageSize: 5,
      });
      expect(search.body.output.data.length).toBeGreaterThan(0);
      for (const company of search.body.output.data) expect(company.location_consensus.city).toBe(city.city);
    });

    it('finds countries by name with both country codes, and states with their filter', async () => {
      const response = await app.request(
        'GET',
        `/v1/typeahead/locations?apiKey=${app.apiKey}&query=germ&kinds=country`,
      );
      expect(response.body.output.data[0]).toMatchObject({
        kind: 'country',
        name: 'Germany',
        countryCode: 'DE',
        filters: { headquartersCountryCode: ['DE'], country3LetterCode: ['DEU'] },
      });
      const states = await app.request('GET', `/v1/typeahead/locations?apiKey=${app.apiKey}&query=califor&kinds=state`);
      expect(states.body.output.data[0]).toMatchObject({
        kind: 'state',
        name: 'California',
        filters: { headquartersStateName: ['California'] },
      });
      const accents = await app.request(
        'GET',
        `/v1/typeahead/locations?apiKey=${app.apiKey}&query=${encodeURIComponent('São')}&kinds=city`,
      );
      expect(accents.body.output.data.some((s: { name: string }) => s.name === 'São Paulo')).toBe(true);
      expect(response.body.chargeInfo.creditsCharged).toBe(1);
    });

    it('refuses an unknown kind with a 400 naming the field', async () => {
      const response = await app.request('GET', `/v1/typeahead/locations?apiKey=${app.apiKey}&query=par&kinds=planet`);
      expect(response.status).toBe(400);
      expect(response.body.error.details.issues[0].field).toBe('kinds');
    });
  });

  describe('reference enums', () => {
    it('lists tags, languages, time zones and subdivisions, free', async () => {
      const before = await balance();
      const tags = await app.request('GET', `/v1/enums/tags?apiKey=${app.apiKey}`);
      expect(tags.body.output.prospectTags.map((t: { slug: string }) => t.slug)).toContain('decision-maker');
      expect(tags.body.output.companyFlags.map((t: { slug: string }) => t.slug)).toContain('HIGH_GROWTH');
      expect(tags.body.output.fundingStages).toContain('SERIES_A');
      // Every tag listed selects people: the enum and the data agree.
      const tagged = await app.request('POST', '/v1/people-search', {
        apiKey: app.apiKey,
        searchParams: { tags: { anyOf: [tags.body.output.prospectTags[0].slug] } },
        pageSize: 1,
      });
      expect(tagged.body.output.data).toHaveLength(1);
      const languages = await app.request('GET', `/v1/enums/languages?apiKey=${app.apiKey}`);
      expect(languages.body.output.languages).toContainEqual({ name: 'English', commonSecondLanguage: true });
      expect(languages.body.output.proficiencies).toContain('Native or bilingual proficiency');
      const zones = await app.request('GET', `/v1/enums/time-zones?apiKey=${app.apiKey}`);
      // ICU names India's zone by its older name on some runtimes.
      expect(
        zones.body.output.timeZones.find((z: { name: string }) => /^Asia\/(Kolkata|Calcutta)$/.test(z.name)),
      ).toMatchObject({ area: 'Asia', utcOffset: '+05:30' });
      expect(zones.body.output.timeZones).toContainEqual({ name: 'UTC', area: 'UTC', utcOffset: '+00:00' });
      const us = await app.request('GET', `/v1/enums/country-subdivisions?apiKey=${app.apiKey}&countryCode=us`);
      expect(us.body.output.countryCode).toBe('US');
      expect(us.body.output.subdivisions).toContainEqual({
        code: 'US-CA',
        name: 'California',
        countryCode: 'US',
        countryName: 'United States',
        parent: null,
      });
      expect(us.body.output.subdivisions.every((s: { countryCode: string }) => s.countryCode === 'US')).toBe(true);
      const all = await app.request('GET', `/v1/enums/country-subdivisions?apiKey=${app.apiKey}`);
      expect(all.body.output.subdivisions.length).toBeGreaterThan(3000);
      const bad = await app.request('GET', `/v1/enums/country-subdivisions?apiKey=${app.apiKey}&countryCode=USA`);
      expect(bad.status).toBe(400);
      expect(bad.body.error.details.issues[0].field).toBe('countryCode');
      // Only the one-record people search above was charged.
      expect(await balance()).toBe(before - 1);
    });
  });

  describe('email validation', () => {
    const validate = async (email: string) => {
      const response = await app.request('POST', '/v1/email/validate', { apiKey: app.apiKey, email });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body.chargeInfo.creditsCharged).toBe(1);
      return response.body.output;
    };

    it('checks syntax, the mail domain, disposable domains and role addresses, 1 credit each', async () => {
      const before = await balance();
      expect(await validate('Jane.Doe@Acme-Widgets.com')).toMatchObject({
        normalized: 'jane.doe@acme-widgets.com',
        valid: true,
        checks: { syntax: true, mailDomain: true, disposable: false, role: false },
        mailDomainCheck: 'embedded',
      });
      expect(await validate('not an email')).toMatchObject({
        valid: false,
        checks: { syntax: false, mailDomain: null },
      });
      expect(await validate('jane@example.com')).toMatchObject({
        valid: false,
        checks: { syntax: true, mailDomain: false },
      });
      expect(await validate('someone@mailinator.com')).toMatchObject({
        valid: false,
        checks: { disposable: true },
        reason: expect.stringContaining('disposable'),
      });
      expect(await validate('sales+eu@acme-widgets.com')).toMatchObject({ valid: true, checks: { role: true } });
      expect(await balance()).toBe(before - 5);
    });

    it('refuses an oversized address with a 400 naming the field', async () => {
      const response = await app.request('POST', '/v1/email/validate', {
        apiKey: app.apiKey,
        email: `${'a'.repeat(300)}@x.com`,
      });
      expect(response.status).toBe(400);
      expect(response.body.error.details.issues[0].field).toBe('email');
    });
  });

  describe('person by work email', () => {
    it('finds the person a work email belongs to for 2 credits, and charges nothing when nobody has it', async () => {
      const known = (
        await app.db.pool.query<{ value: string; network_slug: string }>(
          `SELECT pc.value, p.network_slug FROM person_contacts pc JOIN people p ON p.id = pc.person_id WHERE pc.kind = 'work_email' ORDER BY pc.person_id LIMIT 1`,
        )
      ).rows[0] as { value: string; network_slug: string };
      const before = await balance();
      const found = await app.request('POST', '/v1/people/by-work-email', {
        apiKey: app.apiKey,
        email: known.value.toUpperCase(),
      });
      expect(found.status, JSON.stringify(found.body)).toBe(200);
      expect(found.body.output).toMatchObject({ found: true, person: { network_slug: known.network_slug } });
      expect(found.body.chargeInfo.creditsCharged).toBe(2);
      const missing = await app.request('POST', '/v1/people/by-work-email', {
        apiKey: app.apiKey,
        email: 'nobody@nowhere-at-all.example',
      });
      expect(missing.body.output).toEqual({ email: 'nobody@nowhere-at-all.example', found: false, person: null });
      expect(missing.body.chargeInfo.creditsCharged).toBe(0);
      expect(await balance()).toBe(before - 2);
    });
  });
});
