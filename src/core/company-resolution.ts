import type { CurrentCompany } from '../../operations/schemas/filters.js';
import type { Queryable } from '../store/db.js';
import { normaliseDomain, slugFromUrlOrSlug } from './network-urls.js';
import { SqlConditions } from './search/sql.js';

/**
 * Resolves company references (domain, slug or URL, name, numeric org ID, in any combination)
 * to catalog ids. All keys of one reference must match the same company. Returns, for each
 * reference in order, the ids it matched (a name can match several companies).
 */
export async function resolveCompanies(db: Queryable, references: readonly CurrentCompany[]): Promise<number[][]> {
  if (references.length === 0) return [];
  const sql = new SqlConditions();
  const values: string[] = [];
  references.forEach((reference, index) => {
    const slug = reference.networkSlugOrURL ? slugFromUrlOrSlug(reference.networkSlugOrURL, 'company') : undefined;
    const conditions = [
      reference.domain ? `c.domains @> ARRAY[${sql.bind(normaliseDomain(reference.domain))}]::text[]` : null,
      reference.networkSlugOrURL ? (slug ? `c.network_primary_slug = ${sql.bind(slug)}` : 'false') : null,
      reference.name ? `lower(c.preferred_name) = lower(${sql.bind(reference.name)})` : null,
      reference.networkOrgID ? `c.network_org_id = ${sql.bind(Number(reference.networkOrgID))}` : null,
    ].filter(Boolean);
    values.push(`SELECT ${index} AS ref, c.id FROM companies c WHERE ${conditions.join(' AND ')}`);
  });
  const result = await db.query<{ ref: number; id: number }>(`${values.join('\nUNION ALL\n')}`, sql.params);
  const matches: number[][] = references.map(() => []);
  for (const row of result.rows) matches[row.ref]?.push(row.id);
  return matches;
}
