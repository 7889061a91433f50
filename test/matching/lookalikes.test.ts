import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sizeBandOf } from '../../reference/company-sizes.js';
import { industryBySlug } from '../../reference/industries.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * findSimilarCompanies and findSimilarPeople over HTTP on the seeded demo catalog: the quality the
 * issue asks (the top 25 share the seeds' industry group and size band), ranked paging, the company
 * and people filters and exclusion lists, seeds never returned, unresolved seeds, charges equal to
 * the records returned, and bad input refused by field.
 */

interface Company {
  id: number;
  domains: string[];
  network_primary_slug: string | null;
  standard_industries: string[];
  employee_count_min: number | null;
  country_code: string | null;
}

interface Person {
  id: number;
  network_slug: string;
  company_id: number | null;
  job_function: string;
  country3: string | null;
}

interface SimilarCompany {
  last_sort_key: string;
  standard_industries: string[];
  employee_count_consensus: { min: number | null };
  location_consensus: { country_code: string | null };
  similarity: number;
  sharedTraits: string[];
}

interface SimilarPerson {
  last_sort_key: string;
  network_slug: string;
  job_function: string;
  current_company: { domain: string | null };
  similarity: number;
  sharedTraits: string[];
}

const groupOf = (slug: string) => industryBySlug(slug)?.group ?? slug;
const groupsOf = (industries: readonly string[]) => new Set(industries.map(groupOf));

let app: TestApp;
let companies: Company[];
let people: Person[];
const byId = new Map<number, Company>();

beforeAll(async () => {
  app = await startTestApp();
  companies = (
    await app.db.pool.query<Company>(
      `SELECT id, domains, network_primary_slug, standard_industries, employee_count_min, country_code
         FROM companies WHERE cardinality(domains) > 0 ORDER BY id`,
    )
  ).rows;
  for (const company of companies) byId.set(company.id, company);
  people = (
    await app.db.pool.query<Person>(
      `SELECT id, network_slug, company_id, job_function, country3
         FROM people WHERE network_slug IS NOT NULL AND company_id IS NOT NULL ORDER BY id`,
    )
  ).rows;
});
afterAll(async () => app?.stop());

const balance = async (apiKey = app.apiKey): Promise<number> =>
  (await app.request('GET', `/v1/credits?apiKey=${apiKey}`)).body.output.balance;

const similarCompanies = (body: Record<string, unknown>, apiKey = app.apiKey) =>
  app.request('POST', '/v1/companies/similar', { apiKey, ...body });
const similarPeople = (body: Record<string, unknown>, apiKey = app.apiKey) =>
  app.request('POST', '/v1/people/similar', { apiKey, ...body });

/** Seed sets of three companies sharing an industry and a size band, from the most common such pairs. */
function seedSets(count: number): Company[][] {
  const pairs = new Map<string, Company[]>();
  for (const company of companies) {
    const industry = company.standard_industries[0];
    const band = sizeBandOf(company.employee_count_min);
    if (!industry || band === null) continue;
    const key = `${industry}/${band}`;
    pairs.set(key, [...(pairs.get(key) ?? []), company]);
  }
  return [...pairs.values()]
    .filter((members) => members.length >= 3)
    .sort((a, b) => b.length - a.length)
    .filter((_, i) => i % 3 === 0)
    .slice(0, count)
    .map((members) => members.slice(0, 3));
}

async function allPages(
  call: (body: Record<string, unknown>) => ReturnType<typeof similarCompanies>,
  body: Record<string, unknown>,
) {
  const records: any[] = [];
  let cursor: string | null = null;
  do {
    const response = await call({ ...body, cursor });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    records.push(...response.body.output.data);
    cursor = response.body.output.nextCursor;
  } while (cursor);
  return records;
}

describe('findSimilarCompanies', () => {
  it("ranks companies of the seeds' industry group and size band first (≥ 90 % of the top 25)", async () => {
    const sets = seedSets(8);
    expect(sets.length).toBeGreaterThanOrEqual(5);
    for (const seeds of sets) {
      const groups = new Set(seeds.flatMap((s) => [...groupsOf(s.standard_industries)]));
      const bands = new Set(seeds.map((s) => sizeBandOf(s.employee_count_min)));
      const response = await similarCompanies({ seeds: seeds.map((s) => ({ domain: s.domains[0] })), pageSize: 25 });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const data = response.body.output.data as SimilarCompany[];
      expect(data.length).toBeGreaterThanOrEqual(10);
      const alike = data.filter(
        (r) =>
          r.standard_industries.some((i) => groups.has(groupOf(i))) &&
          bands.has(sizeBandOf(r.employee_count_consensus.min)),
      );
      expect(alike.length / data.length, JSON.stringify(seeds.map((s) => s.id))).toBeGreaterThanOrEqual(0.9);
      // The same industry outranks the same group only: the first results share the seeds' industry.
      const industries = new Set(seeds.flatMap((s) => s.standard_industries));
      expect(data[0]?.standard_industries.some((i) => industries.has(i))).toBe(true);
      expect(data[0]?.sharedTraits).toEqual(expect.arrayContaining(['industry', 'sizeBand']));
      for (const [i, record] of data.entries()) {
        expect(record.similarity).toBeGreaterThan(0);
        expect(record.similarity).toBeLessThanOrEqual(1);
        if (i > 0) expect(record.similarity).toBeLessThanOrEqual(data[i - 1]?.similarity as number);
      }
    }
  });

  it('pages in ranked order without repeats and never returns a seed', async () => {
    const seeds = seedSets(1)[0] as Company[];
    const body = {
      seeds: [{ domain: seeds[0]?.domains[0] }, { slug: seeds[1]?.network_primary_slug }, { id: String(seeds[2]?.id) }],
    };
    const whole = await similarCompanies({ ...body, pageSize: 1000 });
    expect(whole.status).toBe(200);
    const paged = await allPages(similarCompanies, { ...body, pageSize: 7 });
    const keys = paged.map((r: SimilarCompany) => r.last_sort_key);
    expect(keys).toEqual(whole.body.output.data.map((r: SimilarCompany) => r.last_sort_key));
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBeGreaterThan(7);
    for (const seed of seeds) expect(keys).not.toContain(String(seed.id));

    const firstPage = await similarCompanies({ ...body, pageSize: 7 });
    const otherSeeds = await similarCompanies({
      seeds: [{ id: String(seeds[0]?.id) }],
      pageSize: 7,
      cursor: firstPage.body.output.nextCursor,
    });
    expect(otherSeeds.status).toBe(400);
    expect(otherSeeds.body.error.code).toBe('cursor_mismatch');
  });

  it("applies company search's filters and exclusion lists, and refuses another account's list", async () => {
    const seeds = seedSets(1)[0] as Company[];
    const body = { seeds: seeds.map((s) => ({ domain: s.domains[0] })), pageSize: 1000 };
    const unfiltered = (await similarCompanies(body)).body.output.data as SimilarCompany[];
    const country = unfiltered[0]?.location_consensus.country_code as string;
    const inCountry = await similarCompanies({ ...body, searchParams: { headquartersCountryCode: [country] } });
    expect(inCountry.status).toBe(200);
    const filtered = inCountry.body.output.data as SimilarCompany[];
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.length).toBeLessThan(unfiltered.length);
    expect(filtered.every((r) => r.location_consensus.country_code === country)).toBe(true);

    const excluded = unfiltered.slice(0, 3).map((r) => byId.get(Number(r.last_sort_key)) as Company);
    const list = await app.request('POST', '/v1/exclusion-lists', {
      apiKey: app.apiKey,
      name: 'customers',
      kind: 'companies',
      companies: excluded.map((c) => ({ domain: c.domains[0] })),
    });
    expect(list.status).toBe(200);
    const listId = list.body.output.exclusionListId as string;
    const withList = await similarCompanies({ ...body, companyExclusionListIDs: [listId] });
    expect(withList.status).toBe(200);
    expect(withList.body.output.data.map((r: SimilarCompany) => r.last_sort_key)).toEqual(
      unfiltered.slice(3).map((r) => r.last_sort_key),
    );

    const other = await app.createAccount({ credits: 100 });
    const foreign = await similarCompanies({ ...body, companyExclusionListIDs: [listId] }, other.apiKey);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    expect(await balance(other.apiKey)).toBe(100);
  });

  it('reports seeds that name no company, and refuses when none does, naming seeds', async () => {
    const seed = companies[10] as Company;
    const before = await balance();
    const mixed = await similarCompanies({
      seeds: [{ domain: seed.domains[0] }, { domain: 'no-such-company.example' }, { id: '999999999' }],
      pageSize: 5,
    });
    expect(mixed.status, JSON.stringify(mixed.body)).toBe(200);
    expect(mixed.body.output.unresolvedSeeds).toEqual([
      { index: 1, reason: expect.stringContaining('no-such-company.example') },
      { index: 2, reason: expect.stringContaining('999999999') },
    ]);
    const returned = mixed.body.output.data.length;
    expect(returned).toBeGreaterThan(0);
    expect(mixed.body.chargeInfo.creditsCharged).toBe(returned);
    expect(await balance()).toBe(before - returned);

    const none = await similarCompanies({ seeds: [{ domain: 'no-such-company.example' }, { slug: 'nobody-at-all' }] });
    expect(none.status).toBe(400);
    expect(none.body.error.code).toBe('invalid_request');
    expect(none.body.error.message).toContain('seeds');
    expect(none.body.error.details.issues.map((i: { field: string }) => i.field)).toEqual(['seeds.0', 'seeds.1']);
    expect(await balance()).toBe(before - returned);
  });

  it('refuses bad input with a 400 naming the field, and charges nothing', async () => {
    const before = await balance();
    const cases: Array<[unknown, string]> = [
      [[], 'seeds'],
      [Array.from({ length: 101 }, () => ({ domain: 'a.com' })), 'seeds'],
      [[{ domain: 'a.com' }, { domain: 'b.com', slug: 'b' }], 'seeds.1'],
      [[{ domain: 'a.com' }, {}], 'seeds.1'],
      [[{ domain: 'a.com' }, { domain: 'b.com' }, { domain: 'c.com' }, { domain: 7 }], 'seeds.3.domain'],
      [[{ id: 'acme' }], 'seeds.0.id'],
      [[{ name: 'Acme' }], 'seeds.0.name'],
    ];
    for (const [seeds, field] of cases) {
      const response = await similarCompanies({ seeds });
      expect(response.status, JSON.stringify(seeds)).toBe(400);
      expect(response.body.error.details.issues[0].field, JSON.stringify(response.body)).toBe(field);
    }
    const badFilter = await similarCompanies({ seeds: [{ domain: 'a.com' }], searchParams: { stage: [] } });
    expect(badFilter.status).toBe(400);
    expect(badFilter.body.error.details.issues[0].field).toBe('searchParams.stage');
    expect(await balance()).toBe(before);
  });
});

