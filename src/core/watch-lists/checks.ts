import { createHash } from 'node:crypto';
import type pg from 'pg';
import { watchListCheckCredits } from '../../../operations/schemas/watch-lists.js';
import { AppError } from '../../errors.js';
import { accountOf, defineJob, runAgainAfter, type JobRun, type RunAgain } from '../../job-queue/index.js';
import type { Database } from '../../store/db.js';
import { capResetsAt, charge, spendWith, spentToday, type SpendingKey } from '../credits.js';
import type { DbDeps, ServicesDeps } from '../deps.js';
import { NetworkSourceError } from '../ports/network-source.js';
import { enqueueMail } from '../audiences/mail.js';
import { emitWebhookEvent } from '../webhooks/events.js';
import {
  changeEvents,
  changeView,
  describeChange,
  type ChangeRow,
  companyChanges,
  companySnapshot,
  personChanges,
  personSnapshot,
  type CompanySnapshot,
  type DetectedChange,
  type PersonSnapshot,
  type Snapshot,
} from './changes.js';
import { checkJobKind, checkPeriodMs, type WatchListRow } from './watch-lists.js';

/**
 * The check job of a watch list: one job per list that checks the items due (on the network
 * clock) through the live source, a batch at a time, and then waits, queued, until the next item
 * is due. Each batch settles in ONE transaction, which re-reads its items locked and keeps only
 * those still due as they were when fetched: the charge (one credit per item checked, ledger key
 * of the batch), the changes, the webhook events (through the outbox), the new snapshots and the
 * next check times commit together or not at all. A process killed before the commit leaves the
 * items due, and the next attempt checks them again (the simulated network answers the same at
 * the same time); one killed after it finds them moved on. So nothing is charged, recorded or
 * announced twice, and nothing is lost.
 *
 * A fetch that fails (outage, timeout, a record the network no longer has) is not charged and is
 * never a change: the item is retried later, backing off, and keeps its last snapshot. A balance
 * that cannot pay a batch pauses the list with the reason; updateWatchList with paused false
 * resumes it.
 */

export const watchListCheckUnit = 'watchListCheck';

export const checkBatchSize = 100;
export const checkFetchConcurrency = 8;
/** Longest a list's job waits between turns in real time, so that a clock or list changed meanwhile is seen. */
const longestWaitMs = 60_000;
const firstRetryMs = 3_600_000;

type CheckDeps = DbDeps & ServicesDeps<'networkSource' | 'networkClock'>;

export const watchListCheckJob = defineJob({
  ...checkJobKind,
  run: (run, context: CheckDeps) => checkDueItems(context, run),
  // A list whose checks keep failing is paused with the reason, never left unchecked without a word.
  exhausted: async (job, error, context: CheckDeps) => {
    await context.db.pool.query(
      `UPDATE watch_lists SET paused = true, paused_reason = $3, updated_at = now() WHERE account_id = $1 AND id = $2`,
      [accountOf(job), job.payload.watchListId, `checks stopped after repeated errors (${error.slice(0, 200)})`],
    );
  },
});

interface DueItem {
  id: number;
  catalog_id: number;
  input: string;
  ref_slug: string | null;
  ref_network_id: number | null;
  snapshot: Snapshot | null;
  next_check_at: Date;
  failed_checks: number;
}

type Outcome = { item: DueItem; snapshot: Snapshot } | { item: DueItem; failure: string };

