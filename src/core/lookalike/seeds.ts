import { AppError } from '../../errors.js';
import type { Queryable } from '../../store/db.js';
import { normaliseDomain, slugFromUrlOrSlug } from '../network-urls.js';

/** A seed that names no record: reported in the answer, never fatal while another seed resolves. */
export interface UnresolvedSeed {
  index: number;
  reason: string;
}

export interface CompanySeed {
  domain?: string | undefined;
  slug?: string | undefined;
  id?: string | undefined;
}

export interface PersonSeed {
  profileUrl?: string | undefined;
  slug?: string | undefined;
  id?: string | undefined;
}

const maxBigint = 2n ** 63n - 1n;

/** A catalog id as given (decimal digits), or null past bigint's range, where no record has it. */
function catalogId(value: string): string | null {
  return BigInt(value) > maxBigint ? null : value;
}

interface Lookup {
  index: number;
  /** Which key it is looked up by: a name of the table's `keys`. */
  key: string;
  value: string;
}

/** How a key finds its records: the SQL type of its values and the condition on `t`, through that key's index. */
type Keys = Record<string, { type: 'bigint' | 'text'; match: string }>;

/**
 * Resolves seeds to catalog ids in one statement, each seed by the key it gives (an id, a domain,
 * a slug) through that key's index: one branch a key, over `unnest` of its values. A key that
 * names several records takes the first.
 */
async function resolve(
  db: Queryable,
  table: 'companies' | 'people',
  keys: Keys,
  lookups: readonly Lookup[],
): Promise<Map<number, number>> {
  const byIndex = new Map<number, number>();
  const params: unknown[] = [];
  const branches: string[] = [];
  for (const [key, { type, match }] of Object.entries(keys)) {
    const mine = lookups.filter((l) => l.key === key);
    if (!mine.length) continue;
    params.push(
      mine.map((l) => l.index),
      mine.map((l) => l.value),
    );
    branches.push(
      `SELECT s.seed, min(t.id) AS id FROM unnest($${params.length - 1}::int[], $${params.length}::${type}[]) AS s(seed, value)
         JOIN ${table} t ON ${match} GROUP BY s.seed`,
    );
  }
  if (!branches.length) return byIndex;
  const result = await db.query<{ seed: number; id: number }>(branches.join('\nUNION ALL\n'), params);
  for (const row of result.rows) byIndex.set(row.seed, Number(row.id));
  return byIndex;
}

const companyKeys: Keys = {
  id: { type: 'bigint', match: 't.id = s.value' },
  domain: { type: 'text', match: 't.domains @> ARRAY[s.value]' },
  slug: { type: 'text', match: 't.network_primary_slug = s.value' },
};

const personKeys: Keys = {
  id: { type: 'bigint', match: 't.id = s.value' },
  slug: { type: 'text', match: 't.network_slug = s.value' },
};

export interface ResolvedSeeds {
  /** Distinct catalog ids of the seeds that resolved, in the order of the seeds. */
  ids: number[];
  unresolved: UnresolvedSeed[];
}

function gather(
  seeds: readonly unknown[],
  lookups: readonly Lookup[],
  refused: readonly UnresolvedSeed[],
  found: Map<number, number>,
  noMatch: (index: number) => string,
): ResolvedSeeds {
  const unresolved = [...refused];
  const ids: number[] = [];
  for (const lookup of lookups) {
    const id = found.get(lookup.index);
    if (id === undefined) unresolved.push({ index: lookup.index, reason: noMatch(lookup.index) });
    else if (!ids.includes(id)) ids.push(id);
  }
  unresolved.sort((a, b) => a.index - b.index);
  if (!ids.length) {
    throw new AppError(
      'invalid_request',
      `None of the ${seeds.length} seeds names a record of the catalog, so there is nothing to look alike: ${unresolved
        .slice(0, 5)
        .map((u) => `seeds.${u.index}: ${u.reason}`)
        .join('; ')}. Give seeds that search returns. Nothing was charged.`,
      { details: { issues: unresolved.map((u) => ({ field: `seeds.${u.index}`, message: u.reason })) } },
    );
  }
  return { ids, unresolved };
}

export async function resolveCompanySeeds(db: Queryable, seeds: readonly CompanySeed[]): Promise<ResolvedSeeds> {
  const lookups: Lookup[] = [];
  const refused: UnresolvedSeed[] = [];
  const keyOf = new Map<number, string>();
  seeds.forEach((seed, index) => {
    if (seed.id !== undefined) {
      const id = catalogId(seed.id);
      if (id === null) refused.push({ index, reason: `no company has the id ${seed.id}` });
      else lookups.push({ index, key: 'id', value: id });
      keyOf.set(index, `the id ${seed.id}`);
    } else if (seed.domain !== undefined) {
      const domain = normaliseDomain(seed.domain);
      lookups.push({ index, key: 'domain', value: domain });
      keyOf.set(index, `the domain ${domain}`);
    } else if (seed.slug !== undefined) {
      const slug = slugFromUrlOrSlug(seed.slug, 'company');
      if (slug === null) refused.push({ index, reason: 'expected a company slug or a company URL' });
      else lookups.push({ index, key: 'slug', value: slug });
      keyOf.set(index, `the slug ${slug ?? seed.slug}`);
    }
  });
  const found = await resolve(db, 'companies', companyKeys, lookups);
  return gather(seeds, lookups, refused, found, (index) => `no company has ${keyOf.get(index) ?? 'this key'}`);
}

export async function resolvePersonSeeds(db: Queryable, seeds: readonly PersonSeed[]): Promise<ResolvedSeeds> {
  const lookups: Lookup[] = [];
  const refused: UnresolvedSeed[] = [];
  const keyOf = new Map<number, string>();
  seeds.forEach((seed, index) => {
    if (seed.id !== undefined) {
      const id = catalogId(seed.id);
      if (id === null) refused.push({ index, reason: `no person has the id ${seed.id}` });
      else lookups.push({ index, key: 'id', value: id });
      keyOf.set(index, `the id ${seed.id}`);
      return;
    }
    const given = seed.profileUrl ?? seed.slug;
    if (given === undefined) return;
    const slug = slugFromUrlOrSlug(given, 'in');
    if (slug === null) refused.push({ index, reason: 'expected a profile URL or a profile slug' });
    else lookups.push({ index, key: 'slug', value: slug });
    keyOf.set(index, `the profile ${slug ?? given}`);
  });
  const found = await resolve(db, 'people', personKeys, lookups);
  return gather(seeds, lookups, refused, found, (index) => `no person has ${keyOf.get(index) ?? 'this key'}`);
}
