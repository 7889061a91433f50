import type { Principal } from '../principal.js';
import { AppError, type FieldIssue } from '../../errors.js';
import { enqueue } from '../../job-queue/index.js';
import type { ContactTypes } from '../ports/contact-providers.js';
import type { ProfileRef } from '../ports/network-source.js';
import type { Queryable } from '../../store/db.js';
import { getBalance } from '../credits.js';
import {
  batchReasons,
  batchStats,
  displayedItems,
  emitBatchEvent,
  type BatchStats,
  type TaskStatus,
} from './batch-items.js';
import { batchContactsJob } from './batch-job.js';
import { parsePersonIdentifier } from './identifiers.js';
import { worstCaseOf, type FoundContacts } from './reveal.js';
import type { DbDeps, ServicesDeps } from '../deps.js';

/**
 * Batch contact enrichment: a durable task of up to 1,000 profiles, submitted here with its
 * job (one row of the job table, run by the one worker: batch-job.ts), processed item by item
 * (batch-items.ts) and read back here with a cursor.
 *
 * Task states
 *   QUEUED   accepted; no worker has claimed an item yet.
 *   RUNNING  a worker claimed an item; items complete one by one.
 *   DONE     no item is PENDING any more (each is FOUND or NOT_FOUND).
 *   FAILED   the balance could not pay for what an item found. The job stops there: that item
 *            and every item not yet processed end NOT_FOUND with a reason saying so, their
 *            contacts withheld and nothing charged for them; items completed before keep
 *            their results and charges. A job does not resume: submit the remaining profiles
 *            again after topping up. `failureReason` says what happened.
 *
 * Item states: PENDING → FOUND (at least one asked type found, and paid) or NOT_FOUND
 * (nothing found, profile unknown, providers unavailable after retries, or not paid; `reason`
 * says which). A profile repeated within one job is looked up and charged once; its repeats
 * show the same result with creditsCharged 0.
 *
 * Charging: per item, as it completes, per type found (work email 2, personal email 2,
 * phone 3), in the transaction that stores the item's result, under the ledger idempotency
 * key `batch:<taskId>:<itemIndex>`: an item is charged at most once whatever the restarts.
 * At submission, a balance below one item's worst case is refused with 402 (nothing could
 * be paid for); the balance never goes negative.
 */

type ItemStatus = 'PENDING' | 'FOUND' | 'NOT_FOUND';

export interface StartedBatch {
  taskId: string;
  status: TaskStatus;
  totalProfiles: number;
  maxCredits: number;
}

export async function startBatch(
  context: DbDeps & ServicesDeps<'cursors'>,
  principal: Principal,
  input: { profileUrls: string[]; enrichmentType: ContactTypes },
): Promise<StartedBatch> {
  const refs = parseAll(input.profileUrls);
  const types = input.enrichmentType;
  const perItem = worstCaseOf(types);
  const balance = await getBalance(context.db.pool, principal.accountId);
  if (balance < perItem) {
    throw new AppError(
      'insufficient_credits',
      `One profile of this job can cost up to ${perItem} credits and the balance is ${balance}. Nothing was submitted or charged.`,
      { details: { required: perItem, balance } },
    );
  }
  const personIds = await findPersonIds(context.db.pool, refs);
  const firstIndexOf = new Map<number, number>();
  const items = input.profileUrls.map((profileUrl, index) => {
    const personId = personIds[index] ?? null;
    if (personId === null)
      return { profileUrl, personId, duplicateOf: null, status: 'NOT_FOUND', reason: batchReasons.profileNotFound };
    const first = firstIndexOf.get(personId);
    if (first !== undefined)
      return { profileUrl, personId, duplicateOf: first, status: 'DUPLICATE', reason: batchReasons.duplicate(first) };
    firstIndexOf.set(personId, index);
    return { profileUrl, personId, duplicateOf: null, status: 'PENDING', reason: null };
  });
  const pending = items.filter((i) => i.status === 'PENDING').length;
  const status: TaskStatus = pending === 0 ? 'DONE' : 'QUEUED';

  const taskId = await context.db.transaction(async (tx) => {
    const task = await tx.query<{ id: number }>(
      `INSERT INTO contact_batch_tasks (account_id, status, get_work_emails, get_personal_emails, get_phone_numbers, total, completed_at)
       VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $2 = 'DONE' THEN now() END) RETURNING id`,
      [principal.accountId, status, types.getWorkEmails, types.getPersonalEmails, types.getPhoneNumbers, items.length],
    );
    const id = (task.rows[0] as { id: number }).id;
    await tx.query(
      `INSERT INTO contact_batch_items (account_id, task_id, item_index, profile_url, person_id, duplicate_of, status, reason, completed_at)
       SELECT $1, $2, t.ord - 1, t.url, t.person_id, t.duplicate_of, t.status, t.reason, CASE WHEN t.status = 'PENDING' THEN NULL ELSE now() END
         FROM unnest($3::text[], $4::bigint[], $5::integer[], $6::text[], $7::text[]) WITH ORDINALITY AS t(url, person_id, duplicate_of, status, reason, ord)`,
      [
        principal.accountId,
        id,
        items.map((i) => i.profileUrl),
        items.map((i) => i.personId),
        items.map((i) => i.duplicateOf),
        items.map((i) => i.status),
        items.map((i) => i.reason),
      ],
    );
    if (pending > 0) await enqueue(tx, batchContactsJob, { accountId: principal.accountId, payload: { taskId: id } });
    else await emitBatchEvent(tx, principal.accountId, id);
    return id;
  });
  return { taskId: String(taskId), status, totalProfiles: items.length, maxCredits: pending * perItem };
}

