import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CurrentCompany } from '../../operations/schemas/filters.js';
import { resolveCompanies } from '../../src/core/company-resolution.js';
import { normaliseDomain, slugFromUrlOrSlug } from '../../src/core/network-urls.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

interface CatalogCompany {
  id: number;
  domains: string[];
  network_primary_slug: string | null;
  preferred_name: string;
  network_org_id: string | null;
}

/**
 * resolveCompanies matches references of the same keys in one join over unnest. The oracle is the
 * plain reading of the rule, one statement per reference: a company matches when every key given
 * matches it. References mix keys of one company, of two companies (which match nothing), keys
 * written as users write them (upper case, URLs, www.), and keys no company has.
 */
describe('resolveCompanies', () => {
  let database: TestDatabase;
  let catalog: CatalogCompany[];
  beforeAll(async () => {
    database = await createTestDatabase('seeded');
    catalog = (
      await database.db.pool.query<CatalogCompany>(
        `SELECT id, domains, network_primary_slug, preferred_name, network_org_id::text FROM companies
        WHERE cardinality(domains) > 0 AND network_primary_slug IS NOT NULL AND network_org_id IS NOT NULL ORDER BY id LIMIT 200`,
      )
    ).rows;
  });
  afterAll(async () => {
    await database?.drop();
  });

  async function oracle(reference: CurrentCompany): Promise<number[]> {
    const conditions: string[] = [];
    const params: unknown[] = [];
    const bind = (value: unknown) => `$${params.push(value)}`;
    if (reference.domain) conditions.push(`${bind(normaliseDomain(reference.domain))} = ANY(domains)`);
    if (reference.networkSlugOrURL)
      conditions.push(`network_primary_slug = ${bind(slugFromUrlOrSlug(reference.networkSlugOrURL, 'company'))}`);
    if (reference.name) conditions.push(`lower(preferred_name) = lower(${bind(reference.name)})`);
    if (reference.networkOrgID) conditions.push(`network_org_id::text = ${bind(reference.networkOrgID)}`);
    const result = await database.db.pool.query<{ id: number }>(
      `SELECT id FROM companies WHERE ${conditions.join(' AND ')} ORDER BY id`,
      params,
    );
    return result.rows.map((row) => row.id);
  }

  const reference = (companies: CatalogCompany[]) => {
    const company = fc.constantFrom(...companies);
    const key = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: undefined, freq: 2 });
    return fc
      .record({
        domain: key(
          fc.oneof(
            { arbitrary: company.map((c) => c.domains[0]!), weight: 3 },
            { arbitrary: company.map((c) => `https://www.${c.domains[0]!.toUpperCase()}/about`), weight: 3 },
            { arbitrary: fc.constant('no-such-company.example'), weight: 1 },
          ),
        ),
        networkSlugOrURL: key(
          fc.oneof(
            { arbitrary: company.map((c) => c.network_primary_slug!), weight: 3 },
            {
              arbitrary: company.map((c) => `https://www.network.example.com/company/${c.network_primary_slug!}/`),
              weight: 3,
            },
            { arbitrary: fc.constant('no-such-slug'), weight: 1 },
          ),
        ),
        name: key(
          fc.oneof(
            { arbitrary: company.map((c) => c.preferred_name), weight: 3 },
            { arbitrary: company.map((c) => c.preferred_name.toUpperCase()), weight: 3 },
            { arbitrary: fc.constant('No Such Company'), weight: 1 },
          ),
        ),
        networkOrgID: key(
          fc.oneof(
            { arbitrary: company.map((c) => c.network_org_id!), weight: 6 },
            { arbitrary: fc.constantFrom('99999999999999999999', '0'), weight: 1 },
          ),
        ),
      })
      .filter((r) => Object.values(r).some((v) => v !== undefined))
      .map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as CurrentCompany);
  };

  it('matches each reference exactly as one statement per reference does (fast-check, 100 lists)', async () => {
    // Most references name one company with one or two of its keys, so that matches are common.
    const sameCompany = fc.constantFrom(...catalog).chain((c) => reference([c]));
    const lists = fc.sample(
      fc.array(fc.oneof(sameCompany, sameCompany, reference(catalog)), { minLength: 1, maxLength: 30 }),
      { numRuns: 100, seed: 2611 },
    );
    let matched = 0;
    let unmatched = 0;
    for (const references of lists) {
      const resolved = await resolveCompanies(database.db.pool, references);
      const expected = await Promise.all(references.map(oracle));
      expect(resolved.map((ids) => [...ids].sort((a, b) => a - b))).toEqual(expected);
      matched += expected.filter((ids) => ids.length > 0).length;
      unmatched += expected.filter((ids) => ids.length === 0).length;
    }
    // Both outcomes occur often enough for the comparison to mean something.
    expect(matched).toBeGreaterThan(200);
    expect(unmatched).toBeGreaterThan(150);
  });

  it('answers an empty list and a list of references that can match nothing without a query error', async () => {
    expect(await resolveCompanies(database.db.pool, [])).toEqual([]);
    expect(
      await resolveCompanies(database.db.pool, [
        { networkSlugOrURL: 'https://www.network.example.com/in/a-person/' },
        { networkOrgID: '99999999999999999999' },
      ]),
    ).toEqual([[], []]);
  });
});
