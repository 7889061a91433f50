import { z } from 'zod';
import {
  checksPerPeriod,
  watchListCheckCredits,
  watchListItemsLimit,
  type WatchListItemInput,
} from '../../../operations/schemas/watch-lists.js';
import { AppError } from '../../errors.js';
import { requireMailRecipient } from '../mail-recipients.js';
import type { KeyGrant } from '../principal.js';
import { cancelJobs, enqueue, expediteJobs } from '../../job-queue/index.js';
import { findAccountRow, type Database, type Queryable } from '../../store/db.js';
import type { NetworkClock } from '../network-clock.js';
import { companyUrlOf, profileUrlOf } from '../network-urls.js';
import type { CursorCodec } from '../search/cursor.js';
import { resolveWatchListItems } from './items.js';

/**
 * Watch lists: people or companies an account tracks. Each item is checked through the live
 * network source on its list's schedule (`checkEvery`) by the list's check job (checks.ts); the
 * first check of an item records what the network says, and every later one compares with the
 * last and records what changed (changes.ts). Items are matched to the catalog when added; one
 * that matches nothing is reported and not kept.
 *
 * Schedule times are on the network clock (`NetworkClock`), which is real time unless the
 * network simulation runs faster.
 */

export type WatchListKind = 'people' | 'companies';
export type CheckEvery = 'day' | 'week' | 'month';

export const checkPeriodMs: Record<CheckEvery, number> = {
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 30 * 86_400_000,
};

export interface WatchListRow {
  account_id: number;
  id: number;
  name: string;
  kind: WatchListKind;
  check_every: CheckEvery;
  headcount_change_threshold: number | null;
  paused: boolean;
  paused_reason: string | null;
  /** The key the list was created with: its daily cap holds for the list's checks. */
  api_key_id: number | null;
  digest_email: string | null;
  /** On the network clock: changes detected up to here were digested (or the list was made then). */
  digest_through: Date | null;
  created_at: Date;
  updated_at: Date;
}

const listColumns =
  'account_id, id, name, kind, check_every, headcount_change_threshold, paused, paused_reason, api_key_id, digest_email, digest_through, created_at, updated_at';

/** The check job of a list: one per list, kept queued while the list has items and is not paused. */
export const checkJobKind = {
  kind: 'watch-list.check',
  payload: z.object({ watchListId: z.number().int().positive() }),
  maxAttempts: 20,
};

/** Queues the list's check job, or makes the queued one due now (new items are due at once). */
export async function ensureCheckJob(tx: Queryable, accountId: number, watchListId: number): Promise<void> {
  if (await expediteJobs(tx, checkJobKind.kind, accountId, { watchListId })) return;
  await enqueue(tx, checkJobKind, { accountId, payload: { watchListId } });
}

export async function requireWatchList(
  db: Queryable,
  accountId: number,
  watchListId: string | number,
  forUpdate = false,
): Promise<WatchListRow> {
  const row = await findAccountRow<WatchListRow>(
    db,
    'watch_lists',
    listColumns,
    accountId,
    Number(watchListId),
    forUpdate,
  );
  if (!row) throw new AppError('not_found', `Watch list ${watchListId} not found. listWatchLists lists yours.`);
  return row;
}

/**
 * A capped key sets checks going on a list only when they are charged to it, the key the list was created with: the
 * checks of another key's list would land outside its cap.
 */
export function requireCapHolds(list: WatchListRow, key: KeyGrant | null | undefined): void {
  if (!key || key.dailyCreditCap === null || list.api_key_id === key.id) return;
  throw new AppError(
    'forbidden',
    `This API key has a daily cap of ${key.dailyCreditCap} credits, and the checks of watch list ${list.id} are charged to ` +
      "the key it was created with, where this key's cap cannot hold them. Nothing was done. Use the key that created " +
      "the list or a key without a daily cap, or remove the cap on the dashboard's API keys page (/dashboard/keys, then Change).",
    { details: { dailyCreditCap: key.dailyCreditCap, watchListId: String(list.id) } },
  );
}

