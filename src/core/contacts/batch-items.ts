import type pg from 'pg';
import { AppError } from '../../errors.js';
import type { ContactTypes } from '../ports/contact-providers.js';
import type { Queryable } from '../../store/db.js';
import { charge, getBalance } from '../credits.js';
import { emitWebhookEvent } from '../webhooks/events.js';
import { priceOfFound, totalOf, type FoundContacts } from './reveal.js';

/**
 * The items of a batch contact task (`contact_batch_items`) as the batch job completes them:
 * each item's outcome stored and charged in one transaction, the task DONE when its last item
 * completes, FAILED when the balance cannot pay. Task and item states: batch.ts.
 */

export type TaskStatus = 'QUEUED' | 'RUNNING' | 'DONE' | 'FAILED';

export const batchReasons = {
  profileNotFound: 'profile not found',
  nothingFound: 'no contact found for the types asked',
  providersUnavailable: (attempts: number) =>
    `contact providers unavailable after ${attempts} attempts; nothing charged`,
  duplicate: (index: number) => `same profile as profileUrls[${index}]: looked up and charged once, there`,
  notPaid: (required: number, balance: number) =>
    `insufficient credits: the contacts found cost ${required} and the balance was ${balance}; contacts withheld, nothing charged`,
  stopped: 'not processed: the job stopped because the balance ran out; nothing charged',
  jobFailed: 'not processed: the job stopped after repeated internal errors; nothing charged',
} as const;

/** One claimed item's outcome, as the batch job decided it. */
export type ItemOutcome = { kind: 'looked-up'; found: FoundContacts } | { kind: 'not-found'; reason: string };

export interface ClaimedItem {
  accountId: number;
  taskId: number;
  itemIndex: number;
}

/**
 * Stores one item's outcome and charges for it, atomically. Locks the job row first, so the
 * completions of one job are serialised: the last one sees no PENDING item left and marks the
 * job DONE, and a completion after a stop sees FAILED. Returns false when the item was already
 * complete (another worker finished it after this one's lease ran out).
 */
