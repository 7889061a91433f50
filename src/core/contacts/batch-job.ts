import { z } from 'zod';
import { accountOf, defineJob, runAgainAfter, type JobRun, type RunAgain } from '../../job-queue/index.js';
import type { ContactTypes } from '../ports/contact-providers.js';
import type { Queryable } from '../../store/db.js';
import { batchReasons, completeItem, failTask, type ClaimedItem, type ItemOutcome } from './batch-items.js';
import { loadPeopleForLookup } from './lookup.js';
import { valuesOf } from './reveal.js';
import type { DbConfigDeps, ServicesDeps } from '../deps.js';

/**
 * The job of one batch contact task, run by the one job worker like every other job (lease,
 * heartbeat, abort signal, retries). It works in rounds: each round claims up to
 * CONTACT_BATCH_CLAIM_SIZE of the task's PENDING items with FOR UPDATE SKIP LOCKED and holds
 * them under an item lease of CONTACT_BATCH_LEASE_SECONDS, so that two runs of one task (a
 * lease taken over) never take the same item; looks their contacts up through the provider
 * waterfall with the job's abort signal; and completes each item (result stored, charge taken
 * under its idempotency key) in one transaction (batch-items.ts). Items of a process that died
 * are claimed again once their item lease runs out.
 *
 * When every provider fails for an item, it goes back to PENDING with a growing delay, and ends
 * NOT_FOUND after `maxItemAttempts` claims (crashed claims count too). When nothing can be
 * claimed yet (items waiting for such a delay, or for a dead worker's lease), the job goes back
 * to the queue until then instead of holding a worker.
 *
 * Stopping (or losing the job lease) aborts the lookup in flight, HTTP requests included; the
 * round's items are handed back at once, their claim not counted.
 */

export const maxItemAttempts = 5;

export const batchContactsJob = defineJob({
  kind: 'contacts.batch',
  payload: z.object({ taskId: z.number().int().positive() }),
  maxAttempts: 5,
  run: (run, context: DbConfigDeps & ServicesDeps<'contactWaterfall'>) => runBatchTask(context, run),
  exhausted: (job, error, context: DbConfigDeps & ServicesDeps<'contactWaterfall'>) =>
    context.db.transaction((tx) =>
      failTask(
        tx,
        { accountId: accountOf(job), taskId: job.payload.taskId },
        `The job stopped after repeated internal errors (${error.slice(0, 200)}). Items not processed end NOT_FOUND with nothing charged; submit them again.`,
      ),
    ),
});

export interface RoundSettings {
  claimSize: number;
  leaseSeconds: number;
  /** Whose claim it is: one run of the job. */
  owner: string;
  signal?: AbortSignal;
}

interface Task {
  accountId: number;
  taskId: number;
}

async function runBatchTask(
  context: DbConfigDeps & ServicesDeps<'contactWaterfall'>,
  run: JobRun<{ taskId: number }>,
): Promise<void | RunAgain> {
  const task: Task = { accountId: accountOf(run.job), taskId: run.job.payload.taskId };
  const settings: RoundSettings = {
    claimSize: context.config.CONTACT_BATCH_CLAIM_SIZE,
    leaseSeconds: context.config.CONTACT_BATCH_LEASE_SECONDS,
    owner: `${run.workerId}/job-${run.job.id}`,
    signal: run.signal,
  };
  let processed = 0;
  try {
    for (;;) {
      run.checkpoint();
      const claimed = await runBatchRound(context, task, settings);
      if (claimed > 0) {
        processed += claimed;
        await run.progress({ itemsThisRun: processed });
        continue;
      }
      const waitMs = await msUntilClaimable(context.db.pool, task);
      // No PENDING item left: the last completion marked the task DONE (or a charge marked it FAILED).
      if (waitMs === null) return;
      return runAgainAfter(waitMs);
    }
  } catch (error) {
    // Whatever stopped the run, its items need not wait out their lease; a clean stop does not count the claim.
    await releaseItems(context.db.pool, task, settings.owner, run.signal.aborted).catch(() => undefined);
    throw error;
  }
}

interface ClaimedRow {
  item_index: number;
  person_id: number | null;
  attempts: number;
}

/**
 * One round on one task: claim, look up, complete. Returns how many items it claimed.
 * Exported for tests that drive rounds by hand.
 */
