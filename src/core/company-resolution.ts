import type { CurrentCompany } from '../../operations/schemas/filters.js';
import type { Queryable } from '../store/db.js';
import { normaliseDomain, slugFromUrlOrSlug } from './network-urls.js';
import { SqlConditions } from './search/sql.js';

const maxBigint = 2n ** 63n - 1n;

/** The keys a reference can give, as they are matched; which of them a reference gives is its shape. */
interface ResolvedKeys {
  domain?: string;
  slug?: string;
  name?: string;
  /** Decimal digits, compared as a bigint: a number would round ids past 2^53. */
  orgId?: string;
}

type Key = keyof ResolvedKeys;

/** How each key is passed (as one array over the references of a shape) and matched. */
const keyMatching: Record<Key, { arrayType: string; condition: (column: string) => string }> = {
  domain: { arrayType: 'text[]', condition: (value) => `c.domains @> ARRAY[${value}]` },
  slug: { arrayType: 'text[]', condition: (value) => `c.network_primary_slug = ${value}` },
  name: { arrayType: 'text[]', condition: (value) => `lower(c.preferred_name) = lower(${value})` },
  orgId: { arrayType: 'bigint[]', condition: (value) => `c.network_org_id = ${value}` },
};

/**
 * Resolves company references (domain, slug or URL, name, numeric org ID, in any combination)
 * to catalog ids. All keys of one reference must match the same company. Returns, for each
 * reference in order, the ids it matched (a name can match several companies).
 *
 * References with the same keys are matched in one join over `unnest` of their values, so the
 * statement's size (and its planning, which dominated when each reference was a UNION ALL
 * branch) does not grow with the number of references; a list of 2,000 accounts is one join, not
 * 2,000 branches (docs/decisions/0006-search-on-postgresql.md).
 */
export async function resolveCompanies(db: Queryable, references: readonly CurrentCompany[]): Promise<number[][]> {
  const matches: number[][] = references.map(() => []);
  const shapes = new Map<string, Array<{ index: number; keys: ResolvedKeys }>>();
  references.forEach((reference, index) => {
    const keys = resolvedKeys(reference);
    if (!keys) return;
    const shape = (Object.keys(keys) as Key[]).sort().join(',');
    if (!shape) return;
    shapes.set(shape, [...(shapes.get(shape) ?? []), { index, keys }]);
  });
  if (shapes.size === 0) return matches;

  const sql = new SqlConditions();
  const branches = [...shapes.entries()].map(([shape, members]) => {
    const keys = shape.split(',') as Key[];
    const columns = [
      `${sql.bind(members.map((m) => m.index))}::int[]`,
      ...keys.map((key) => `${sql.bind(members.map((m) => m.keys[key]))}::${keyMatching[key].arrayType}`),
    ];
    const conditions = keys.map((key) => keyMatching[key].condition(`r.${key}`));
    return `SELECT r.ref, c.id FROM unnest(${columns.join(', ')}) AS r(ref, ${keys.join(', ')})
      JOIN companies c ON ${conditions.join(' AND ')}`;
  });
  const result = await db.query<{ ref: number; id: number }>(branches.join('\nUNION ALL\n'), sql.params);
  for (const row of result.rows) matches[row.ref]?.push(row.id);
  return matches;
}

/** The reference's keys as they are compared (a name is lowered by PostgreSQL, as the index is); null when one of them can match no company. */
function resolvedKeys(reference: CurrentCompany): ResolvedKeys | null {
  const keys: ResolvedKeys = {};
  if (reference.domain) keys.domain = normaliseDomain(reference.domain);
  if (reference.networkSlugOrURL) {
    const slug = slugFromUrlOrSlug(reference.networkSlugOrURL, 'company');
    if (!slug) return null;
    keys.slug = slug;
  }
  if (reference.name) keys.name = reference.name;
  if (reference.networkOrgID) {
    // Up to 20 digits are accepted; past bigint's range no company has the id (and casting it would fail).
    if (BigInt(reference.networkOrgID) > maxBigint) return null;
    keys.orgId = reference.networkOrgID;
  }
  return keys;
}