export async function completeItem(tx: pg.PoolClient, item: ClaimedItem, outcome: ItemOutcome): Promise<boolean> {
  const task = await tx.query<{
    status: TaskStatus;
    get_work_emails: boolean;
    get_personal_emails: boolean;
    get_phone_numbers: boolean;
  }>(
    `SELECT status, get_work_emails, get_personal_emails, get_phone_numbers FROM contact_batch_tasks
      WHERE account_id = $1 AND id = $2 FOR UPDATE`,
    [item.accountId, item.taskId],
  );
  const job = task.rows[0];
  if (!job) return false;
  const current = await tx.query<{ status: string }>(
    'SELECT status FROM contact_batch_items WHERE account_id = $1 AND task_id = $2 AND item_index = $3 FOR UPDATE',
    [item.accountId, item.taskId, item.itemIndex],
  );
  if (current.rows[0]?.status !== 'PENDING') return false;

  if (job.status === 'FAILED') {
    await finishItem(tx, item, 'NOT_FOUND', null, 0, batchReasons.stopped);
  } else if (outcome.kind === 'not-found') {
    await finishItem(tx, item, 'NOT_FOUND', null, 0, outcome.reason);
  } else {
    const types: ContactTypes = {
      getWorkEmails: job.get_work_emails,
      getPersonalEmails: job.get_personal_emails,
      getPhoneNumbers: job.get_phone_numbers,
    };
    const amount = totalOf(priceOfFound(outcome.found, types));
    try {
      await charge(tx, item.accountId, amount, {
        unit: 'revealContact',
        reason: 'batch contact enrichment',
        reference: `batch:${item.taskId}`,
        idempotencyKey: `batch:${item.taskId}:${item.itemIndex}`,
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'insufficient_credits') throw error;
      // charge() refuses without an SQL error, so the transaction is still usable.
      const balance = await getBalance(tx, item.accountId);
      await finishItem(tx, item, 'NOT_FOUND', null, 0, batchReasons.notPaid(amount, balance));
      await stopTask(
        tx,
        item,
        `Stopped at profileUrls[${item.itemIndex}]: ${batchReasons.notPaid(amount, balance)}. Items not processed end NOT_FOUND; top up and submit them again.`,
      );
      return true;
    }
    const found = amount > 0;
    await finishItem(
      tx,
      item,
      found ? 'FOUND' : 'NOT_FOUND',
      found ? outcome.found : null,
      amount,
      found ? null : batchReasons.nothingFound,
    );
  }
  const finished = await tx.query(
    `UPDATE contact_batch_tasks t SET status = 'DONE', completed_at = now()
      WHERE t.account_id = $1 AND t.id = $2 AND t.status IN ('QUEUED', 'RUNNING')
        AND NOT EXISTS (SELECT 1 FROM contact_batch_items i WHERE i.account_id = $1 AND i.task_id = $2 AND i.status = 'PENDING')`,
    [item.accountId, item.taskId],
  );
  if (finished.rowCount) await emitBatchEvent(tx, item.accountId, item.taskId);
  return true;
}

async function finishItem(
  tx: Queryable,
  item: ClaimedItem,
  status: 'FOUND' | 'NOT_FOUND',
  found: FoundContacts | null,
  credits: number,
  reason: string | null,
): Promise<void> {
  await tx.query(
    `UPDATE contact_batch_items SET status = $4, work_emails = $5, personal_emails = $6, phone_numbers = $7, credits_charged = $8,
            reason = $9, lease_owner = NULL, lease_expires_at = NULL, not_before = NULL, completed_at = now()
      WHERE account_id = $1 AND task_id = $2 AND item_index = $3`,
    [
      item.accountId,
      item.taskId,
      item.itemIndex,
      status,
      found?.workEmails ?? [],
      found?.personalEmails ?? [],
      found?.phoneNumbers ?? [],
      credits,
      reason,
    ],
  );
}

async function stopTask(
  tx: Queryable,
  item: Pick<ClaimedItem, 'accountId' | 'taskId'>,
  failureReason: string,
  itemReason: string = batchReasons.stopped,
): Promise<void> {
  await tx.query(
    `UPDATE contact_batch_tasks SET status = 'FAILED', failure_reason = $3, completed_at = now() WHERE account_id = $1 AND id = $2`,
    [item.accountId, item.taskId, failureReason],
  );
  await tx.query(
    `UPDATE contact_batch_items SET status = 'NOT_FOUND', reason = $3, lease_owner = NULL, lease_expires_at = NULL, not_before = NULL,
            completed_at = now()
      WHERE account_id = $1 AND task_id = $2 AND status = 'PENDING'`,
    [item.accountId, item.taskId, itemReason],
  );
  await emitBatchEvent(tx, item.accountId, item.taskId);
}

/**
 * Ends a task that could not be completed (its job failed on every attempt): FAILED with the
 * reason, and its unprocessed items NOT_FOUND with nothing charged. Completed items keep their
 * results and charges. No effect on a task already DONE or FAILED.
 */
export async function failTask(
  tx: pg.PoolClient,
  task: { accountId: number; taskId: number },
  failureReason: string,
): Promise<void> {
  const locked = await tx.query<{ status: TaskStatus }>(
    'SELECT status FROM contact_batch_tasks WHERE account_id = $1 AND id = $2 FOR UPDATE',
    [task.accountId, task.taskId],
  );
  const status = locked.rows[0]?.status;
  if (status === undefined || status === 'DONE' || status === 'FAILED') return;
  await stopTask(tx, task, failureReason, batchReasons.jobFailed);
}

/** What an item reads as: a repeat reads as its original, without the charge. */
export const displayedItems = `
  SELECT i.item_index, i.profile_url, i.duplicate_of,
         CASE WHEN i.status = 'DUPLICATE' THEN o.status ELSE i.status END AS status,
         CASE WHEN i.status = 'DUPLICATE' THEN o.work_emails ELSE i.work_emails END AS work_emails,
         CASE WHEN i.status = 'DUPLICATE' THEN o.personal_emails ELSE i.personal_emails END AS personal_emails,
         CASE WHEN i.status = 'DUPLICATE' THEN o.phone_numbers ELSE i.phone_numbers END AS phone_numbers,
         i.credits_charged,
         i.reason
    FROM contact_batch_items i
    LEFT JOIN contact_batch_items o
      ON i.status = 'DUPLICATE' AND o.account_id = i.account_id AND o.task_id = i.task_id AND o.item_index = i.duplicate_of
   WHERE i.account_id = $1 AND i.task_id = $2`;

export interface BatchStats {
  total: number;
  processed: number;
  found: number;
  notFound: number;
  creditsCharged: number;
}

export async function batchStats(db: Queryable, accountId: number, taskId: number): Promise<BatchStats> {
  const result = await db.query<{
    total: number;
    processed: number;
    found: number;
    not_found: number;
    credits: number;
  }>(
    `SELECT count(*)::int AS total,
            count(*) FILTER (WHERE d.status <> 'PENDING')::int AS processed,
            count(*) FILTER (WHERE d.status = 'FOUND')::int AS found,
            count(*) FILTER (WHERE d.status = 'NOT_FOUND')::int AS not_found,
            coalesce(sum(d.credits_charged), 0)::int AS credits
       FROM (${displayedItems}) d`,
    [accountId, taskId],
  );
  const s = result.rows[0] as { total: number; processed: number; found: number; not_found: number; credits: number };
  return { total: s.total, processed: s.processed, found: s.found, notFound: s.not_found, creditsCharged: s.credits };
}

/**
 * contacts.batch.completed or contacts.batch.failed, in the transaction that ends the task: what
 * pollBatchContactEnrichment answers without its pages of results (they hold people's contact
 * details, and can be long: read them with that operation).
 */
export async function emitBatchEvent(tx: Queryable, accountId: number, taskId: number): Promise<void> {
  const task = await tx.query<{ status: TaskStatus; failure_reason: string | null }>(
    'SELECT status, failure_reason FROM contact_batch_tasks WHERE account_id = $1 AND id = $2',
    [accountId, taskId],
  );
  const row = task.rows[0];
  if (row?.status !== 'DONE' && row?.status !== 'FAILED') return;
  await emitWebhookEvent(tx, accountId, row.status === 'DONE' ? 'contacts.batch.completed' : 'contacts.batch.failed', {
    taskId: String(taskId),
    status: row.status,
    failureReason: row.failure_reason,
    overallStats: await batchStats(tx, accountId, taskId),
  });
}
