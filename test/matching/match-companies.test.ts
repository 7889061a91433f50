import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNTRIES } from '../../reference/countries.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * matchCompanies over HTTP, on a labelled set built here from the seeded demo catalog with the
 * noise of real CRM rows: typos, legal forms added or dropped, a URL instead of a domain, a profile
 * URL alone, case, missing fields, and companies that do not exist. Built with a fixed seed from a
 * catalog generated from a fixed seed, so the set is the same on every run.
 */

interface Company {
  id: string;
  preferred_name: string;
  domains: string[];
  network_primary_slug: string | null;
  city: string | null;
  country_code: string | null;
}

interface Row {
  name?: string;
  domain?: string;
  profileUrl?: string;
  location?: string;
}

interface Labelled {
  row: Row;
  /** The company meant, by name and first domain; null for a company the catalog does not hold. */
  expected: { preferred_name: string; domain: string | undefined } | null;
  noise: string;
}

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const countryName = new Map(COUNTRIES.map((c) => [c.code2, c.name]));

function typo(text: string, next: () => number): string {
  const letters = [...text];
  const at = 1 + Math.floor(next() * (letters.length - 2));
  const kind = Math.floor(next() * 3);
  if (kind === 0) letters.splice(at, 1);
  else if (kind === 1) [letters[at], letters[at + 1]] = [letters[at + 1] ?? '', letters[at] ?? ''];
  else letters[at] = letters[at] === 'e' ? 'a' : 'e';
  return letters.join('');
}

function labelledSet(companies: Company[]): Labelled[] {
  const next = random(34);
  const set: Labelled[] = [];
  const withLegalForm = /\s(GmbH|Inc\.|Ltd\.?|LLC|S\.A\.|SAS|B\.V\.|AG|AB|Oy|Limited|PLC|Pty Ltd|S\.r\.l\.)$/;
  for (const [i, company] of companies.entries()) {
    const expected = { preferred_name: company.preferred_name, domain: company.domains[0] };
    const place = [company.city, company.country_code ? countryName.get(company.country_code) : null]
      .filter(Boolean)
      .join(', ');
    const name = company.preferred_name;
    const noise = [
      'exact name and location',
      'typo in the name, with location',
      'legal form changed',
      'URL instead of a name',
      'profile URL alone',
      'typo in the name, with domain',
      'lower case name and country',
      'name alone',
      'legal form changed, with location',
      'typo in the name alone',
    ][i % 10] as string;
    let row: Row;
    switch (noise) {
      case 'exact name and location':
        row = { name, location: place };
        break;
      case 'typo in the name, with location':
        row = { name: typo(name, next), location: place };
        break;
      case 'legal form changed':
        row = { name: withLegalForm.test(name) ? name.replace(withLegalForm, '') : `${name} Inc.` };
        break;
      case 'URL instead of a name':
        row = { domain: `https://www.${company.domains[0]}/about-us?ref=crm` };
        break;
      case 'profile URL alone':
        row = { profileUrl: `https://network.example.com/company/${company.network_primary_slug}/` };
        break;
      case 'typo in the name, with domain':
        row = { name: typo(name, next), domain: company.domains[0] as string };
        break;
      case 'lower case name and country':
        row = { name: name.toLowerCase(), location: countryName.get(company.country_code ?? '') ?? '' };
        break;
      case 'legal form changed, with location':
        row = {
          name: withLegalForm.test(name) ? name.replace(withLegalForm, '') : `${name} GmbH`,
          location: place,
        };
        break;
      case 'typo in the name alone':
        row = { name: typo(name, next) };
        break;
      default:
        row = { name };
    }
    if (!row.location) delete row.location;
    set.push({ row, expected, noise });
  }
  // Companies the catalog does not hold, written as CRM rows are.
  const made = ['Quorvant Biologix', 'Hexapine Maritime', 'Zelmora Textiles', 'Traventa Softworks', 'Obrik Nutrition'];
  for (let i = 0; i < 40; i++) {
    const name = `${made[i % made.length]} ${['Ltd', 'GmbH', 'Inc.', 'SAS'][i % 4]}`;
    set.push({
      row:
        i % 2
          ? { name, location: 'Berlin, Germany' }
          : { name, domain: `${name.split(' ')[0]?.toLowerCase()}-x${i}.com` },
      expected: null,
      noise: 'not in the catalog',
    });
  }
  return set;
}

