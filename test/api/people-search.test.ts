import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { titleMatches } from '../../src/core/titles/normalise.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

interface PersonRow {
  id: number;
  title: string;
  country3: string | null;
  years_experience: number | null;
  tags: string[];
  degree_types: string[];
  schools: string[];
  company_id: number | null;
  network_slug: string;
  first_name: string;
  last_name: string;
}
interface CompanyRow {
  id: number;
  preferred_name: string;
  domains: string[];
  network_primary_slug: string;
  network_org_id: number;
}

let app: TestApp;
let people: PersonRow[];
let companies: Map<number, CompanyRow>;

beforeAll(async () => {
  // One key runs every filter here within a minute; the search rate limit has its own test (errors.test.ts).
  app = await startTestApp({ env: { RATE_LIMIT_SEARCH_PER_MINUTE: '10000' } });
  people = (
    await app.db.pool.query<PersonRow>(
      'SELECT id, title, country3, years_experience, tags, degree_types, schools, company_id, network_slug, first_name, last_name FROM people ORDER BY id',
    )
  ).rows;
  companies = new Map(
    (
      await app.db.pool.query<CompanyRow>(
        'SELECT id, preferred_name, domains, network_primary_slug, network_org_id FROM companies',
      )
    ).rows.map((c) => [c.id, c]),
  );
});
afterAll(async () => app?.stop());

async function searchAll(body: Record<string, unknown>, pageSize = 1000): Promise<Array<Record<string, any>>> {
  const records: Array<Record<string, any>> = [];
  let cursor: string | null = null;
  for (let page = 0; page < 200; page++) {
    const response = await app.request('POST', '/v1/people-search', { apiKey: app.apiKey, pageSize, cursor, ...body });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    records.push(...response.body.output.data);
    cursor = response.body.output.nextCursor;
    if (cursor === null) return records;
  }
  throw new Error('paging did not end');
}

async function expectPeople(body: Record<string, unknown>, predicate: (row: PersonRow) => boolean): Promise<void> {
  const expected = people.filter(predicate).map((row) => String(row.id));
  expect(expected.length, `${JSON.stringify(body)} selects someone`).toBeGreaterThan(0);
  expect(expected.length, `${JSON.stringify(body)} leaves someone out`).toBeLessThan(people.length);
  const returned = (await searchAll(body)).map((record) => record.last_sort_key as string);
  expect(returned).toEqual(expected);
}

function mostCommon<T>(values: T[], rank = 0): T {
  const counts = new Map<T, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[rank]![0];
}

const has = (text: string, part: string) => text.toLowerCase().includes(part.toLowerCase());