async function checkDueItems(context: CheckDeps, run: JobRun<{ watchListId: number }>): Promise<void | RunAgain> {
  const accountId = accountOf(run.job);
  const { watchListId } = run.job.payload;
  const clock = context.services.networkClock;
  for (;;) {
    run.checkpoint();
    const list = await findList(context.db.pool, accountId, watchListId);
    if (!list || list.paused) return;
    const now = clock.now();
    const key = await spendingKeyOf(context.db.pool, list);
    // A capped key's checks take what is left of its day, and wait for the next one (midnight UTC) when none is.
    const headroom =
      key?.dailyCreditCap != null
        ? key.dailyCreditCap - (await spentToday(context.db.pool, accountId, key.keyId))
        : null;
    if (headroom !== null && headroom < watchListCheckCredits) return untilCapResets();
    const due = await context.db.pool.query<DueItem>(
      `SELECT id, catalog_id, input, ref_slug, ref_network_id, snapshot, next_check_at, failed_checks FROM watch_list_items
        WHERE account_id = $1 AND watch_list_id = $2 AND next_check_at <= $3 ORDER BY next_check_at, id LIMIT $4`,
      [
        accountId,
        watchListId,
        now.toISOString(),
        headroom === null ? checkBatchSize : Math.min(checkBatchSize, Math.floor(headroom / watchListCheckCredits)),
      ],
    );
    if (due.rows.length === 0) {
      const next = await context.db.pool.query<{ at: Date | null }>(
        'SELECT min(next_check_at) AS at FROM watch_list_items WHERE account_id = $1 AND watch_list_id = $2',
        [accountId, watchListId],
      );
      await digestIfDue(context.db, list, now);
      const at = next.rows[0]?.at;
      // No items: the job ends; adding items queues it again.
      if (!at) return;
      return runAgainAfter(Math.min(clock.realMsUntil(at), longestWaitMs));
    }
    const outcomes = await fetchAll(context, list.kind, due.rows, run.signal);
    run.checkpoint();
    const settled = await spendWith(key, () => settleBatch(context.db, list, outcomes, now));
    await run.progress({ lastCheckId: settled.checkId, checked: settled.checked, changes: settled.changes });
    if (settled.capped) return untilCapResets();
    if (settled.stopped) return;
  }
}

const digestDayMs = 86_400_000;

/**
 * Mails the list's digest when a day (on the network clock) has passed since the last: the changes detected in it, if any.
 * The mail is queued in the transaction that moves the list's digest mark, so a day is digested once, even by two attempts.
 */
async function digestIfDue(db: Database, list: WatchListRow, now: Date): Promise<void> {
  if (!list.digest_email) return;
  if (list.digest_through === null) {
    await db.pool.query('UPDATE watch_lists SET digest_through = $3 WHERE account_id = $1 AND id = $2', [
      list.account_id,
      list.id,
      now.toISOString(),
    ]);
    return;
  }
  if (now.getTime() - list.digest_through.getTime() < digestDayMs) return;
  await db.transaction(async (tx) => {
    const locked = await tx.query<WatchListRow>(
      'SELECT * FROM watch_lists WHERE account_id = $1 AND id = $2 FOR UPDATE',
      [list.account_id, list.id],
    );
    const row = locked.rows[0];
    if (!row?.digest_email || row.digest_through?.getTime() !== list.digest_through?.getTime()) return;
    const from = row.digest_through as Date;
    const found = await tx.query<ChangeRow>(
      `SELECT c.id, c.watch_list_id, c.item_id, c.check_id, c.kind, c.before, c.after, c.detected_at,
              i.input, i.catalog_id, i.ref_slug
         FROM watch_list_changes c
         LEFT JOIN watch_list_items i ON i.account_id = c.account_id AND i.watch_list_id = c.watch_list_id AND i.id = c.item_id
        WHERE c.account_id = $1 AND c.watch_list_id = $2 AND c.detected_at > $3 AND c.detected_at <= $4
        ORDER BY c.id`,
      [row.account_id, row.id, from.toISOString(), now.toISOString()],
    );
    await tx.query('UPDATE watch_lists SET digest_through = $3 WHERE account_id = $1 AND id = $2', [
      row.account_id,
      row.id,
      now.toISOString(),
    ]);
    const total = found.rows.length;
    if (total === 0) return;
    const byKind: Record<string, number> = {};
    for (const change of found.rows) byKind[change.kind] = (byKind[change.kind] ?? 0) + 1;
    await enqueueMail(tx, row.account_id, {
      to: row.digest_email,
      // Caller text (the list's name) stays out of the subject.
      subject: `Your watch list ${row.id} found ${total} ${total === 1 ? 'change' : 'changes'}`,
      template: {
        kind: 'watch-list-digest',
        watchListId: row.id,
        watchListName: row.name,
        from: from.toISOString(),
        to: now.toISOString(),
        total,
        byKind,
        lines: found.rows
          .slice(0, 50)
          .map(
            (change) =>
              `${change.input ?? `item ${change.item_id}`}: ${change.kind.replace(/_/g, ' ')}, ${describeChange(change.kind, change.before, change.after)}`,
          ),
      },
    });
  });
}

