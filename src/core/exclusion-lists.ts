import type pg from 'pg';
import type { CurrentCompany } from '../../operations/schemas/filters.js';
import { AppError } from '../errors.js';
import { findAccountRow, type Database, type Queryable } from '../store/db.js';
import { requireAudience, requireBuilt } from './audiences/record.js';
import { resolveCompanies } from './company-resolution.js';
import { networkBaseUrl, normaliseDomain, slugFromUrlOrSlug } from './network-urls.js';
import { canonicalJson, type CursorCodec } from './search/cursor.js';

/**
 * Exclusion lists: companies or prospects an account leaves out of its searches, counts, saved
 * searches and audience builds (companies already in a CRM, people already contacted).
 *
 * An entry is kept as the caller gave it (a company reference like a currentCompanies entry, or a
 * profile URL or slug) with the catalog records it matched when it was added, matched the way
 * search matches: domain normalised (scheme, `www.` and path dropped, lowercase), network slug or
 * company URL, exact name (case-insensitive), numeric organisation ID; a profile by its URL or
 * slug. An entry that matches nothing is kept, and reported (`unmatched`, `matched: false`).
 * Searches read `exclusion_list_items`, one row per matched record, which entries keep in step:
 * removing an entry removes the records no other entry of the list matched.
 */

export type ExclusionListKind = 'companies' | 'prospects';

/** One entry as given: a company reference, or a profile URL or slug. */
type EntryReference = { company: CurrentCompany } | { prospect: string };

export interface ExclusionListSummary {
  exclusionListId: string;
  name: string;
  kind: ExclusionListKind;
  /** Catalog records the list excludes. */
  size: number;
  entries: number;
  unmatchedEntries: number;
  createdAt: string;
}

export interface CreatedExclusionList extends ExclusionListSummary {
  /** Positions (0-based) of the given entries that matched nothing (kept all the same). */
  unmatched: number[];
}

interface ListRow {
  account_id: number;
  id: number;
  kind: ExclusionListKind;
  name: string;
  records: number;
  entries: number;
  unmatched_entries: number;
  created_at: Date;
}

const listColumns = 'account_id, id, kind, name, records, entries, unmatched_entries, created_at';

function summarize(row: ListRow): ExclusionListSummary {
  return {
    exclusionListId: String(row.id),
    name: row.name,
    kind: row.kind,
    size: row.records,
    entries: row.entries,
    unmatchedEntries: row.unmatched_entries,
    createdAt: row.created_at.toISOString(),
  };
}

export async function createExclusionList(
  db: Database,
  accountId: number,
  input: {
    name: string;
    kind: ExclusionListKind;
    companies?: CurrentCompany[] | undefined;
    prospects?: string[] | undefined;
  },
): Promise<CreatedExclusionList> {
  const references = referencesOf(input.kind, input);
  const matches = await resolveReferences(db.pool, references);
  return db.transaction(async (tx) => {
    const created = await tx.query<ListRow>(
      `INSERT INTO exclusion_lists (account_id, kind, name) VALUES ($1, $2, $3) RETURNING ${listColumns}`,
      [accountId, input.kind, input.name],
    );
    const list = created.rows[0] as ListRow;
    const added = await insertEntries(tx, list, references, matches);
    return { ...summarize(await refreshCounts(tx, list)), unmatched: added.unmatched };
  });
}

/** The list, or 404 when the account has none by that id. `forUpdate` serialises changes to it. */
export async function requireExclusionList(
  db: Queryable,
  accountId: number,
  listId: string | number,
  forUpdate = false,
): Promise<ListRow> {
  const row = await findAccountRow<ListRow>(db, 'exclusion_lists', listColumns, accountId, Number(listId), forUpdate);
  if (!row) throw new AppError('not_found', `Exclusion list ${listId} not found. listExclusionLists lists yours.`);
  return row;
}

export async function listExclusionLists(
  db: Queryable,
  cursors: CursorCodec,
  accountId: number,
  query: { pageSize: number; cursor?: string | null | undefined; kind?: ExclusionListKind | undefined },
): Promise<{ data: ExclusionListSummary[]; nextCursor: string | null }> {
  const pages = cursors.scope(accountId, 'listExclusionLists', { accountId, kind: query.kind ?? null });
  const before = pages.decode(query.cursor);
  const result = await db.query<ListRow>(
    `SELECT ${listColumns} FROM exclusion_lists
      WHERE account_id = $1 AND ($2::bigint = 0 OR id < $2) AND ($3::text IS NULL OR kind = $3)
      ORDER BY id DESC LIMIT $4`,
    [accountId, before, query.kind ?? null, query.pageSize + 1],
  );
  const { rows, nextCursor } = pages.page(result.rows, query.pageSize, (row) => row.id);
  return {
    data: rows.map(summarize),
    nextCursor,
  };
}

