import type { CurrentCompany } from '../../operations/schemas/filters.js';
import { AppError } from '../errors.js';
import type { Database, Queryable } from '../store/db.js';
import { resolveCompanies } from './company-resolution.js';
import { slugFromUrlOrSlug } from './network-urls.js';

export type ExclusionListKind = 'companies' | 'prospects';

export interface CreatedExclusionList {
  exclusionListId: string;
  name: string;
  kind: ExclusionListKind;
  size: number;
  unmatched: number[];
  createdAt: string;
}

export async function createExclusionList(
  db: Database,
  accountId: number,
  input: { name: string; kind: ExclusionListKind; companies?: CurrentCompany[]; prospects?: string[] },
): Promise<CreatedExclusionList> {
  const matches =
    input.kind === 'companies' ? await resolveCompanies(db.pool, input.companies ?? []) : await resolveProspects(db.pool, input.prospects ?? []);
  const ids = [...new Set(matches.flat())];
  const unmatched = matches.flatMap((found, index) => (found.length === 0 ? [index] : []));
  return db.transaction(async (tx) => {
    const created = await tx.query<{ id: number; created_at: Date }>(
      'INSERT INTO exclusion_lists (account_id, kind, name) VALUES ($1, $2, $3) RETURNING id, created_at',
      [accountId, input.kind, input.name],
    );
    const list = created.rows[0] as { id: number; created_at: Date };
    if (ids.length) {
      await tx.query(
        `INSERT INTO exclusion_list_items (account_id, list_id, item_id)
         SELECT $1, $2, unnest($3::bigint[]) ON CONFLICT DO NOTHING`,
        [accountId, list.id, ids],
      );
    }
    return {
      exclusionListId: String(list.id),
      name: input.name,
      kind: input.kind,
      size: ids.length,
      unmatched,
      createdAt: list.created_at.toISOString(),
    };
  });
}

async function resolveProspects(db: Queryable, references: readonly string[]): Promise<number[][]> {
  const slugs = references.map((reference) => slugFromUrlOrSlug(reference, 'in'));
  const result = await db.query<{ id: number; network_slug: string }>(
    'SELECT id, network_slug FROM people WHERE network_slug = ANY($1::text[])',
    [slugs.filter((s): s is string => s !== null)],
  );
  const bySlug = new Map(result.rows.map((row) => [row.network_slug, row.id]));
  return slugs.map((slug) => {
    const id = slug ? bySlug.get(slug) : undefined;
    return id === undefined ? [] : [id];
  });
}

/**
 * Checks that every list exists, belongs to the account and holds the expected kind.
 * Another account's list is reported exactly like a missing one.
 */
export async function requireExclusionLists(
  db: Queryable,
  accountId: number,
  listIds: readonly string[] | undefined,
  kind: ExclusionListKind,
  field: string,
): Promise<number[]> {
  if (!listIds?.length) return [];
  const ids = [...new Set(listIds.map(Number))];
  const found = await db.query<{ id: number; kind: ExclusionListKind }>(
    'SELECT id, kind FROM exclusion_lists WHERE account_id = $1 AND id = ANY($2::bigint[])',
    [accountId, ids],
  );
  const byId = new Map(found.rows.map((row) => [row.id, row.kind]));
  for (const id of ids) {
    const listKind = byId.get(id);
    if (!listKind) throw new AppError('not_found', `Exclusion list ${id} (in ${field}) not found.`);
    if (listKind !== kind) {
      throw new AppError('invalid_request', `Exclusion list ${id} holds ${listKind}; ${field} takes ${kind} lists.`, {
        details: { issues: [{ field, message: `expected ${kind} exclusion lists` }] },
      });
    }
  }
  return ids;
}
