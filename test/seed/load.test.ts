import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompanyGenerator } from '../../src/seed/generate/companies.js';
import { createPeopleGenerator } from '../../src/seed/generate/people.js';
import { CatalogNotEmptyError, isCatalogEmpty, seedCatalog, type SeedResult } from '../../src/seed/load.js';
import { ensureSearchIndexes, readSearchIndexDefinitions } from '../../src/seed/search-indexes.js';
import { companiesTable } from '../../src/store/tables/companies.js';
import { peopleTable } from '../../src/store/tables/people.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { companyConditions } from '../../src/core/search/company-search.js';

const catalog = { companies: 400, people: 3_000, seed: 1234 };

describe('seedCatalog', () => {
  let test: TestDatabase;
  let result: SeedResult;
  const phases = new Set<string>();

  beforeAll(async () => {
    test = await createTestDatabase('empty');
    expect(await isCatalogEmpty(test.db)).toBe(true);
    // Rebuilding the indexes is what large loads do; forcing it here covers that path.
    result = await seedCatalog(test.db, {
      ...catalog,
      rebuildIndexes: true,
      onProgress: ({ table }) => phases.add(table),
    });
  });

  afterAll(async () => {
    await test?.drop();
  });

  it('loads the requested numbers of rows and reports them', async () => {
    const counts = await test.db.pool.query<{ companies: number; people: number; contacts: number }>(
      `SELECT (SELECT count(*) FROM companies)::int AS companies, (SELECT count(*) FROM people)::int AS people,
              (SELECT count(*) FROM person_contacts)::int AS contacts`,
    );
    expect(counts.rows[0]).toEqual({ companies: catalog.companies, people: catalog.people, contacts: result.contacts });
    expect(result.contacts).toBeGreaterThan(catalog.people);
    expect(result.milliseconds).toBeGreaterThan(0);
    expect([...phases]).toEqual(expect.arrayContaining(['companies', 'people', 'indexes', 'analyze']));
    expect(await isCatalogEmpty(test.db)).toBe(false);
  });

  it('stores exactly the generated rows', async () => {
    const companies = createCompanyGenerator(catalog.seed);
    const expected = companies.company(17);
    // Every column a load writes, as the table declares them.
    const stored = await test.db.pool.query(`SELECT ${companiesTable.columns.join(', ')} FROM companies WHERE id = 17`);
    expect(stored.rows[0]).toEqual(expected);

    const { person, contacts } = createPeopleGenerator(catalog.seed, catalog.companies, companies).person(2_222);
    const storedPerson = await test.db.pool.query(
      `SELECT ${peopleTable.columns.join(', ')} FROM people WHERE id = 2222`,
    );
    expect(storedPerson.rows[0]).toEqual(person);
    const storedContacts = await test.db.pool.query(
      `SELECT person_id, kind, value FROM person_contacts WHERE person_id = 2222 ORDER BY kind, value`,
    );
    expect(storedContacts.rows).toEqual(
      [...contacts].sort((a, b) => a.kind.localeCompare(b.kind) || a.value.localeCompare(b.value)),
    );
  });

  it('leaves every search index of the migration in place', async () => {
    const definitions = await readSearchIndexDefinitions();
    expect(definitions.length).toBeGreaterThanOrEqual(20);
    expect(definitions.map((d) => d.name)).toContain('people_title_words_trgm');
    const existing = await test.db.pool.query<{ indexname: string }>(
      `SELECT indexname FROM pg_indexes WHERE tablename IN ('companies', 'people', 'person_contacts')`,
    );
    const names = new Set(existing.rows.map((r) => r.indexname));
    for (const definition of definitions) expect(names.has(definition.name), definition.name).toBe(true);
    expect(await ensureSearchIndexes(test.db)).toEqual([]);
  });

  it("takes the indexes as the migrations leave them: a later migration's drop and create count", async () => {
    const names = (await readSearchIndexDefinitions()).map((d) => d.name);
    expect(names).toContain('companies_state_lower');
    expect(names).not.toContain('companies_state');
  });

  it('serves a state filter from an index, as the search writes it (lower(state_name))', async () => {
    const sql = await companyConditions(test.db.pool, 0, {
      searchParams: { headquartersStateName: ['California', 'texas'] },
    });
    const client = await test.db.pool.connect();
    try {
      // The catalog here is small enough that a full read would win: ask whether the index can serve the query at all.
      await client.query('SET enable_seqscan = off');
      const plan = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT c.id FROM companies c ${sql.where()}`,
        sql.params,
      );
      expect(plan.rows.map((row) => row['QUERY PLAN']).join('\n')).toContain('companies_state_lower');
    } finally {
      await client.query('RESET enable_seqscan');
      client.release();
    }
  });

  it('refuses a catalog that is not empty', async () => {
    await expect(seedCatalog(test.db, { companies: 1, people: 1, seed: 1 })).rejects.toBeInstanceOf(
      CatalogNotEmptyError,
    );
  });

  it('rejects bad sizes before touching the database', async () => {
    await expect(seedCatalog(test.db, { companies: -1, people: 0, seed: 1 })).rejects.toThrow(/companies/);
    await expect(seedCatalog(test.db, { companies: 0, people: 5, seed: 1 })).rejects.toThrow(/company/);
  });
});

describe('seedCatalog on a second database', () => {
  it('produces the same rows for the same seed', async () => {
    const a = await createTestDatabase('empty');
    const b = await createTestDatabase('empty');
    try {
      await seedCatalog(a.db, { companies: 50, people: 300, seed: 99 });
      await seedCatalog(b.db, { companies: 50, people: 300, seed: 99 });
      const dump = async (t: TestDatabase) =>
        (
          await t.db.pool.query<{ digest: string }>(
            `SELECT md5(string_agg(c::text, '|' ORDER BY c.id)) AS digest
               FROM (SELECT id, preferred_name, description, domains, network_org_id FROM companies) c
             UNION ALL
             SELECT md5(string_agg(p::text, '|' ORDER BY p.id))
               FROM (SELECT id, first_name, last_name, company_id, education, work_experiences FROM people) p`,
          )
        ).rows.map((r) => r.digest);
      expect(await dump(a)).toEqual(await dump(b));
    } finally {
      await a.drop();
      await b.drop();
    }
  });
});