export interface EntryView {
  entryId: string;
  company: Record<string, string> | null;
  prospect: string | null;
  matched: boolean;
  matchedRecords: number;
  addedAt: string;
}

export async function listExclusionListEntries(
  db: Queryable,
  cursors: CursorCodec,
  accountId: number,
  query: {
    exclusionListId: string;
    pageSize: number;
    cursor?: string | null | undefined;
    onlyUnmatched?: boolean | undefined;
  },
): Promise<{ exclusionListId: string; kind: ExclusionListKind; data: EntryView[]; nextCursor: string | null }> {
  const list = await requireExclusionList(db, accountId, query.exclusionListId);
  const pages = cursors.scope(accountId, 'listExclusionListEntries', {
    list: list.id,
    onlyUnmatched: Boolean(query.onlyUnmatched),
  });
  const after = pages.decode(query.cursor);
  const result = await db.query<{
    id: number;
    reference: Record<string, string>;
    item_ids: number[];
    created_at: Date;
  }>(
    `SELECT id, reference, item_ids, created_at FROM exclusion_list_entries
      WHERE account_id = $1 AND list_id = $2 AND id > $3 AND (NOT $4::boolean OR cardinality(item_ids) = 0)
      ORDER BY id LIMIT $5`,
    [accountId, list.id, after, Boolean(query.onlyUnmatched), query.pageSize + 1],
  );
  const { rows, nextCursor } = pages.page(result.rows, query.pageSize, (row) => row.id);
  return {
    exclusionListId: String(list.id),
    kind: list.kind,
    data: rows.map((row) => {
      const { profileUrl, ...company } = row.reference;
      return {
        entryId: String(row.id),
        company: list.kind === 'companies' ? company : null,
        prospect: list.kind === 'prospects' ? (profileUrl ?? null) : null,
        matched: row.item_ids.length > 0,
        matchedRecords: row.item_ids.length,
        addedAt: row.created_at.toISOString(),
      };
    }),
    nextCursor,
  };
}

export interface EntriesAdded extends ExclusionListSummary {
  added: number;
  /** Positions of given entries already in the list (kept once). */
  duplicates: number[];
  /** Positions of given entries that matched nothing (kept all the same). */
  unmatched: number[];
}

export async function addExclusionListEntries(
  db: Database,
  accountId: number,
  listId: string,
  input: { companies?: CurrentCompany[] | undefined; prospects?: string[] | undefined },
): Promise<EntriesAdded> {
  const kind = (await requireExclusionList(db.pool, accountId, listId)).kind;
  requireEntriesOfKind(kind, input);
  const references = referencesOf(kind, input);
  const matches = await resolveReferences(db.pool, references);
  return db.transaction(async (tx) => {
    const list = await requireExclusionList(tx, accountId, listId, true);
    const added = await insertEntries(tx, list, references, matches);
    return { ...summarize(await refreshCounts(tx, list)), ...added };
  });
}

export interface EntriesRemoved extends ExclusionListSummary {
  removed: number;
  /** Given entryIds and references that were not in the list. */
  notFound: number;
}

export async function removeExclusionListEntries(
  db: Database,
  accountId: number,
  listId: string,
  input: {
    entryIds?: string[] | undefined;
    companies?: CurrentCompany[] | undefined;
    prospects?: string[] | undefined;
  },
): Promise<EntriesRemoved> {
  const kind = (await requireExclusionList(db.pool, accountId, listId)).kind;
  requireEntriesOfKind(kind, input);
  const keys = referencesOf(kind, input).map(referenceKey);
  const entryIds = (input.entryIds ?? []).map(Number);
  return db.transaction(async (tx) => {
    const list = await requireExclusionList(tx, accountId, listId, true);
    const removed = await tx.query<{ item_ids: number[] }>(
      `DELETE FROM exclusion_list_entries WHERE account_id = $1 AND list_id = $2 AND (id = ANY($3::bigint[]) OR reference_key = ANY($4::text[]))
       RETURNING item_ids`,
      [accountId, list.id, entryIds, keys],
    );
    const candidates = [...new Set(removed.rows.flatMap((r) => r.item_ids))];
    if (candidates.length) {
      // Records another entry of the list still matches stay excluded.
      await tx.query(
        `DELETE FROM exclusion_list_items i
          WHERE i.account_id = $1 AND i.list_id = $2 AND i.item_id = ANY($3::bigint[])
            AND i.item_id NOT IN (SELECT x FROM exclusion_list_entries e, unnest(e.item_ids) AS x
                                   WHERE e.account_id = $1 AND e.list_id = $2 AND x = ANY($3::bigint[]))`,
        [accountId, list.id, candidates],
      );
    }
    const given = new Set([...entryIds.map((id) => `id:${id}`), ...keys]).size;
    return {
      ...summarize(await refreshCounts(tx, list)),
      removed: removed.rowCount ?? 0,
      notFound: Math.max(0, given - (removed.rowCount ?? 0)),
    };
  });
}