/** The key the list was created with, as its charges spend with it (null: none, or the key is gone). */
async function spendingKeyOf(db: pg.Pool, list: WatchListRow): Promise<SpendingKey | null> {
  if (list.api_key_id === null) return null;
  const found = await db.query<{ daily_credit_cap: number | null }>(
    'SELECT daily_credit_cap FROM api_keys WHERE account_id = $1 AND id = $2',
    [list.account_id, list.api_key_id],
  );
  const row = found.rows[0];
  return row ? { accountId: list.account_id, keyId: list.api_key_id, dailyCreditCap: row.daily_credit_cap } : null;
}

/** Waits (in real time, as caps reset) for the next UTC day, looking again at least every longestWaitMs. */
function untilCapResets(): RunAgain {
  return runAgainAfter(Math.min(capResetsAt().getTime() - Date.now(), longestWaitMs));
}

async function findList(db: pg.Pool, accountId: number, id: number): Promise<WatchListRow | null> {
  const found = await db.query<WatchListRow>('SELECT * FROM watch_lists WHERE account_id = $1 AND id = $2', [
    accountId,
    id,
  ]);
  return found.rows[0] ?? null;
}

async function fetchAll(
  context: CheckDeps,
  kind: 'people' | 'companies',
  items: DueItem[],
  signal: AbortSignal,
): Promise<Outcome[]> {
  const source = context.services.networkSource;
  const outcomes: Outcome[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      const item = items[index] as DueItem;
      try {
        if (kind === 'people') {
          const profile = await source.fetchProfile({ slug: item.ref_slug, userId: item.ref_network_id }, signal);
          outcomes[index] = profile
            ? { item, snapshot: personSnapshot(profile) }
            : { item, failure: 'the network has no such profile now' };
        } else {
          const company = await source.fetchCompany({ slug: item.ref_slug, orgId: item.ref_network_id }, signal);
          outcomes[index] = company
            ? { item, snapshot: companySnapshot(company) }
            : { item, failure: 'the network has no such company now' };
        }
      } catch (error) {
        if (signal.aborted) throw error;
        if (!(error instanceof NetworkSourceError)) throw error;
        outcomes[index] = { item, failure: `${error.kind}: ${error.message}`.slice(0, 300) };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(checkFetchConcurrency, items.length) }, worker));
  return outcomes;
}

interface Settled {
  checkId: string | null;
  checked: number;
  changes: number;
  /** The list went away, was paused, or could not pay: the job ends. */
  stopped: boolean;
  /** The key's daily cap could not pay the batch: nothing settled, the items stay due for its next day. */
  capped?: boolean;
}

