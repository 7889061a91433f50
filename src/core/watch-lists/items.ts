import type { WatchListItemInput } from '../../../operations/schemas/watch-lists.js';
import type { Queryable } from '../../store/db.js';
import { normaliseDomain, slugFromUrlOrSlug, userIdFromUrn } from '../network-urls.js';

/**
 * Matching the items of a watch list to the catalog: people by profile URL, slug, URN or numeric
 * id (the network's user id first, then the catalog id); companies by domain, company URL, slug or
 * numeric id (the network's organisation id first, then the catalog id). The item keeps the slug
 * and network id the live source is asked with. An item that matches nothing, or a record the
 * network has no identifier for, is reported with the reason.
 */

export type ResolvedItem =
  | { catalogId: number; input: string; slug: string | null; networkId: number | null }
  | { input: string; reason: string };

type Reference = { slug: string } | { id: number } | { domain: string } | { reason: string };

export async function resolveWatchListItems(
  db: Queryable,
  kind: 'people' | 'companies',
  items: readonly WatchListItemInput[],
): Promise<ResolvedItem[]> {
  const references = items.map((item) => referenceOf(kind, item));
  const wanted = (pick: (r: Reference) => string | number | undefined) =>
    references.flatMap((r) => {
      const value = pick(r);
      return value === undefined ? [] : [value];
    });
  const slugs = wanted((r) => ('slug' in r ? r.slug : undefined)) as string[];
  const ids = wanted((r) => ('id' in r ? r.id : undefined)) as number[];
  const domains = wanted((r) => ('domain' in r ? r.domain : undefined)) as string[];
  const found = kind === 'people' ? await findPeople(db, slugs, ids) : await findCompanies(db, slugs, ids, domains);
  return references.map((reference, index) => {
    const input = inputText(items[index] as WatchListItemInput);
    if ('reason' in reference) return { input, reason: reference.reason };
    const key =
      'slug' in reference ? `s:${reference.slug}` : 'id' in reference ? `i:${reference.id}` : `d:${reference.domain}`;
    const record = found.get(key);
    if (!record) return { input, reason: `no ${kind === 'people' ? 'person' : 'company'} matches it` };
    if (!record.slug && record.networkId === null)
      return { input, reason: 'the professional network has no identifier for it, so it cannot be checked' };
    return { input, ...record };
  });
}

function inputText(item: WatchListItemInput): string {
  if (typeof item === 'string') return item;
  return String(Object.values(item)[0]);
}

function referenceOf(kind: 'people' | 'companies', item: WatchListItemInput): Reference {
  const numeric = (value: string | number): Reference => {
    const id = Number(value);
    return Number.isSafeInteger(id) && id > 0 ? { id } : { reason: 'expected a numeric id' };
  };
  const slugOr = (value: string, urlKind: 'in' | 'company'): Reference => {
    const slug = slugFromUrlOrSlug(value, urlKind);
    return slug ? { slug } : { reason: `expected a ${urlKind === 'in' ? 'profile' : 'company'} URL or slug` };
  };
  if (typeof item !== 'string') {
    if ('id' in item) return numeric(item.id);
    if ('slug' in item) return slugOr(item.slug, kind === 'people' ? 'in' : 'company');
    if ('profileUrl' in item)
      return kind === 'people'
        ? slugOr(item.profileUrl, 'in')
        : { reason: 'a companies list takes domain, slug or id' };
    return kind === 'companies' ? domainOf(item.domain) : { reason: 'a people list takes profileUrl, slug or id' };
  }
  const value = item.trim();
  if (/^\d+$/.test(value)) return numeric(value);
  if (kind === 'people') {
    const userId = userIdFromUrn(value);
    return userId ? { id: userId } : slugOr(value, 'in');
  }
  if (/\/company\//i.test(value)) return slugOr(value, 'company');
  return value.includes('.') ? domainOf(value) : slugOr(value, 'company');
}

function domainOf(value: string): Reference {
  const domain = normaliseDomain(value);
  return domain.includes('.') ? { domain } : { reason: 'expected a domain such as example.com' };
}

type Found = Map<string, { catalogId: number; slug: string | null; networkId: number | null }>;

async function findPeople(db: Queryable, slugs: string[], ids: number[]): Promise<Found> {
  const found: Found = new Map();
  if (slugs.length === 0 && ids.length === 0) return found;
  // Ordered so that for one key the first row kept is the network's own id match, then the lowest catalog id.
  const rows = await db.query<{ id: number; network_slug: string | null; network_user_id: number | null }>(
    `SELECT id, network_slug, network_user_id FROM people
      WHERE network_slug = ANY($1::text[]) OR network_user_id = ANY($2::bigint[]) OR id = ANY($2::bigint[])
      ORDER BY (network_user_id = ANY($2::bigint[])) DESC NULLS LAST, id`,
    [slugs, ids],
  );
  const idSet = new Set(ids);
  for (const row of rows.rows) {
    const record = { catalogId: row.id, slug: row.network_slug, networkId: row.network_user_id };
    if (row.network_slug && !found.has(`s:${row.network_slug}`)) found.set(`s:${row.network_slug}`, record);
    if (row.network_user_id !== null && idSet.has(row.network_user_id) && !found.has(`i:${row.network_user_id}`))
      found.set(`i:${row.network_user_id}`, record);
    if (idSet.has(row.id) && !found.has(`i:${row.id}`)) found.set(`i:${row.id}`, record);
  }
  return found;
}

async function findCompanies(db: Queryable, slugs: string[], ids: number[], domains: string[]): Promise<Found> {
  const found: Found = new Map();
  if (slugs.length === 0 && ids.length === 0 && domains.length === 0) return found;
  const rows = await db.query<{
    id: number;
    network_primary_slug: string | null;
    network_org_id: number | null;
    domains: string[];
  }>(
    `SELECT id, network_primary_slug, network_org_id, domains FROM companies
      WHERE network_primary_slug = ANY($1::text[]) OR network_org_id = ANY($2::bigint[]) OR id = ANY($2::bigint[])
         OR domains && $3::text[]
      ORDER BY (network_org_id = ANY($2::bigint[])) DESC NULLS LAST, id`,
    [slugs, ids, domains],
  );
  const idSet = new Set(ids);
  const domainSet = new Set(domains);
  for (const row of rows.rows) {
    const record = { catalogId: row.id, slug: row.network_primary_slug, networkId: row.network_org_id };
    const keys = [
      row.network_primary_slug ? `s:${row.network_primary_slug}` : null,
      row.network_org_id !== null && idSet.has(row.network_org_id) ? `i:${row.network_org_id}` : null,
      idSet.has(row.id) ? `i:${row.id}` : null,
      ...row.domains.filter((d) => domainSet.has(d)).map((d) => `d:${d}`),
    ];
    for (const key of keys) if (key && !found.has(key)) found.set(key, record);
  }
  return found;
}