describe('matchCompanies over HTTP', () => {
  let app: TestApp;
  let labelled: Labelled[];
  beforeAll(async () => {
    app = await startTestApp();
    // Every 9th company: spread over the catalog, the same ones on every run.
    const companies = await app.db.pool.query<Company>(
      `SELECT id::text, preferred_name, domains, network_primary_slug, city, country_code
         FROM companies WHERE cardinality(domains) > 0 AND network_primary_slug IS NOT NULL
         ORDER BY id`,
    );
    labelled = labelledSet(companies.rows.filter((_, i) => i % 9 === 0).slice(0, 300));
  });
  afterAll(async () => app?.stop());

  const balance = async (): Promise<number> =>
    (await app.request('GET', `/v1/credits?apiKey=${app.apiKey}`)).body.output.balance;

  async function matchAll(rows: Row[], minConfidence: number) {
    const results = [];
    for (let start = 0; start < rows.length; start += 100) {
      const response = await app.request('POST', '/v1/companies/match', {
        apiKey: app.apiKey,
        rows: rows.slice(start, start + 100),
        minConfidence,
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      results.push(...response.body.output.results);
    }
    return results;
  }

  it('is precise at confidence 0.9 or more (≥ 98 %) and finds most companies (recall ≥ 90 %)', async () => {
    expect(labelled.length).toBeGreaterThanOrEqual(300);
    const results = await matchAll(
      labelled.map((l) => l.row),
      0.9,
    );
    let returned = 0;
    let correct = 0;
    const wrong: unknown[] = [];
    const missedByNoise = new Map<string, number>();
    for (const [i, item] of labelled.entries()) {
      const result = results[i];
      expect(result.index).toBe(i % 100);
      if (result.match) {
        returned++;
        const right =
          item.expected !== null &&
          result.match.preferred_name === item.expected.preferred_name &&
          result.match.domains[0] === item.expected.domain;
        if (right) correct++;
        else wrong.push({ row: item.row, got: result.match.preferred_name, confidence: result.confidence });
      } else if (item.expected) missedByNoise.set(item.noise, (missedByNoise.get(item.noise) ?? 0) + 1);
    }
    const positives = labelled.filter((l) => l.expected).length;
    const precision = correct / returned;
    const recall = correct / positives;
    const report = JSON.stringify({ precision, recall, wrong: wrong.slice(0, 5), missed: [...missedByNoise] });
    expect(precision, report).toBeGreaterThanOrEqual(0.98);
    expect(recall, report).toBeGreaterThanOrEqual(0.9);
  });

  it('says which fields agreed, and charges one credit per match at or above minConfidence', async () => {
    const target = labelled.find((l) => l.noise === 'typo in the name, with domain') as Labelled;
    const rows = [target.row, { name: 'Quorvant Biologix Ltd', location: 'Berlin' }];
    const before = await balance();
    const response = await app.request('POST', '/v1/companies/match', { apiKey: app.apiKey, rows });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const [found, missing] = response.body.output.results;
    expect(found.match.preferred_name).toBe(target.expected?.preferred_name);
    expect(found.confidence).toBeGreaterThanOrEqual(0.9);
    expect(found.reasons.agreed).toEqual(expect.arrayContaining(['domain', 'name (close)']));
    expect(missing).toMatchObject({ index: 1, match: null });
    expect(response.body.output.matched).toBe(1);
    expect(response.body.chargeInfo.creditsCharged).toBe(1);
    expect(await balance()).toBe(before - 1);

    // The same row below a bar it does not reach: no match given, nothing charged.
    const strict = await app.request('POST', '/v1/companies/match', {
      apiKey: app.apiKey,
      rows: [{ name: typo(target.expected?.preferred_name ?? '', random(1)) }],
      minConfidence: 1,
    });
    expect(strict.body.output.results[0].match).toBeNull();
    expect(strict.body.chargeInfo.creditsCharged).toBe(0);
    expect(await balance()).toBe(before - 1);
  });

  it('refuses a row without an identifier with a 400 naming the row, and charges nothing', async () => {
    const before = await balance();
    const response = await app.request('POST', '/v1/companies/match', {
      apiKey: app.apiKey,
      rows: [{ name: 'Acme' }, { location: 'Berlin' }],
    });
    expect(response.status).toBe(400);
    expect(response.body.error.details.issues[0].field).toBe('rows.1');
    expect(response.body.error.details.issues[0].message).toMatch(/name, domain, profileUrl/);
    const tooLong = await app.request('POST', '/v1/companies/match', {
      apiKey: app.apiKey,
      rows: [{ name: 'x'.repeat(201) }],
    });
    expect(tooLong.body.error.details.issues[0].field).toBe('rows.0.name');
    const tooMany = await app.request('POST', '/v1/companies/match', {
      apiKey: app.apiKey,
      rows: Array.from({ length: 101 }, () => ({ name: 'Acme' })),
    });
    expect(tooMany.body.error.details.issues[0].field).toBe('rows');
    expect(await balance()).toBe(before);
  });
});