async function settleBatch(db: Database, list: WatchListRow, outcomes: Outcome[], now: Date): Promise<Settled> {
  const accountId = list.account_id;
  try {
    return await db.transaction(async (tx) => {
      const current = await tx.query<WatchListRow>(
        'SELECT * FROM watch_lists WHERE account_id = $1 AND id = $2 FOR UPDATE',
        [accountId, list.id],
      );
      const row = current.rows[0];
      if (!row || row.paused) return { checkId: null, checked: 0, changes: 0, stopped: true };
      // Only items still due as fetched: another attempt, or a removal, may have settled them meanwhile.
      const still = await tx.query<{ id: number; next_check_at: Date }>(
        `SELECT id, next_check_at FROM watch_list_items WHERE account_id = $1 AND watch_list_id = $2 AND id = ANY($3::bigint[])
          FOR UPDATE`,
        [accountId, list.id, outcomes.map((o) => o.item.id)],
      );
      const dueAt = new Map(still.rows.map((r) => [r.id, r.next_check_at.getTime()]));
      const live = outcomes.filter((o) => dueAt.get(o.item.id) === o.item.next_check_at.getTime());
      if (live.length === 0) return { checkId: null, checked: 0, changes: 0, stopped: false };
      const succeeded = live.filter((o): o is Extract<Outcome, { snapshot: Snapshot }> => 'snapshot' in o);
      const failed = live.filter((o): o is Extract<Outcome, { failure: string }> => 'failure' in o);
      const found = succeeded.map((o) => ({ outcome: o, changes: changesOf(row, o.item.snapshot, o.snapshot) }));
      const changeCount = found.reduce((sum, f) => sum + f.changes.length, 0);
      const credits = succeeded.length * watchListCheckCredits;
      const check = await tx.query<{ id: number }>(
        `INSERT INTO watch_list_checks (account_id, watch_list_id, items_checked, items_failed, changes_found, credits_charged, checked_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
        [accountId, list.id, succeeded.length, failed.length, changeCount, credits, now.toISOString()],
      );
      const checkId = (check.rows[0] as { id: number }).id;
      await charge(tx, accountId, credits, {
        unit: watchListCheckUnit,
        reason: `watch list ${list.id}: ${succeeded.length} items checked`,
        reference: `watch-list-check:${checkId}`,
        idempotencyKey: batchKey(list.id, live),
      });
      const period = checkPeriodMs[row.check_every];
      for (const { outcome, changes } of found) {
        for (const change of changes) {
          const inserted = await tx.query<{ id: number }>(
            `INSERT INTO watch_list_changes (account_id, watch_list_id, item_id, check_id, kind, before, after, detected_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
            [
              accountId,
              list.id,
              outcome.item.id,
              checkId,
              change.kind,
              JSON.stringify(change.before),
              JSON.stringify(change.after),
              now.toISOString(),
            ],
          );
          const event = changeEvents[change.kind];
          if (event) {
            const view = changeView(row.kind, {
              id: (inserted.rows[0] as { id: number }).id,
              watch_list_id: list.id,
              item_id: outcome.item.id,
              check_id: checkId,
              kind: change.kind,
              before: change.before,
              after: change.after,
              detected_at: now,
              input: outcome.item.input,
              catalog_id: outcome.item.catalog_id,
              ref_slug: outcome.item.ref_slug,
            });
            await emitWebhookEvent(tx, accountId, event, { ...view, watchListName: row.name });
          }
        }
        await tx.query(
          `UPDATE watch_list_items SET snapshot = $4, last_checked_at = $5, next_check_at = $6, failed_checks = 0, last_failure = NULL
            WHERE account_id = $1 AND watch_list_id = $2 AND id = $3`,
          [
            accountId,
            list.id,
            outcome.item.id,
            JSON.stringify(outcome.snapshot),
            now.toISOString(),
            new Date(now.getTime() + period).toISOString(),
          ],
        );
      }
      for (const outcome of failed) {
        const retryMs = Math.min(period, firstRetryMs * 2 ** Math.min(outcome.item.failed_checks, 10));
        await tx.query(
          `UPDATE watch_list_items SET failed_checks = failed_checks + 1, last_failure = $4, next_check_at = $5
            WHERE account_id = $1 AND watch_list_id = $2 AND id = $3`,
          [accountId, list.id, outcome.item.id, outcome.failure, new Date(now.getTime() + retryMs).toISOString()],
        );
      }
      return { checkId: String(checkId), checked: succeeded.length, changes: changeCount, stopped: false };
    });
  } catch (error) {
    // The key spent the rest of its day meanwhile (its own requests): the batch waits for the next day, unpaid and unsettled.
    if (error instanceof AppError && error.code === 'key_spend_cap')
      return { checkId: null, checked: 0, changes: 0, stopped: false, capped: true };
    if (!(error instanceof AppError) || error.code !== 'insufficient_credits') throw error;
    await db.pool.query(
      `UPDATE watch_lists SET paused = true, paused_reason = $3, updated_at = now() WHERE account_id = $1 AND id = $2`,
      [accountId, list.id, `insufficient_credits: ${error.message}`.slice(0, 500)],
    );
    return { checkId: null, checked: 0, changes: 0, stopped: true };
  }
}

/** The items of a batch as they were due: the same batch settled again has the same ledger key. */
function batchKey(listId: number, outcomes: Outcome[]): string {
  const digest = createHash('sha256');
  for (const { item } of outcomes) digest.update(`${item.id}@${item.next_check_at.getTime()};`);
  return `watch-list-check:${listId}:${digest.digest('base64url').slice(0, 32)}`;
}

function changesOf(list: WatchListRow, before: Snapshot | null, after: Snapshot): DetectedChange[] {
  // The first check of an item records what the network says: nothing to compare with yet.
  if (!before) return [];
  return list.kind === 'people'
    ? personChanges(before as PersonSnapshot, after as PersonSnapshot)
    : companyChanges(before as CompanySnapshot, after as CompanySnapshot, list.headcount_change_threshold);
}