export async function deleteExclusionList(
  db: Database,
  accountId: number,
  listId: string,
): Promise<{ exclusionListId: string; deleted: true }> {
  return db.transaction(async (tx) => {
    const list = await requireExclusionList(tx, accountId, listId, true);
    await tx.query('DELETE FROM exclusion_list_items WHERE account_id = $1 AND list_id = $2', [accountId, list.id]);
    await tx.query('DELETE FROM exclusion_list_entries WHERE account_id = $1 AND list_id = $2', [accountId, list.id]);
    await tx.query('DELETE FROM exclusion_lists WHERE account_id = $1 AND id = $2', [accountId, list.id]);
    return { exclusionListId: String(list.id), deleted: true as const };
  });
}

/**
 * A list of the companies or the prospects of a built audience: each record becomes an entry
 * naming it (domain and network slug for a company, profile URL for a person), matched to itself.
 */
export async function createExclusionListFromAudience(
  db: Database,
  accountId: number,
  input: { audienceId: string; kind: ExclusionListKind; name: string },
): Promise<ExclusionListSummary> {
  return db.transaction(async (tx) => {
    const audience = await requireAudience(tx, accountId, input.audienceId);
    requireBuilt(audience, `make an exclusion list of the ${input.kind} of`);
    const created = await tx.query<ListRow>(
      `INSERT INTO exclusion_lists (account_id, kind, name) VALUES ($1, $2, $3) RETURNING ${listColumns}`,
      [accountId, input.kind, input.name],
    );
    const list = created.rows[0] as ListRow;
    if (input.kind === 'companies') {
      await tx.query(
        `INSERT INTO exclusion_list_entries (account_id, list_id, reference, reference_key, item_ids)
         SELECT $1, $2, jsonb_strip_nulls(jsonb_build_object('domain', c.domains[1], 'networkSlugOrURL', c.network_primary_slug,
                                                             'name', CASE WHEN c.domains[1] IS NULL AND c.network_primary_slug IS NULL THEN c.preferred_name END)),
                'catalog:' || c.id, ARRAY[c.id]
           FROM audience_companies ac JOIN companies c ON c.id = ac.company_id
          WHERE ac.account_id = $1 AND ac.audience_id = $3
          ORDER BY c.id`,
        [accountId, list.id, audience.id],
      );
    } else {
      await tx.query(
        `INSERT INTO exclusion_list_entries (account_id, list_id, reference, reference_key, item_ids)
         SELECT $1, $2, jsonb_build_object('profileUrl', CASE WHEN p.network_slug IS NULL THEN 'person ' || p.id ELSE $4 || p.network_slug END),
                'catalog:' || p.id, ARRAY[p.id]
           FROM audience_prospects ap JOIN people p ON p.id = ap.person_id
          WHERE ap.account_id = $1 AND ap.audience_id = $3
          ORDER BY p.id`,
        [accountId, list.id, audience.id, `${networkBaseUrl}/in/`],
      );
    }
    await tx.query(
      `INSERT INTO exclusion_list_items (account_id, list_id, item_id)
       SELECT $1, $2, unnest(item_ids) FROM exclusion_list_entries WHERE account_id = $1 AND list_id = $2 ON CONFLICT DO NOTHING`,
      [accountId, list.id],
    );
    return summarize(await refreshCounts(tx, list));
  });
}

/**
 * Checks that every list exists, belongs to the account and holds the expected kind.
 * Another account's list is reported exactly like a missing one.
 */