describe('findSimilarPeople', () => {
  /** Three people of one job function at companies of one industry and size band. */
  function personSeeds(): Person[] {
    const pairs = new Map<string, Person[]>();
    for (const person of people) {
      const company = byId.get(person.company_id as number);
      const band = sizeBandOf(company?.employee_count_min ?? null);
      const industry = company?.standard_industries[0];
      if (!industry || band === null || person.job_function === 'other') continue;
      const key = `${person.job_function}/${industry}/${band}`;
      pairs.set(key, [...(pairs.get(key) ?? []), person]);
    }
    const distinctCompanies = (members: Person[]) =>
      members.filter((p, i, all) => all.findIndex((q) => q.company_id === p.company_id) === i);
    const best = [...pairs.values()].map(distinctCompanies).sort((a, b) => b.length - a.length)[0] as Person[];
    return best.slice(0, 3);
  }

  it("ranks people of the seeds' function at companies like theirs, pages, and never returns a seed", async () => {
    const seeds = personSeeds();
    expect(seeds.length).toBe(3);
    const seedCompanies = seeds.map((s) => byId.get(s.company_id as number) as Company);
    const groups = new Set(seedCompanies.flatMap((c) => [...groupsOf(c.standard_industries)]));
    const bands = new Set(seedCompanies.map((c) => sizeBandOf(c.employee_count_min)));
    const body = {
      seeds: [
        { profileUrl: `https://network.example.com/in/${seeds[0]?.network_slug}` },
        { slug: seeds[1]?.network_slug },
        { id: String(seeds[2]?.id) },
      ],
    };
    const before = await balance();
    const top = await similarPeople({ ...body, pageSize: 25 });
    expect(top.status, JSON.stringify(top.body)).toBe(200);
    const data = top.body.output.data as SimilarPerson[];
    expect(data.length).toBe(25);
    expect(top.body.chargeInfo.creditsCharged).toBe(25);
    expect(await balance()).toBe(before - 25);
    const catalogPeople = new Map(people.map((p) => [String(p.id), p]));
    const alike = data.filter((r) => {
      const company = byId.get(catalogPeople.get(r.last_sort_key)?.company_id as number);
      return (
        r.job_function === seeds[0]?.job_function &&
        company !== undefined &&
        company.standard_industries.some((i) => groups.has(groupOf(i))) &&
        bands.has(sizeBandOf(company.employee_count_min))
      );
    });
    expect(alike.length / data.length).toBeGreaterThanOrEqual(0.9);
    expect(data[0]?.sharedTraits).toEqual(expect.arrayContaining(['jobFunction', 'sizeBand']));
    for (const [i, record] of data.entries())
      if (i > 0) expect(record.similarity).toBeLessThanOrEqual(data[i - 1]?.similarity as number);

    const paged = await allPages(similarPeople, { ...body, pageSize: 9 });
    const keys = paged.map((r: SimilarPerson) => r.last_sort_key);
    expect(keys.slice(0, 25)).toEqual(data.map((r) => r.last_sort_key));
    expect(new Set(keys).size).toBe(keys.length);
    for (const seed of seeds) expect(keys).not.toContain(String(seed.id));
  });

  it("restricts to currentCompanies, leaves out the seeds' companies when asked, and applies exclusion lists", async () => {
    // Seeds with colleagues of their own function, so that their companies have people like them.
    const colleagues = new Map<string, Person[]>();
    for (const person of people) {
      if (person.job_function === 'other') continue;
      const key = `${person.company_id}/${person.job_function}`;
      colleagues.set(key, [...(colleagues.get(key) ?? []), person]);
    }
    const teams = [...colleagues.values()].filter((team) => team.length >= 3);
    const fn = teams[0]?.[0]?.job_function;
    const seeds = teams
      .filter((team) => team[0]?.job_function === fn)
      .slice(0, 2)
      .map((team) => team[0] as Person);
    expect(seeds.length).toBe(2);
    const seedCompanies = seeds.map((s) => byId.get(s.company_id as number) as Company);
    const body = { seeds: seeds.map((s) => ({ slug: s.network_slug })), pageSize: 1000 };

    const others = companies.filter((c) => !seedCompanies.includes(c)).slice(0, 40);
    const at = await similarPeople({ ...body, currentCompanies: others.map((c) => ({ domain: c.domains[0] })) });
    expect(at.status, JSON.stringify(at.body)).toBe(200);
    const domains = new Set(others.map((c) => c.domains[0]));
    expect(at.body.output.data.length).toBeGreaterThan(0);
    expect(at.body.output.data.every((r: SimilarPerson) => domains.has(r.current_company.domain as string))).toBe(true);

    const all = (await similarPeople(body)).body.output.data as SimilarPerson[];
    const seedDomains = new Set(seedCompanies.map((c) => c.domains[0]));
    expect(all.some((r) => seedDomains.has(r.current_company.domain as string))).toBe(true);
    const without = await similarPeople({ ...body, excludeSeedCompanies: true });
    expect(without.status).toBe(200);
    const rest = without.body.output.data as SimilarPerson[];
    expect(rest.some((r) => seedDomains.has(r.current_company.domain as string))).toBe(false);
    expect(rest.map((r) => r.last_sort_key)).toEqual(
      all.filter((r) => !seedDomains.has(r.current_company.domain as string)).map((r) => r.last_sort_key),
    );

    const list = await app.request('POST', '/v1/exclusion-lists', {
      apiKey: app.apiKey,
      name: 'contacted',
      kind: 'prospects',
      prospects: all.slice(0, 2).map((r) => r.network_slug),
    });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    const listId = list.body.output.exclusionListId as string;
    const withList = await similarPeople({ ...body, prospectExclusionListIDs: [listId] });
    // A page of 1000 holds two more of the ranking once the first two are excluded.
    expect(withList.body.output.data.slice(0, 998).map((r: SimilarPerson) => r.last_sort_key)).toEqual(
      all.slice(2).map((r) => r.last_sort_key),
    );
    const other = await app.createAccount({ credits: 100 });
    const foreign = await similarPeople({ ...body, prospectExclusionListIDs: [listId] }, other.apiKey);
    expect(foreign.status).toBe(404);
  });

  it('reports unresolved seeds, refuses when none resolves, and refuses bad input by field, charging nothing', async () => {
    const seed = people[5] as Person;
    const mixed = await similarPeople({ seeds: [{ slug: 'no-such-person-here' }, { slug: seed.network_slug }] });
    expect(mixed.status).toBe(200);
    expect(mixed.body.output.unresolvedSeeds).toEqual([
      { index: 0, reason: expect.stringContaining('no-such-person') },
    ]);
    const before = await balance();
    const none = await similarPeople({ seeds: [{ profileUrl: 'https://network.example.com/company/acme' }] });
    expect(none.status).toBe(400);
    expect(none.body.error.details.issues[0].field).toBe('seeds.0');
    for (const [seeds, field] of [
      [[], 'seeds'],
      [[{ slug: 'a' }, { slug: 'b', id: '1' }], 'seeds.1'],
      [[{ slug: 'a' }, { slug: 'b' }, { profileUrl: '' }], 'seeds.2.profileUrl'],
    ] as Array<[unknown, string]>) {
      const response = await similarPeople({ seeds });
      expect(response.status).toBe(400);
      expect(response.body.error.details.issues[0].field).toBe(field);
    }
    expect(await balance()).toBe(before);
  });
});
