import type pg from 'pg';
import { z } from 'zod';
import { accountOf, defineJob, enqueue, runAgainAfter, type JobRun, type RunAgain } from '../../job-queue/index.js';
import type { Queryable } from '../../store/db.js';
import { enqueueMail } from '../audiences/mail.js';
import type { WebhookOutcome } from '../ports/webhook-sender.js';
import { redactedExcerpt } from './excerpt.js';
import { accountOwnerEmails } from '../account-members.js';
import { signatureHeaders, signingSecrets } from './signing.js';
import { webhookUrlRefusal } from './targets.js';
import type { DbConfigDeps, ServicesDeps } from '../deps.js';

/**
 * Delivering one event to one endpoint, at least once. The delivery's job (queued with the event,
 * in the transaction of the change it reports) makes an attempt when the delivery is due: the body
 * as stored, signed at that moment with the endpoint's secrets, under the time limit
 * (WEBHOOK_TIMEOUT_MS). The attempt, its outcome and what comes next are committed together. A
 * 2xx answer delivers it; anything else (another status, a 3xx included, no answer in time, a
 * refused address) puts the next attempt WEBHOOK_RETRY_SCHEDULE later, and the job back in the
 * queue until then without counting a job attempt; after the last wait the delivery fails.
 *
 * A process killed during an attempt commits nothing: once the lease runs out another worker
 * makes the attempt again, with the same webhook-id, so the receiver may see an event twice and
 * can tell. An endpoint whose attempts have all failed for WEBHOOK_DISABLE_AFTER is disabled, its
 * pending deliveries end failed, and the account's owners are mailed.
 */
const id = z.number().int().positive();

export const webhookDeliveryJob = defineJob({
  // webhook_emit (migration 120) queues these rows itself: same kind, payload and max_attempts.
  kind: 'webhook.delivery',
  payload: z.object({ deliveryId: id, endpointId: id }),
  // Job attempts count only crashes and errors of the service; the endpoint's failures are the schedule's.
  maxAttempts: 10,
  run: (run, context: DbConfigDeps & ServicesDeps<'webhookSender'>) => deliver(context, run),
  exhausted: (job, error, context: DbConfigDeps & ServicesDeps<'webhookSender'>) =>
    context.db.transaction((tx) =>
      endDelivery(
        tx,
        accountOf(job),
        job.payload.deliveryId,
        `delivery stopped after repeated internal errors (${error.slice(0, 200)})`,
      ),
    ),
});

interface Target {
  status: 'pending' | 'delivered' | 'failed';
  wait_ms: number;
  endpoint_id: number;
  url: string;
  disabled: boolean;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  message_id: string;
  payload: { type: string; timestamp: string; data: unknown };
}

/** The body every attempt of an event sends, key order fixed: { type, timestamp, data }. */
export function bodyOf(payload: { type: string; timestamp: string; data: unknown }): string {
  return JSON.stringify({ type: payload.type, timestamp: payload.timestamp, data: payload.data });
}

async function deliver(
  context: DbConfigDeps & ServicesDeps<'webhookSender'>,
  run: JobRun<{ deliveryId: number; endpointId: number }>,
): Promise<void | RunAgain> {
  const accountId = accountOf(run.job);
  const { deliveryId } = run.job.payload;
  const found = await context.db.pool.query<Target>(
    `SELECT d.status, greatest(0, extract(epoch FROM d.next_attempt_at - now()) * 1000)::int AS wait_ms, d.endpoint_id,
            p.url, p.disabled, p.secret, p.previous_secret, p.previous_secret_expires_at, e.message_id, e.payload
       FROM webhook_deliveries d
       JOIN webhook_endpoints p ON p.account_id = d.account_id AND p.id = d.endpoint_id
       JOIN webhook_events e ON e.account_id = d.account_id AND e.id = d.event_id
      WHERE d.account_id = $1 AND d.id = $2`,
    [accountId, deliveryId],
  );
  const target = found.rows[0];
  // Delivered or failed by an earlier attempt, or deleted with its endpoint.
  if (!target || target.status !== 'pending') return;
  if (target.disabled) {
    await context.db.transaction((tx) => endDelivery(tx, accountId, deliveryId, 'the endpoint is disabled'));
    return;
  }
  // Woken before its time (a worker's poll, a resend that another job already took).
  if (target.wait_ms > 0) return runAgainAfter(target.wait_ms);

  const body = bodyOf(target.payload);
  const at = new Date();
  const refusal = webhookUrlRefusal(context.config, context.services.webhookSender, target.url);
  const outcome: WebhookOutcome = refusal
    ? { statusCode: null, error: `refused: the URL ${refusal}`, durationMs: 0, responseText: null }
    : await context.services.webhookSender.send(
        {
          url: target.url,
          headers: signatureHeaders(target.message_id, at, body, signingSecrets(target, at)),
          body,
        },
        run.signal,
      );
  run.log.debug(
    { deliveryId, endpointId: target.endpoint_id, statusCode: outcome.statusCode, durationMs: outcome.durationMs },
    'webhook attempt',
  );
  const retryInMs = await recordAttempt(context, accountId, deliveryId, target.endpoint_id, at, outcome);
  return retryInMs === null ? undefined : runAgainAfter(retryInMs);
}

