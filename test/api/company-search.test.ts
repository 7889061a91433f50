import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * Every company filter through HTTP: each returned record satisfies the filter, and every
 * record of the catalog that satisfies it is returned (compared with the catalog itself,
 * read straight from the database and filtered here by the documented rule).
 */
interface CompanyRow {
  id: number;
  preferred_name: string;
  description: string;
  domains: string[];
  tlds: string[];
  network_primary_slug: string;
  network_org_id: number;
  standard_industries: string[];
  employee_count_min: number | null;
  employee_count_max: number | null;
  state_name: string | null;
  country_code: string | null;
  location_text: string | null;
  total_funding_usd: number | null;
  last_funding_usd: number | null;
  last_funded_on: string | null;
  founded_on: string | null;
  stage: string | null;
  special_flags: string[];
}

let app: TestApp;
let catalog: CompanyRow[];

beforeAll(async () => {
  // One key runs every filter here within a minute; the search rate limit has its own test (errors.test.ts).
  app = await startTestApp({ env: { RATE_LIMIT_SEARCH_PER_MINUTE: '10000' } });
  catalog = (await app.db.pool.query<CompanyRow>('SELECT * FROM companies ORDER BY id')).rows;
});
afterAll(async () => app?.stop());

async function searchAll(searchParams: unknown, pageSize = 1000): Promise<Array<Record<string, any>>> {
  const records: Array<Record<string, any>> = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const response = await app.request('POST', '/v1/company-search', {
      apiKey: app.apiKey,
      searchParams,
      pageSize,
      cursor,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    records.push(...response.body.output.data);
    cursor = response.body.output.nextCursor;
    if (cursor === null) return records;
  }
  throw new Error('paging did not end');
}

function mostCommon<T>(values: T[]): T {
  const counts = new Map<T, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
}

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

async function expectFilter(
  searchParams: Record<string, unknown>,
  predicate: (row: CompanyRow) => boolean,
): Promise<void> {
  const expected = catalog.filter(predicate).map((row) => String(row.id));
  expect(
    expected.length,
    `filter ${JSON.stringify(searchParams)} selects something in the test catalog`,
  ).toBeGreaterThan(0);
  expect(expected.length, `filter ${JSON.stringify(searchParams)} leaves something out`).toBeLessThan(catalog.length);
  const returned = (await searchAll(searchParams)).map((record) => record.last_sort_key as string);
  expect(returned).toEqual(expected);
}

describe('company search filters', () => {
  it('keywords: any listed word of the description', async () => {
    const [a, b] = [
      words(catalog[3]!.description).find((w) => w.length > 6)!,
      words(catalog[10]!.description).find((w) => w.length > 7)!,
    ];
    await expectFilter(
      { keywords: [a, b] },
      (row) => words(row.description).includes(a) || words(row.description).includes(b),
    );
  });

  it('nameLike: partial, case-insensitive', async () => {
    const part = catalog[5]!.preferred_name.slice(0, 4).toUpperCase();
    await expectFilter({ nameLike: part }, (row) => row.preferred_name.toLowerCase().includes(part.toLowerCase()));
  });

  it('headquartersCountryCode, in either case', async () => {
    const country = mostCommon(catalog.map((r) => r.country_code));
    await expectFilter({ headquartersCountryCode: [country!.toLowerCase()] }, (row) => row.country_code === country);
  });

  it('headquartersStateName', async () => {
    const state = mostCommon(catalog.filter((r) => r.state_name).map((r) => r.state_name!));
    await expectFilter(
      { headquartersStateName: [state.toUpperCase()] },
      (row) => row.state_name?.toLowerCase() === state.toLowerCase(),
    );
  });

  it('headquartersLocation: free-form, contained in the location', async () => {
    const city = catalog[0]!.location_text!.split(',')[0]!;
    await expectFilter({ headquartersLocation: [city.toLowerCase()] }, (row) =>
      (row.location_text ?? '').toLowerCase().includes(city.toLowerCase()),
    );
  });

  it('employeeCountV2: the headcount range lies within the filter', async () => {
    await expectFilter(
      { employeeCountV2: { min: 11, max: 500 } },
      (row) =>
        row.employee_count_min !== null &&
        row.employee_count_min >= 11 &&
        row.employee_count_max !== null &&
        row.employee_count_max <= 500,
    );
    // Fractional bounds compare as numbers against the integer columns (the query rounds them inwards).
    await expectFilter(
      { employeeCountV2: { min: 10.5, max: 500.5 } },
      (row) =>
        row.employee_count_min !== null &&
        row.employee_count_min >= 10.5 &&
        row.employee_count_max !== null &&
        row.employee_count_max <= 500.5,
    );
  });

  it('totalFundingUSD and lastFundingUSD ranges', async () => {
    await expectFilter(
      { totalFundingUSD: { min: 5_000_000 } },
      (row) => row.total_funding_usd !== null && row.total_funding_usd >= 5_000_000,
    );
    await expectFilter(
      { lastFundingUSD: { min: 1_000_000, max: 20_000_000 } },
      (row) => row.last_funding_usd !== null && row.last_funding_usd >= 1_000_000 && row.last_funding_usd <= 20_000_000,
    );
  });

  it('foundedOn and lastFundedOn date ranges', async () => {
    await expectFilter(
      { foundedOn: { min: '2015-01-01', max: '2020-12-31' } },
      (row) => !!row.founded_on && row.founded_on >= '2015-01-01' && row.founded_on <= '2020-12-31',
    );
    await expectFilter(
      { lastFundedOn: { min: '2022-01-01' } },
      (row) => !!row.last_funded_on && row.last_funded_on >= '2022-01-01',
    );
  });

  it('stage, industriesV2, specialFlags: any of', async () => {
    await expectFilter({ stage: ['SEED', 'SERIES_A'] }, (row) => row.stage === 'SEED' || row.stage === 'SERIES_A');
    const industry = mostCommon(catalog.flatMap((r) => r.standard_industries));
    await expectFilter({ industriesV2: [industry] }, (row) => row.standard_industries.includes(industry));
    const flag = mostCommon(catalog.flatMap((r) => r.special_flags));
    await expectFilter({ specialFlags: [flag] }, (row) => row.special_flags.includes(flag));
  });

  it('domains (normalised), networkSlugs, tlds', async () => {
    const picked = [catalog[1]!, catalog[2]!, catalog[3]!];
    await expectFilter({ domains: [`https://www.${picked[0]!.domains[0]}/about`, picked[1]!.domains[0]] }, (row) =>
      row.domains.some((d) => d === picked[0]!.domains[0] || d === picked[1]!.domains[0]),
    );
    await expectFilter(
      { networkSlugs: [picked[2]!.network_primary_slug] },
      (row) => row.network_primary_slug === picked[2]!.network_primary_slug,
    );
    const tld = mostCommon(catalog.flatMap((r) => r.tlds).filter((t) => t !== '.com'));
    await expectFilter({ tlds: [tld] }, (row) => row.tlds.includes(tld));
  });

  it('combines filters with AND', async () => {
    const country = mostCommon(catalog.map((r) => r.country_code));
    await expectFilter(
      {
        headquartersCountryCode: [country],
        employeeCountV2: { min: 51 },
        stage: ['SEED', 'SERIES_A', 'SERIES_B', 'SERIES_C', 'LATE_STAGE'],
      },
      (row) =>
        row.country_code === country &&
        row.employee_count_min !== null &&
        row.employee_count_min >= 51 &&
        ['SEED', 'SERIES_A', 'SERIES_B', 'SERIES_C', 'LATE_STAGE'].includes(row.stage ?? ''),
    );
  });

  it('returns the record fields of the spec', async () => {
    const response = await app.request('POST', '/v1/company-search', {
      apiKey: app.apiKey,
      searchParams: {},
      pageSize: 3,
    });
    const record = response.body.output.data[0];
    const row = catalog[0]!;
    expect(record).toMatchObject({
      preferred_name: row.preferred_name,
      domains: row.domains,
      network_primary_slug: row.network_primary_slug,
      standard_industries: row.standard_industries,
      employee_count_consensus: { min: row.employee_count_min, max: row.employee_count_max },
      location_consensus: { country_code: row.country_code },
      total_funding_consensus: { usd: row.total_funding_usd },
      last_sort_key: String(row.id),
    });
    expect(response.body.chargeInfo).toEqual({ method: 'charged-now', creditsCharged: 3 });
  });
});

describe('company search exclusion lists', () => {
  it('removes the companies of the lists given, and refuses a list of the other kind or of another account', async () => {
    const country = mostCommon(catalog.map((r) => r.country_code));
    const inCountry = catalog.filter((r) => r.country_code === country);
    const excluded = inCountry.slice(0, 5);
    const created = await app.request('POST', '/v1/exclusion-lists', {
      apiKey: app.apiKey,
      name: 'customers',
      kind: 'companies',
      companies: [...excluded.map((r) => ({ domain: r.domains[0] })), { domain: 'no-such-company.example' }],
    });
    expect(created.status).toBe(200);
    expect(created.body.output).toMatchObject({ kind: 'companies', size: 5, unmatched: [5] });
    const listId = created.body.output.exclusionListId as string;

    const records: string[] = [];
    let cursor: string | null = null;
    do {
      const response = await app.request('POST', '/v1/company-search', {
        apiKey: app.apiKey,
        searchParams: { headquartersCountryCode: [country] },
        pageSize: 1000,
        cursor,
        companyExclusionListIDs: [listId],
      });
      expect(response.status).toBe(200);
      records.push(...response.body.output.data.map((r: { last_sort_key: string }) => r.last_sort_key));
      cursor = response.body.output.nextCursor;
    } while (cursor);
    expect(records).toEqual(inCountry.slice(5).map((r) => String(r.id)));

    const other = await app.createAccount({ credits: 100 });
    const foreign = await app.request('POST', '/v1/company-search', {
      apiKey: other.apiKey,
      searchParams: {},
      companyExclusionListIDs: [listId],
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');

    const prospects = await app.request('POST', '/v1/exclusion-lists', {
      apiKey: app.apiKey,
      name: 'p',
      kind: 'prospects',
      prospects: [],
    });
    const wrongKind = await app.request('POST', '/v1/company-search', {
      apiKey: app.apiKey,
      searchParams: {},
      companyExclusionListIDs: [prospects.body.output.exclusionListId],
    });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.error.details.issues[0].field).toBe('companyExclusionListIDs');
  });
});