export async function requireExclusionLists(
  db: Queryable,
  accountId: number,
  listIds: readonly (string | number)[] | undefined,
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

function requireEntriesOfKind(
  kind: ExclusionListKind,
  input: { companies?: unknown[] | undefined; prospects?: unknown[] | undefined },
): void {
  const wrong = kind === 'companies' ? 'prospects' : 'companies';
  if (input[wrong] !== undefined) {
    throw new AppError('invalid_request', `Exclusion list holds ${kind}: give ${kind}, not ${wrong}.`, {
      details: { issues: [{ field: wrong, message: `this list holds ${kind}` }] },
    });
  }
}

function referencesOf(
  kind: ExclusionListKind,
  input: { companies?: CurrentCompany[] | undefined; prospects?: string[] | undefined },
): EntryReference[] {
  return kind === 'companies'
    ? (input.companies ?? []).map((company) => ({ company }))
    : (input.prospects ?? []).map((prospect) => ({ prospect: prospect.trim() }));
}

/** The reference as search reads it: the same company or profile written two ways gives one key. */
function referenceKey(reference: EntryReference): string {
  if ('prospect' in reference) {
    const slug = slugFromUrlOrSlug(reference.prospect, 'in');
    return slug ? `in:${slug}` : `raw:${reference.prospect.toLowerCase()}`;
  }
  const { domain, networkSlugOrURL, name, networkOrgID } = reference.company;
  return canonicalJson({
    domain: domain ? normaliseDomain(domain) : undefined,
    slug: networkSlugOrURL
      ? (slugFromUrlOrSlug(networkSlugOrURL, 'company') ?? networkSlugOrURL.toLowerCase())
      : undefined,
    name: name?.toLowerCase(),
    orgId: networkOrgID ? String(Number(networkOrgID)) : undefined,
  });
}

async function resolveReferences(db: Queryable, references: readonly EntryReference[]): Promise<number[][]> {
  const companies = references.flatMap((r) => ('company' in r ? [r.company] : []));
  if (companies.length) return resolveCompanies(db, companies);
  return resolveProspects(
    db,
    references.map((r) => ('prospect' in r ? r.prospect : '')),
  );
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

async function insertEntries(
  tx: pg.PoolClient,
  list: ListRow,
  references: readonly EntryReference[],
  matches: readonly number[][],
): Promise<{ added: number; duplicates: number[]; unmatched: number[] }> {
  if (references.length === 0) return { added: 0, duplicates: [], unmatched: [] };
  const keys = references.map(referenceKey);
  const stored = references.map((r) => ('company' in r ? r.company : { profileUrl: r.prospect }));
  const inserted = await tx.query<{ reference_key: string }>(
    `INSERT INTO exclusion_list_entries (account_id, list_id, reference, reference_key, item_ids)
     SELECT $1, $2, e.reference, e.reference_key, ARRAY(SELECT jsonb_array_elements_text(e.item_ids)::bigint)
       FROM jsonb_to_recordset($3::jsonb) AS e(position int, reference jsonb, reference_key text, item_ids jsonb)
      ORDER BY e.position
     ON CONFLICT (account_id, list_id, reference_key) DO NOTHING
     RETURNING reference_key`,
    [
      list.account_id,
      list.id,
      JSON.stringify(
        references.map((_, position) => ({
          position,
          reference: stored[position],
          reference_key: keys[position],
          item_ids: matches[position] ?? [],
        })),
      ),
    ],
  );
  // The first of the given entries with a key is the one stored; later ones with the same key are duplicates.
  const insertedKeys = new Set(inserted.rows.map((r) => r.reference_key));
  const addedPositions = new Set<number>();
  keys.forEach((key, position) => {
    if (insertedKeys.delete(key)) addedPositions.add(position);
  });
  const ids = [
    ...new Set(references.flatMap((_, position) => (addedPositions.has(position) ? (matches[position] ?? []) : []))),
  ];
  if (ids.length) {
    await tx.query(
      `INSERT INTO exclusion_list_items (account_id, list_id, item_id) SELECT $1, $2, unnest($3::bigint[]) ON CONFLICT DO NOTHING`,
      [list.account_id, list.id, ids],
    );
  }
  return {
    added: addedPositions.size,
    duplicates: references.flatMap((_, position) => (addedPositions.has(position) ? [] : [position])),
    unmatched: references.flatMap((_, position) => ((matches[position] ?? []).length === 0 ? [position] : [])),
  };
}

async function refreshCounts(tx: pg.PoolClient, list: ListRow): Promise<ListRow> {
  const updated = await tx.query<ListRow>(
    `UPDATE exclusion_lists SET
        records = (SELECT count(*) FROM exclusion_list_items WHERE account_id = $1 AND list_id = $2),
        entries = (SELECT count(*) FROM exclusion_list_entries WHERE account_id = $1 AND list_id = $2),
        unmatched_entries = (SELECT count(*) FROM exclusion_list_entries WHERE account_id = $1 AND list_id = $2 AND cardinality(item_ids) = 0)
      WHERE account_id = $1 AND id = $2 RETURNING ${listColumns}`,
    [list.account_id, list.id],
  );
  return updated.rows[0] as ListRow;
}