describe('people search filters', () => {
  it('jobTitleV2: included titles OR-matched as words, excluded always suppressed', async () => {
    await expectPeople(
      { searchParams: { jobTitleV2: { included: ['engineer', 'SALES'], excluded: ['senior'] } } },
      (row) =>
        (titleMatches('engineer', row.title) || titleMatches('sales', row.title)) && !titleMatches('senior', row.title),
    );
    await expectPeople(
      { searchParams: { jobTitleV2: { included: [], excluded: ['manager'] } } },
      (row) => !titleMatches('manager', row.title),
    );
  });

  it('country3LetterCode', async () => {
    const country = mostCommon(people.map((p) => p.country3));
    await expectPeople(
      { searchParams: { country3LetterCode: [country!.toLowerCase()] } },
      (row) => row.country3 === country,
    );
  });

  it('yearsOfExperience range', async () => {
    await expectPeople(
      { searchParams: { yearsOfExperience: { min: 5, max: 12 } } },
      (row) => row.years_experience !== null && row.years_experience >= 5 && row.years_experience <= 12,
    );
    await expectPeople(
      { searchParams: { yearsOfExperience: { min: 4.5, max: 12.5 } } },
      (row) => row.years_experience !== null && row.years_experience >= 4.5 && row.years_experience <= 12.5,
    );
  });

  it('tags: anyOf, allOf, noneOf', async () => {
    const [first, second] = [
      mostCommon(people.flatMap((p) => p.tags)),
      mostCommon(
        people.flatMap((p) => p.tags),
        1,
      ),
    ];
    await expectPeople(
      { searchParams: { tags: { anyOf: [first, second] } } },
      (row) => row.tags.includes(first) || row.tags.includes(second),
    );
    await expectPeople(
      { searchParams: { tags: { allOf: [first, second] } } },
      (row) => row.tags.includes(first) && row.tags.includes(second),
    );
    await expectPeople({ searchParams: { tags: { noneOf: [first] } } }, (row) => !row.tags.includes(first));
  });

  it('education: degree types and schools', async () => {
    await expectPeople({ searchParams: { education: { degreeTypes: ['MBA', 'PHD'] } } }, (row) =>
      row.degree_types.some((d) => d === 'MBA' || d === 'PHD'),
    );
    const school = mostCommon(people.flatMap((p) => p.schools));
    const part = school.split(' ').slice(0, 2).join(' ');
    await expectPeople({ searchParams: { education: { schools: [part] } } }, (row) =>
      row.schools.some((s) => has(s, part)),
    );
  });

  it('currentCompanies by domain, slug, full URL, name and numeric org ID', async () => {
    const [a, b, c, d, e] = [...new Set(people.map((p) => p.company_id).filter((id): id is number => id !== null))]
      .slice(0, 5)
      .map((id) => companies.get(id)!);
    await expectPeople(
      {
        searchParams: {},
        currentCompanies: [
          { domain: a!.domains[0] },
          { networkSlugOrURL: b!.network_primary_slug },
          { networkSlugOrURL: `https://www.network.example.com/company/${c!.network_primary_slug}/about/` },
          { name: d!.preferred_name.toUpperCase() },
          { networkOrgID: String(e!.network_org_id) },
        ],
      },
      (row) =>
        [a, b, c].some((company) => company!.id === row.company_id) ||
        companies.get(row.company_id ?? -1)?.preferred_name.toLowerCase() === d!.preferred_name.toLowerCase() ||
        row.company_id === e!.id,
    );
  });

  it('currentCompanies whose keys disagree match nothing, and nothing is charged', async () => {
    const [a, b] = [...companies.values()];
    const response = await app.request('POST', '/v1/people-search', {
      apiKey: app.apiKey,
      searchParams: {},
      currentCompanies: [{ domain: a!.domains[0], name: b!.preferred_name + ' nope' }],
    });
    expect(response.status).toBe(200);
    expect(response.body.output).toEqual({ data: [], nextCursor: null });
    expect(response.body.chargeInfo.creditsCharged).toBe(0);
  });

  it('prospect and company exclusion lists', async () => {
    const country = mostCommon(people.map((p) => p.country3));
    const inCountry = people.filter((p) => p.country3 === country);
    const excludedPeople = inCountry.slice(0, 3);
    const excludedCompanyId = inCountry[10]!.company_id!;
    const prospects = await app.request('POST', '/v1/exclusion-lists', {
      apiKey: app.apiKey,
      name: 'contacted',
      kind: 'prospects',
      prospects: excludedPeople.map((p, i) =>
        i === 0 ? `https://network.example.com/in/${p.network_slug}/` : p.network_slug,
      ),
    });
    expect(prospects.body.output.size).toBe(3);
    const companyList = await app.request('POST', '/v1/exclusion-lists', {
      apiKey: app.apiKey,
      name: 'customers',
      kind: 'companies',
      companies: [{ networkOrgID: String(companies.get(excludedCompanyId)!.network_org_id) }],
    });
    expect(companyList.body.output.size).toBe(1);
    const excludedIds = new Set(excludedPeople.map((p) => p.id));
    await expectPeople(
      {
        searchParams: { country3LetterCode: [country] },
        prospectExclusionListIDs: [prospects.body.output.exclusionListId],
        companyExclusionListIDs: [companyList.body.output.exclusionListId],
      },
      (row) => row.country3 === country && !excludedIds.has(row.id) && row.company_id !== excludedCompanyId,
    );
  });

  it('fills detailed education and work history only when asked', async () => {
    const plain = await app.request('POST', '/v1/people-search', { apiKey: app.apiKey, searchParams: {}, pageSize: 5 });
    for (const record of plain.body.output.data) {
      expect(record.detailed_education).toBeNull();
      expect(record.detailed_work_experiences).toBeNull();
      expect(record).toMatchObject({
        first_name: expect.any(String),
        title: expect.any(String),
        location: expect.any(Object),
        current_company: expect.any(Object),
      });
      expect(Array.isArray(record.languages)).toBe(true);
    }
    const detailed = await app.request('POST', '/v1/people-search', {
      apiKey: app.apiKey,
      searchParams: { getDetailedEducation: true, getDetailedWorkExperience: true },
      pageSize: 5,
    });
    const withHistory = detailed.body.output.data.filter((r: any) => r.detailed_work_experiences.positions.length > 0);
    expect(withHistory.length).toBeGreaterThan(0);
    for (const record of detailed.body.output.data) {
      expect(Array.isArray(record.detailed_education.degrees)).toBe(true);
      expect(Array.isArray(record.detailed_work_experiences.positions)).toBe(true);
    }
    // The detail switches do not change which records match: a cursor stays valid when they change.
    const next = await app.request('POST', '/v1/people-search', {
      apiKey: app.apiKey,
      searchParams: {},
      pageSize: 5,
      cursor: detailed.body.output.nextCursor,
    });
    expect(next.status).toBe(200);
    expect(next.body.output.data[0].last_sort_key).toBe(String(people[5]!.id));
  });
});
