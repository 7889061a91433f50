import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AppContext } from '../../context.js';
import { loadPeopleForLookup } from '../../providers/contacts/index.js';
import { contactServices } from '../../providers/contacts/services.js';
import type { ContactTypes } from '../../providers/contacts/types.js';
import { grantMonthlyFreeCredits } from '../accounts.js';
import { batchReasons, completeItem, type ClaimedItem, type ItemOutcome } from './batch.js';
import { valuesOf } from './reveal.js';

/**
 * The worker of batch contact enrichment (its own small loop, apart from the generic job
 * worker of src/jobs). Each round it claims up to CONTACT_BATCH_CLAIM_SIZE PENDING items with
 * FOR UPDATE SKIP LOCKED, so any number of workers in any number of processes share the work
 * without taking an item twice, and holds them under a lease of CONTACT_BATCH_LEASE_SECONDS:
 * items of a process that died are claimed again once their lease runs out. Each item is
 * completed (result stored, charge taken under its idempotency key) in one transaction.
 * When every provider fails for an item, it goes back to PENDING with a growing delay, and
 * ends NOT_FOUND after `maxAttempts` claims (crashed claims count too).
 */
export interface BatchWorkerOptions {
  claimSize?: number;
  leaseSeconds?: number;
  /** Pause between rounds that found nothing to do. */
  pollIntervalMs?: number;
  workerId?: string;
}

export interface BatchWorker {
  /** Stops claiming, lets the items in hand finish (bounded by the provider timeouts), then resolves. */
  stop(): Promise<void>;
}

export const maxAttempts = 5;

export function startBatchContactWorker(context: AppContext, options: BatchWorkerOptions = {}): BatchWorker {
  const settings = {
    claimSize: options.claimSize ?? context.config.CONTACT_BATCH_CLAIM_SIZE,
    leaseSeconds: options.leaseSeconds ?? context.config.CONTACT_BATCH_LEASE_SECONDS,
    workerId: options.workerId ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
  };
  const pollIntervalMs = options.pollIntervalMs ?? context.config.JOB_POLL_INTERVAL_MS;
  const log = context.log.child({ component: 'batch-contact-worker', workerId: settings.workerId });
  const idle = new AbortController();
  let stopping = false;

  const loop = (async () => {
    while (!stopping) {
      let claimed = 0;
      try {
        claimed = await runBatchContactRound(context, settings);
      } catch (error) {
        log.error({ err: error }, 'batch contact round failed; retrying after a pause');
      }
      if (stopping) break;
      if (claimed === 0) await sleep(pollIntervalMs, undefined, { signal: idle.signal }).catch(() => undefined);
    }
  })();

  return {
    stop: async () => {
      stopping = true;
      idle.abort();
      await loop;
    },
  };
}

interface ClaimedRow {
  account_id: number;
  task_id: number;
  item_index: number;
  person_id: number | null;
  attempts: number;
}

/** One round: claim, look up, complete. Returns how many items it claimed. Exported for tests that drive rounds by hand. */
export async function runBatchContactRound(
  context: AppContext,
  settings: { claimSize: number; leaseSeconds: number; workerId: string },
): Promise<number> {
  const claimed = await context.db.pool.query<ClaimedRow>(
    `WITH picked AS (
       SELECT account_id, task_id, item_index FROM contact_batch_items
        WHERE status = 'PENDING'
          AND (lease_expires_at IS NULL OR lease_expires_at < now())
          AND (not_before IS NULL OR not_before <= now())
        ORDER BY task_id, item_index
        LIMIT $1
        FOR UPDATE SKIP LOCKED)
     UPDATE contact_batch_items i
        SET lease_owner = $2, lease_expires_at = now() + make_interval(secs => $3), attempts = i.attempts + 1
       FROM picked
      WHERE i.account_id = picked.account_id AND i.task_id = picked.task_id AND i.item_index = picked.item_index
     RETURNING i.account_id, i.task_id, i.item_index, i.person_id, i.attempts`,
    [settings.claimSize, settings.workerId, settings.leaseSeconds],
  );
  if (claimed.rows.length === 0) return 0;

  const byTask = new Map<string, ClaimedRow[]>();
  for (const row of claimed.rows) {
    const key = `${row.account_id}:${row.task_id}`;
    byTask.set(key, [...(byTask.get(key) ?? []), row]);
  }
  for (const rows of byTask.values()) await processTaskItems(context, settings.workerId, rows);
  return claimed.rows.length;
}

async function processTaskItems(context: AppContext, workerId: string, rows: ClaimedRow[]): Promise<void> {
  const first = rows[0] as ClaimedRow;
  const task = await context.db.pool.query<{
    status: string; get_work_emails: boolean; get_personal_emails: boolean; get_phone_numbers: boolean; plan: string | null;
  }>(
    `UPDATE contact_batch_tasks t SET status = CASE WHEN t.status = 'QUEUED' THEN 'RUNNING' ELSE t.status END,
            started_at = coalesce(t.started_at, now())
      WHERE t.account_id = $1 AND t.id = $2
     RETURNING t.status, t.get_work_emails, t.get_personal_emails, t.get_phone_numbers,
               (SELECT a.plan FROM accounts a WHERE a.id = t.account_id) AS plan`,
    [first.account_id, first.task_id],
  );
  const job = task.rows[0];
  const outcomes = new Map<number, ItemOutcome | 'retry'>();
  if (job && job.status !== 'FAILED') {
    const types: ContactTypes = {
      getWorkEmails: job.get_work_emails, getPersonalEmails: job.get_personal_emails, getPhoneNumbers: job.get_phone_numbers,
    };
    // The free plan's monthly credits arrive on first use in a month, for background charges too.
    if (job.plan === 'free') {
      await context.db.transaction((tx) => grantMonthlyFreeCredits(tx, first.account_id, 'free', context.config.FREE_PLAN_MONTHLY_CREDITS));
    }
    const personIds = rows.map((r) => r.person_id).filter((id): id is number => id !== null);
    const people = await loadPeopleForLookup(context.db.pool, personIds);
    const results = await contactServices(context).contactWaterfall.reveal(people, types);
    for (const row of rows) {
      const result = row.person_id === null ? undefined : results.get(row.person_id);
      if (!result) outcomes.set(row.item_index, { kind: 'not-found', reason: batchReasons.profileNotFound });
      else if (result.unavailable && row.attempts < maxAttempts) outcomes.set(row.item_index, 'retry');
      else if (result.unavailable) outcomes.set(row.item_index, { kind: 'not-found', reason: batchReasons.providersUnavailable(row.attempts) });
      else outcomes.set(row.item_index, { kind: 'looked-up', found: valuesOf(result) });
    }
  }
  for (const row of rows) {
    const item: ClaimedItem = { accountId: row.account_id, taskId: row.task_id, itemIndex: row.item_index };
    const outcome = outcomes.get(row.item_index) ?? { kind: 'not-found', reason: batchReasons.stopped };
    if (outcome === 'retry') {
      await context.db.pool.query(
        `UPDATE contact_batch_items SET lease_owner = NULL, lease_expires_at = NULL,
                not_before = now() + make_interval(secs => least(60, power(2, attempts)))
          WHERE account_id = $1 AND task_id = $2 AND item_index = $3 AND status = 'PENDING' AND lease_owner = $4`,
        [item.accountId, item.taskId, item.itemIndex, workerId],
      );
      continue;
    }
    await context.db.transaction((tx) => completeItem(tx, item, outcome));
  }
}