export async function runBatchRound(
  context: DbConfigDeps & ServicesDeps<'contactWaterfall'>,
  task: Task,
  settings: RoundSettings,
): Promise<number> {
  const claimed = await context.db.pool.query<ClaimedRow>(
    `WITH picked AS (
       SELECT account_id, task_id, item_index FROM contact_batch_items
        WHERE account_id = $1 AND task_id = $2 AND status = 'PENDING'
          AND (lease_expires_at IS NULL OR lease_expires_at < now())
          AND (not_before IS NULL OR not_before <= now())
        ORDER BY item_index
        LIMIT $3
        FOR UPDATE SKIP LOCKED)
     UPDATE contact_batch_items i
        SET lease_owner = $4, lease_expires_at = now() + make_interval(secs => $5), attempts = i.attempts + 1
       FROM picked
      WHERE i.account_id = picked.account_id AND i.task_id = picked.task_id AND i.item_index = picked.item_index
     RETURNING i.item_index, i.person_id, i.attempts`,
    [task.accountId, task.taskId, settings.claimSize, settings.owner, settings.leaseSeconds],
  );
  if (claimed.rows.length === 0) return 0;
  await processItems(
    context,
    task,
    settings,
    claimed.rows.sort((a, b) => a.item_index - b.item_index),
  );
  return claimed.rows.length;
}

async function processItems(
  context: DbConfigDeps & ServicesDeps<'contactWaterfall'>,
  task: Task,
  settings: RoundSettings,
  rows: ClaimedRow[],
): Promise<void> {
  const state = await context.db.pool.query<{
    status: string;
    get_work_emails: boolean;
    get_personal_emails: boolean;
    get_phone_numbers: boolean;
  }>(
    `UPDATE contact_batch_tasks SET status = CASE WHEN status = 'QUEUED' THEN 'RUNNING' ELSE status END,
            started_at = coalesce(started_at, now())
      WHERE account_id = $1 AND id = $2
     RETURNING status, get_work_emails, get_personal_emails, get_phone_numbers`,
    [task.accountId, task.taskId],
  );
  const current = state.rows[0];
  const outcomes = new Map<number, ItemOutcome | 'retry'>();
  if (current && current.status !== 'FAILED') {
    const types: ContactTypes = {
      getWorkEmails: current.get_work_emails,
      getPersonalEmails: current.get_personal_emails,
      getPhoneNumbers: current.get_phone_numbers,
    };
    const personIds = rows.map((r) => r.person_id).filter((id): id is number => id !== null);
    const people = await loadPeopleForLookup(context.db.pool, personIds);
    // Aborts (throws) when the job must stop: the items go back untouched, nothing was charged.
    const results = await context.services.contactWaterfall.reveal(people, types, settings.signal);
    for (const row of rows) {
      const result = row.person_id === null ? undefined : results.get(row.person_id);
      if (!result) outcomes.set(row.item_index, { kind: 'not-found', reason: batchReasons.profileNotFound });
      else if (result.unavailable && row.attempts < maxItemAttempts) outcomes.set(row.item_index, 'retry');
      else if (result.unavailable)
        outcomes.set(row.item_index, { kind: 'not-found', reason: batchReasons.providersUnavailable(row.attempts) });
      else outcomes.set(row.item_index, { kind: 'looked-up', found: valuesOf(result) });
    }
  }
  // What was looked up is stored even if the job is asked to stop now: the providers were asked (and may have charged us).
  for (const row of rows) {
    const item: ClaimedItem = { accountId: task.accountId, taskId: task.taskId, itemIndex: row.item_index };
    const outcome = outcomes.get(row.item_index) ?? { kind: 'not-found', reason: batchReasons.stopped };
    if (outcome === 'retry') {
      await context.db.pool.query(
        `UPDATE contact_batch_items SET lease_owner = NULL, lease_expires_at = NULL,
                not_before = now() + make_interval(secs => least(60, power(2, attempts)))
          WHERE account_id = $1 AND task_id = $2 AND item_index = $3 AND status = 'PENDING' AND lease_owner = $4`,
        [item.accountId, item.taskId, item.itemIndex, settings.owner],
      );
      continue;
    }
    await context.db.transaction((tx) => completeItem(tx, item, outcome));
  }
}

/** Milliseconds until an item of the task can be claimed (0: now), or null when none is PENDING. */
async function msUntilClaimable(db: Queryable, task: Task): Promise<number | null> {
  const result = await db.query<{ pending: number; wait_ms: number | null }>(
    `SELECT count(*)::int AS pending,
            greatest(0, extract(epoch FROM min(greatest(coalesce(lease_expires_at, now()), coalesce(not_before, now()))) - now()) * 1000)::float8 AS wait_ms
       FROM contact_batch_items
      WHERE account_id = $1 AND task_id = $2 AND status = 'PENDING'`,
    [task.accountId, task.taskId],
  );
  const row = result.rows[0];
  return row && row.pending > 0 ? (row.wait_ms ?? 0) : null;
}

/** Hands this run's claimed items back; `uncount` takes back the claim's attempt (a clean stop is not an attempt). */
async function releaseItems(db: Queryable, task: Task, owner: string, uncount: boolean): Promise<void> {
  await db.query(
    `UPDATE contact_batch_items SET lease_owner = NULL, lease_expires_at = NULL,
            attempts = CASE WHEN $4 THEN greatest(attempts - 1, 0) ELSE attempts END
      WHERE account_id = $1 AND task_id = $2 AND lease_owner = $3 AND status = 'PENDING'`,
    [task.accountId, task.taskId, owner, uncount],
  );
}