const isDelivered = (outcome: WebhookOutcome) =>
  outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;

function whyFailed(outcome: WebhookOutcome): string {
  if (outcome.statusCode === null) return outcome.error;
  if (outcome.statusCode >= 300 && outcome.statusCode < 400)
    return `answered ${outcome.statusCode} (redirects are not followed)`;
  return `answered ${outcome.statusCode}`;
}

/** The attempt, the delivery's new state and the endpoint's, in one transaction. */
async function recordAttempt(
  context: DbConfigDeps & ServicesDeps<'webhookSender'>,
  accountId: number,
  deliveryId: number,
  endpointId: number,
  at: Date,
  outcome: WebhookOutcome,
): Promise<number | null> {
  const schedule = context.config.webhookRetryScheduleMs;
  return context.db.transaction(async (tx) => {
    // The endpoint first, then the delivery: the order in which the account's changes (disable, delete, resend)
    // lock them, so that an attempt ending while the endpoint is changed waits instead of deadlocking.
    await tx.query('SELECT 1 FROM webhook_endpoints WHERE account_id = $1 AND id = $2 FOR UPDATE', [
      accountId,
      endpointId,
    ]);
    const locked = await tx.query<{ status: string; attempts: number }>(
      'SELECT status, attempts FROM webhook_deliveries WHERE account_id = $1 AND id = $2 FOR UPDATE',
      [accountId, deliveryId],
    );
    const delivery = locked.rows[0];
    if (!delivery) return null;
    await tx.query(
      `INSERT INTO webhook_attempts (account_id, delivery_id, endpoint_id, attempted_at, status_code, error, duration_ms, response_excerpt)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        accountId,
        deliveryId,
        endpointId,
        at,
        outcome.statusCode,
        outcome.statusCode === null ? outcome.error.slice(0, 500) : null,
        outcome.durationMs,
        redactedExcerpt(outcome.responseText),
      ],
    );
    // Ended meanwhile (its endpoint disabled): the attempt is logged, the delivery stays as it is.
    if (delivery.status !== 'pending') return null;
    const attempts = delivery.attempts + 1;
    if (isDelivered(outcome)) {
      await tx.query(
        `UPDATE webhook_deliveries SET status = 'delivered', attempts = $3, last_attempt_at = $4, delivered_at = now(), failure_reason = NULL
          WHERE account_id = $1 AND id = $2`,
        [accountId, deliveryId, attempts, at],
      );
      await tx.query(
        'UPDATE webhook_endpoints SET failing_since = NULL, last_success_at = now() WHERE account_id = $1 AND id = $2',
        [accountId, endpointId],
      );
      return null;
    }
    const why = whyFailed(outcome);
    const delay = schedule[attempts - 1];
    if (delay === undefined) {
      await tx.query(
        `UPDATE webhook_deliveries SET status = 'failed', attempts = $3, last_attempt_at = $4, failure_reason = $5
          WHERE account_id = $1 AND id = $2`,
        [
          accountId,
          deliveryId,
          attempts,
          at,
          `no 2xx answer after ${attempts} attempts; the last ${why}`.slice(0, 500),
        ],
      );
    } else {
      await tx.query(
        `UPDATE webhook_deliveries SET attempts = $3, last_attempt_at = $4,
                next_attempt_at = now() + make_interval(secs => $5::double precision / 1000)
          WHERE account_id = $1 AND id = $2`,
        [accountId, deliveryId, attempts, at, delay],
      );
    }
    const endpoint = await tx.query<{ failing_since: Date; disabled: boolean; overdue: boolean; url: string }>(
      `UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, now())
        WHERE account_id = $1 AND id = $2
        RETURNING failing_since, disabled, url,
                  failing_since <= now() - make_interval(secs => $3::double precision / 1000) AS overdue`,
      [accountId, endpointId, context.config.webhookDisableAfterMs],
    );
    const row = endpoint.rows[0];
    if (row && !row.disabled && row.overdue) {
      await disableFailingEndpoint(tx, accountId, endpointId, row, why);
      return null;
    }
    return delay ?? null;
  });
}

/** Its deliveries have failed for WEBHOOK_DISABLE_AFTER: disabled, pending deliveries failed, the owners mailed. */
async function disableFailingEndpoint(
  tx: pg.PoolClient,
  accountId: number,
  endpointId: number,
  endpoint: { failing_since: Date; url: string },
  lastError: string,
): Promise<void> {
  await tx.query(
    `UPDATE webhook_endpoints SET disabled = true, disabled_reason = 'failing', disabled_at = now(), updated_at = now()
      WHERE account_id = $1 AND id = $2`,
    [accountId, endpointId],
  );
  const since = endpoint.failing_since.toISOString();
  await endPendingDeliveries(
    tx,
    accountId,
    endpointId,
    `the endpoint was disabled: its deliveries failed since ${since}`,
  );
  const url = new URL(endpoint.url);
  for (const to of await accountOwnerEmails(tx, accountId)) {
    await enqueueMail(tx, accountId, {
      to,
      subject: `Your webhook endpoint ${endpointId} was disabled`,
      template: {
        kind: 'webhook-endpoint-disabled',
        endpointId,
        url: `${url.origin}${url.pathname}`,
        failingSince: since,
        lastError,
      },
    });
  }
}

/** A pending delivery ends failed with `reason` (no effect on one that is not pending). */
async function endDelivery(tx: Queryable, accountId: number, deliveryId: number, reason: string): Promise<void> {
  await tx.query(
    `UPDATE webhook_deliveries SET status = 'failed', failure_reason = $3 WHERE account_id = $1 AND id = $2 AND status = 'pending'`,
    [accountId, deliveryId, reason],
  );
}

/** The endpoint's pending deliveries end failed with `reason`, and their waiting jobs are cancelled. */
export async function endPendingDeliveries(
  tx: Queryable,
  accountId: number,
  endpointId: number,
  reason: string,
): Promise<void> {
  await tx.query(
    `UPDATE webhook_deliveries SET status = 'failed', failure_reason = $3
      WHERE account_id = $1 AND endpoint_id = $2 AND status = 'pending'`,
    [accountId, endpointId, reason],
  );
  await cancelDeliveryJobs(tx, accountId, endpointId, reason);
}

/**
 * The endpoint's delivery jobs that wait for their next attempt end failed. A job mid-attempt is
 * left to finish: it logs its attempt and changes nothing of a delivery that is no longer pending.
 */
export async function cancelDeliveryJobs(
  tx: Queryable,
  accountId: number,
  endpointId: number,
  reason: string,
): Promise<void> {
  await tx.query(
    `UPDATE jobs SET status = 'failed', last_error = $4, finished_at = now(), updated_at = now()
      WHERE kind = $1 AND account_id = $2 AND payload @> $3::jsonb AND status = 'queued'`,
    [webhookDeliveryJob.kind, accountId, JSON.stringify({ endpointId }), reason],
  );
}

/**
 * A resend, in the caller's transaction (which holds the delivery's lock): a pending delivery is
 * due now and its waiting job moved forward (a job mid-attempt simply finishes); a delivered or
 * failed one starts a new series of attempts, with a new job.
 */
export async function requeueDelivery(
  tx: Queryable,
  accountId: number,
  delivery: { deliveryId: number; endpointId: number },
  status: string,
): Promise<void> {
  if (status === 'pending') {
    await tx.query(
      'UPDATE webhook_deliveries SET next_attempt_at = now() WHERE account_id = $1 AND id = $2 AND next_attempt_at > now()',
      [accountId, delivery.deliveryId],
    );
    await tx.query(
      `UPDATE jobs SET run_after = now(), updated_at = now()
        WHERE kind = $1 AND account_id = $2 AND payload @> $3::jsonb AND status = 'queued' AND run_after > now()`,
      [webhookDeliveryJob.kind, accountId, JSON.stringify({ deliveryId: delivery.deliveryId })],
    );
    return;
  }
  await tx.query(
    `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = now(), delivered_at = NULL, failure_reason = NULL
      WHERE account_id = $1 AND id = $2`,
    [accountId, delivery.deliveryId],
  );
  await enqueue(tx, webhookDeliveryJob, { accountId, payload: delivery });
}