function parseAll(profileUrls: string[]): ProfileRef[] {
  const issues: FieldIssue[] = [];
  const refs = profileUrls.map((url, index) => {
    try {
      return parsePersonIdentifier(url, `profileUrls.${index}`);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      issues.push(
        ...((error.details?.issues as FieldIssue[] | undefined) ?? [
          { field: `profileUrls.${index}`, message: error.message },
        ]),
      );
      return {};
    }
  });
  if (issues.length) {
    const summary = issues
      .slice(0, 5)
      .map((i) => `${i.field}: ${i.message}`)
      .join('; ');
    throw new AppError('invalid_request', `Invalid request: ${summary}${issues.length > 5 ? '; ...' : ''}`, {
      details: { issues },
    });
  }
  return refs;
}

/** Catalog ids for many references in one query; null where nobody matches. */
async function findPersonIds(db: Queryable, refs: ProfileRef[]): Promise<Array<number | null>> {
  const result = await db.query<{ ord: number; by_user: number | null; by_slug: number | null }>(
    `SELECT r.ord,
            (SELECT p.id FROM people p WHERE r.user_id IS NOT NULL AND p.network_user_id = r.user_id ORDER BY p.id LIMIT 1) AS by_user,
            (SELECT p.id FROM people p WHERE r.slug IS NOT NULL AND p.network_slug = r.slug ORDER BY p.id LIMIT 1) AS by_slug
       FROM unnest($1::bigint[], $2::text[]) WITH ORDINALITY AS r(user_id, slug, ord)`,
    [refs.map((r) => r.userId ?? null), refs.map((r) => r.slug ?? null)],
  );
  const ids: Array<number | null> = refs.map(() => null);
  for (const row of result.rows) ids[row.ord - 1] = row.by_user ?? row.by_slug ?? null;
  return ids;
}

export interface BatchPage {
  taskId: string;
  status: TaskStatus;
  failureReason: string | null;
  overallStats: BatchStats;
  pageResults: Array<
    FoundContacts & { profileUrl: string; status: ItemStatus; creditsCharged: number; reason: string | null }
  >;
  nextCursor: string | null;
}

export async function pollBatch(
  context: DbDeps & ServicesDeps<'cursors'>,
  principal: Principal,
  input: { taskId: string; cursor?: string | null | undefined; pageSize: number },
): Promise<BatchPage> {
  const taskId = Number(input.taskId);
  const task = await context.db.pool.query<{ status: TaskStatus; failure_reason: string | null }>(
    'SELECT status, failure_reason FROM contact_batch_tasks WHERE account_id = $1 AND id = $2',
    [principal.accountId, taskId],
  );
  const row = task.rows[0];
  if (!row) throw new AppError('not_found', `Batch task ${input.taskId} not found.`);
  const pages = context.services.cursors.scope(principal.accountId, 'pollBatchContactEnrichment', { taskId });
  // The cursor holds the index of the next item to show.
  const from = pages.decode(input.cursor);
  const [overallStats, page] = await Promise.all([
    batchStats(context.db.pool, principal.accountId, taskId),
    context.db.pool.query<{
      item_index: number;
      profile_url: string;
      status: ItemStatus;
      work_emails: string[];
      personal_emails: string[];
      phone_numbers: string[];
      credits_charged: number;
      reason: string | null;
    }>(`${displayedItems} AND i.item_index >= $3 ORDER BY i.item_index LIMIT $4`, [
      principal.accountId,
      taskId,
      from,
      input.pageSize + 1,
    ]),
  ]);
  const { rows, nextCursor } = pages.page(page.rows, input.pageSize, (r) => r.item_index + 1);
  return {
    taskId: input.taskId,
    status: row.status,
    failureReason: row.failure_reason,
    overallStats,
    pageResults: rows.map((r) => ({
      profileUrl: r.profile_url,
      status: r.status,
      workEmails: r.work_emails,
      personalEmails: r.personal_emails,
      phoneNumbers: r.phone_numbers,
      creditsCharged: r.credits_charged,
      reason: r.reason,
    })),
    nextCursor,
  };
}