export async function viewOf(db: Queryable, row: WatchListRow) {
  const stats = await db.query<{
    items: number;
    awaiting: number;
    next_check_at: Date | null;
    last_check_at: Date | null;
    changes: number;
  }>(
    `SELECT (SELECT count(*) FROM watch_list_items WHERE account_id = $1 AND watch_list_id = $2)::int AS items,
            (SELECT count(*) FROM watch_list_items WHERE account_id = $1 AND watch_list_id = $2
                AND snapshot IS NULL AND failed_checks = 0)::int AS awaiting,
            (SELECT min(next_check_at) FROM watch_list_items WHERE account_id = $1 AND watch_list_id = $2) AS next_check_at,
            (SELECT max(checked_at) FROM watch_list_checks WHERE account_id = $1 AND watch_list_id = $2) AS last_check_at,
            (SELECT count(*) FROM watch_list_changes WHERE account_id = $1 AND watch_list_id = $2)::int AS changes`,
    [row.account_id, row.id],
  );
  const stat = stats.rows[0] as {
    items: number;
    awaiting: number;
    next_check_at: Date | null;
    last_check_at: Date | null;
    changes: number;
  };
  return {
    watchListId: String(row.id),
    name: row.name,
    kind: row.kind,
    checkEvery: row.check_every,
    headcountChangeThreshold: row.headcount_change_threshold,
    paused: row.paused,
    pausedReason: row.paused_reason,
    items: stat.items,
    awaitingFirstCheck: stat.awaiting,
    nextCheckAt: stat.next_check_at?.toISOString() ?? null,
    lastCheckAt: stat.last_check_at?.toISOString() ?? null,
    changes: stat.changes,
    digestEmail: row.digest_email,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export interface CreateWatchListInput {
  name: string;
  kind: WatchListKind;
  checkEvery: CheckEvery;
  headcountChangeThreshold?: number | undefined;
  digestEmail?: string | undefined;
}

/** What a list's digest needs: an address the account may mail, and the network clock its day is counted on. */
export interface DigestDeps {
  anyRecipient: boolean;
  clock: NetworkClock;
}

/** `keyId`: the API key the list is created with, whose daily cap then holds for its checks (null: no key's). */
export async function createWatchList(
  db: Queryable,
  accountId: number,
  input: CreateWatchListInput,
  keyId: number | null = null,
  digest: DigestDeps | null = null,
) {
  await requireMailRecipient(db, accountId, input.digestEmail, {
    anyRecipient: digest?.anyRecipient ?? false,
    field: 'digestEmail',
  });
  if (input.kind === 'people' && input.headcountChangeThreshold !== undefined) {
    throw new AppError(
      'invalid_request',
      'headcountChangeThreshold: only a companies list takes a headcount threshold.',
      {
        details: { issues: [{ field: 'headcountChangeThreshold', message: 'only for kind companies' }] },
      },
    );
  }
  const inserted = await db.query<WatchListRow>(
    `INSERT INTO watch_lists (account_id, name, kind, check_every, headcount_change_threshold, api_key_id, digest_email,
                              digest_through)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${listColumns}`,
    [
      accountId,
      input.name,
      input.kind,
      input.checkEvery,
      input.headcountChangeThreshold ?? null,
      keyId,
      input.digestEmail ?? null,
      (digest?.clock.now() ?? new Date()).toISOString(),
    ],
  );
  return viewOf(db, inserted.rows[0] as WatchListRow);
}

export async function listWatchLists(
  db: Queryable,
  cursors: CursorCodec,
  accountId: number,
  query: { pageSize: number; cursor?: string | null | undefined; kind?: WatchListKind | undefined },
) {
  const pages = cursors.scope(accountId, 'listWatchLists', { kind: query.kind ?? null });
  const before = pages.decode(query.cursor);
  const result = await db.query<WatchListRow>(
    `SELECT ${listColumns} FROM watch_lists
      WHERE account_id = $1 AND ($2::bigint = 0 OR id < $2) AND ($3::text IS NULL OR kind = $3)
      ORDER BY id DESC LIMIT $4`,
    [accountId, before, query.kind ?? null, query.pageSize + 1],
  );
  const { rows, nextCursor } = pages.page(result.rows, query.pageSize, (row) => row.id);
  const data = [];
  for (const row of rows) data.push(await viewOf(db, row));
  return { data, nextCursor };
}

export interface UpdateWatchListInput {
  name?: string | undefined;
  digestEmail?: string | null | undefined;
  checkEvery?: CheckEvery | undefined;
  headcountChangeThreshold?: number | null | undefined;
  paused?: boolean | undefined;
}

/**
 * Changes what is given. Pausing stops the checks (the job ends at its next turn); resuming
 * starts them again, items overdue while paused first. A new `checkEvery` applies from each
 * item's next check on.
 */
export async function updateWatchList(
  db: Database,
  accountId: number,
  watchListId: string,
  input: UpdateWatchListInput,
  key: KeyGrant | null = null,
  digest: DigestDeps | null = null,
) {
  await requireMailRecipient(db.pool, accountId, input.digestEmail ?? undefined, {
    anyRecipient: digest?.anyRecipient ?? false,
    field: 'digestEmail',
  });
  return db.transaction(async (tx) => {
    const current = await requireWatchList(tx, accountId, watchListId, true);
    // Pausing spends nothing: any key may stop checks.
    if (input.paused !== true) requireCapHolds(current, key);
    if (current.kind === 'people' && input.headcountChangeThreshold != null) {
      throw new AppError(
        'invalid_request',
        'headcountChangeThreshold: only a companies list takes a headcount threshold.',
        {
          details: { issues: [{ field: 'headcountChangeThreshold', message: 'only for kind companies' }] },
        },
      );
    }
    const paused = input.paused ?? current.paused;
    const updated = await tx.query<WatchListRow>(
      `UPDATE watch_lists SET name = $3, check_every = $4, headcount_change_threshold = $5, paused = $6,
              paused_reason = CASE WHEN $6 THEN paused_reason ELSE NULL END, updated_at = now(),
              digest_email = CASE WHEN $7 THEN $8 ELSE digest_email END,
              -- A digest started now begins with what is found from now on.
              digest_through = CASE WHEN $7 AND digest_email IS NULL THEN $9::timestamptz ELSE digest_through END
        WHERE account_id = $1 AND id = $2 RETURNING ${listColumns}`,
      [
        accountId,
        current.id,
        input.name ?? current.name,
        input.checkEvery ?? current.check_every,
        input.headcountChangeThreshold === undefined
          ? current.headcount_change_threshold
          : input.headcountChangeThreshold,
        paused,
        input.digestEmail !== undefined,
        input.digestEmail ?? null,
        (digest?.clock.now() ?? new Date()).toISOString(),
      ],
    );
    if (!paused) await ensureCheckJob(tx, accountId, current.id);
    return viewOf(tx, updated.rows[0] as WatchListRow);
  });
}

/** Deletes the list with its items, checks and changes; its check job is cancelled. */
export async function deleteWatchList(db: Database, accountId: number, watchListId: string) {
  await db.transaction(async (tx) => {
    const list = await requireWatchList(tx, accountId, watchListId, true);
    for (const table of ['watch_list_items', 'watch_list_checks', 'watch_list_changes'])
      await tx.query(`DELETE FROM ${table} WHERE account_id = $1 AND watch_list_id = $2`, [accountId, list.id]);
    await tx.query('DELETE FROM watch_lists WHERE account_id = $1 AND id = $2', [accountId, list.id]);
    await cancelJobs(tx, checkJobKind.kind, accountId, { watchListId: list.id }, 'the watch list was deleted');
  });
  return { watchListId, deleted: true as const };
}

/**
 * Adds items matched to the catalog; new ones are due at once, so the list's first check of them
 * (which records what the network says, no change yet) follows in moments. Unresolved items and
 * items already in the list are reported by position; neither fails the call.
 */
export async function addWatchListItems(
  db: Database,
  clock: NetworkClock,
  accountId: number,
  watchListId: string,
  items: readonly WatchListItemInput[],
  key: KeyGrant | null = null,
) {
  const list = await requireWatchList(db.pool, accountId, watchListId);
  requireCapHolds(list, key);
  const resolution = await resolveWatchListItems(db.pool, list.kind, items);
  return db.transaction(async (tx) => {
    await requireWatchList(tx, accountId, watchListId, true);
    const seen = new Set<number>();
    const duplicates: number[] = [];
    const fresh: Array<{
      index: number;
      catalogId: number;
      input: string;
      slug: string | null;
      networkId: number | null;
    }> = [];
    resolution.forEach((resolved, index) => {
      if (!('catalogId' in resolved)) return;
      if (seen.has(resolved.catalogId)) duplicates.push(index);
      else {
        seen.add(resolved.catalogId);
        fresh.push({ index, ...resolved });
      }
    });
    const held = await tx.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM watch_list_items WHERE account_id = $1 AND watch_list_id = $2',
      [accountId, list.id],
    );
    const count = held.rows[0]?.n ?? 0;
    const inserted = await tx.query<{ catalog_id: number }>(
      `INSERT INTO watch_list_items (account_id, watch_list_id, catalog_id, input, ref_slug, ref_network_id, next_check_at)
       SELECT $1, $2, c, i, s, n, $7 FROM unnest($3::bigint[], $4::text[], $5::text[], $6::bigint[]) AS t(c, i, s, n)
       ON CONFLICT (account_id, watch_list_id, catalog_id) DO NOTHING
       RETURNING catalog_id`,
      [
        accountId,
        list.id,
        fresh.map((f) => f.catalogId),
        fresh.map((f) => f.input),
        fresh.map((f) => f.slug),
        fresh.map((f) => f.networkId),
        clock.now().toISOString(),
      ],
    );
    if (count + inserted.rows.length > watchListItemsLimit) {
      throw new AppError(
        'invalid_request',
        `items: a watch list holds at most ${watchListItemsLimit} items; it has ${count}, and this adds ${inserted.rows.length}. Nothing was added.`,
        { details: { issues: [{ field: 'items', message: `at most ${watchListItemsLimit - count} more` }] } },
      );
    }
    const added = new Set(inserted.rows.map((row) => row.catalog_id));
    for (const f of fresh) if (!added.has(f.catalogId)) duplicates.push(f.index);
    if (added.size > 0 && !list.paused) await ensureCheckJob(tx, accountId, list.id);
    return {
      watchListId: String(list.id),
      added: added.size,
      items: count + added.size,
      duplicates: duplicates.sort((a, b) => a - b),
      unresolved: resolution.flatMap((resolved, index) =>
        'reason' in resolved ? [{ index, input: resolved.input, reason: resolved.reason }] : [],
      ),
    };
  });
}

/** Removes items by itemId or as they would be added; changes found for them stay readable. */
export async function removeWatchListItems(
  db: Database,
  accountId: number,
  watchListId: string,
  input: { itemIds?: string[] | undefined; items?: WatchListItemInput[] | undefined },
) {
  const list = await requireWatchList(db.pool, accountId, watchListId);
  const resolved = input.items ? await resolveWatchListItems(db.pool, list.kind, input.items) : [];
  const catalogIds = resolved.flatMap((r) => ('catalogId' in r ? [r.catalogId] : []));
  const itemIds = (input.itemIds ?? []).map(Number);
  const removed = await db.pool.query(
    `DELETE FROM watch_list_items WHERE account_id = $1 AND watch_list_id = $2 AND (id = ANY($3::bigint[]) OR catalog_id = ANY($4::bigint[]))`,
    [accountId, list.id, itemIds, catalogIds],
  );
  const asked = itemIds.length + (input.items?.length ?? 0);
  return {
    watchListId: String(list.id),
    removed: removed.rowCount ?? 0,
    notFound: Math.max(0, asked - (removed.rowCount ?? 0)),
  };
}

interface ItemRow {
  id: number;
  catalog_id: number;
  input: string;
  ref_slug: string | null;
  snapshot: Record<string, unknown> | null;
  next_check_at: Date;
  last_checked_at: Date | null;
  failed_checks: number;
}

export function networkUrlOf(kind: WatchListKind, slug: string | null): string | null {
  return kind === 'people' ? profileUrlOf(slug) : companyUrlOf(slug);
}

export async function listWatchListItems(
  db: Queryable,
  cursors: CursorCodec,
  accountId: number,
  query: { watchListId: string; pageSize: number; cursor?: string | null | undefined },
) {
  const list = await requireWatchList(db, accountId, query.watchListId);
  const pages = cursors.scope(accountId, 'listWatchListItems', { list: list.id });
  const after = pages.decode(query.cursor);
  const result = await db.query<ItemRow>(
    `SELECT id, catalog_id, input, ref_slug, snapshot, next_check_at, last_checked_at, failed_checks FROM watch_list_items
      WHERE account_id = $1 AND watch_list_id = $2 AND id > $3 ORDER BY id LIMIT $4`,
    [accountId, list.id, after, query.pageSize + 1],
  );
  const { rows, nextCursor } = pages.page(result.rows, query.pageSize, (row) => row.id);
  return {
    data: rows.map((row) => ({
      itemId: String(row.id),
      input: row.input,
      catalogId: String(row.catalog_id),
      networkUrl: networkUrlOf(list.kind, row.ref_slug),
      lastCheckedAt: row.last_checked_at?.toISOString() ?? null,
      nextCheckAt: row.next_check_at.toISOString(),
      failedChecks: row.failed_checks,
      current: row.snapshot,
    })),
    nextCursor,
  };
}

/** What the list's checks cost in a period at most: every item checked at each turn of its schedule. */
export async function estimateWatchListCost(
  db: Queryable,
  accountId: number,
  watchListId: string,
  period: keyof (typeof checksPerPeriod)['day'],
) {
  const list = await requireWatchList(db, accountId, watchListId);
  const view = await viewOf(db, list);
  const checksPerItem = list.paused ? 0 : checksPerPeriod[list.check_every][period];
  return {
    watchListId: view.watchListId,
    period,
    items: view.items,
    paused: list.paused,
    checksPerItem,
    creditsPerCheck: watchListCheckCredits,
    totalCredits: view.items * checksPerItem * watchListCheckCredits,
  };
}
