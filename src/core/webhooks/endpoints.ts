import { webhookTestEventType, type WebhookEventType } from '../../../operations/schemas/webhooks.js';
import { AppError } from '../../errors.js';
import type { Database, Queryable } from '../../store/db.js';
import { takeToken } from '../../store/token-buckets.js';
import type { CursorCodec } from '../search/cursor.js';
import { cancelDeliveryJobs, endPendingDeliveries, requeueDelivery } from './delivery.js';
import { newSigningSecret } from './signing.js';
import { requireWebhookUrl } from './targets.js';
import type { DbConfigDeps, ServicesDeps } from '../deps.js';

/**
 * An account's webhook endpoints, and what the account does with them: register, change, disable,
 * delete, rotate the secret, send a test event, read the delivery log, resend a delivery.
 * Deliveries themselves are delivery.ts's.
 */

export const maxEndpointsPerAccount = 20;
/** How long a rotated-out secret keeps signing beside the new one. */
export const secretOverlapHours = 24;
/** Attempts shown per delivery in the log (a delivery resent many times keeps all of them, the latest shown). */
export const attemptsShown = 20;

export interface EndpointRow {
  account_id: number;
  id: number;
  url: string;
  description: string | null;
  events: string[];
  disabled: boolean;
  disabled_reason: 'requested' | 'failing' | null;
  disabled_at: Date | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
  last_success_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const endpointColumns = `account_id, id, url, description, events, disabled, disabled_reason, disabled_at, secret, previous_secret,
  previous_secret_expires_at, failing_since, last_success_at, created_at, updated_at`;

export interface EndpointView {
  webhookEndpointId: string;
  url: string;
  description: string | null;
  events: string[];
  disabled: boolean;
  disabledReason: 'requested' | 'failing' | null;
  disabledAt: string | null;
  failingSince: string | null;
  lastSuccessAt: string | null;
  previousSecretExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export function endpointView(row: EndpointRow, now = new Date()): EndpointView {
  const overlap = row.previous_secret_expires_at;
  return {
    webhookEndpointId: String(row.id),
    url: row.url,
    description: row.description,
    events: row.events,
    disabled: row.disabled,
    disabledReason: row.disabled_reason,
    disabledAt: row.disabled_at?.toISOString() ?? null,
    failingSince: row.failing_since?.toISOString() ?? null,
    lastSuccessAt: row.last_success_at?.toISOString() ?? null,
    previousSecretExpiresAt: overlap && overlap > now ? overlap.toISOString() : null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The endpoint, or 404 when it is not this account's. `forUpdate` locks it in the caller's transaction. */
export async function requireEndpoint(
  db: Queryable,
  accountId: number,
  endpointId: string | number,
  forUpdate = false,
): Promise<EndpointRow> {
  const result = await db.query<EndpointRow>(
    `SELECT ${endpointColumns} FROM webhook_endpoints WHERE account_id = $1 AND id = $2 ${forUpdate ? 'FOR UPDATE' : ''}`,
    [accountId, Number(endpointId)],
  );
  const row = result.rows[0];
  if (!row)
    throw new AppError(
      'not_found',
      `Webhook endpoint ${endpointId} not found. listWebhookEndpoints lists this account's endpoints.`,
    );
  return row;
}

const uniqueEvents = (events: readonly WebhookEventType[]): string[] => [...new Set(events)];

export async function createEndpoint(
  context: DbConfigDeps & ServicesDeps<'webhookSender'>,
  accountId: number,
  input: { url: string; events: WebhookEventType[]; description?: string | undefined },
): Promise<EndpointView & { secret: string }> {
  requireWebhookUrl(context.config, context.services.webhookSender, input.url);
  const secret = newSigningSecret();
  const row = await context.db.transaction(async (tx) => {
    // Serialises one account's registrations, so two at once cannot both pass the cap.
    await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('webhook-endpoints:' || $1::text, 0))`, [accountId]);
    const count = await tx.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM webhook_endpoints WHERE account_id = $1',
      [accountId],
    );
    if ((count.rows[0]?.n ?? 0) >= maxEndpointsPerAccount) {
      throw new AppError(
        'invalid_request',
        `An account has at most ${maxEndpointsPerAccount} webhook endpoints: delete one (deleteWebhookEndpoint), or give an existing one more event types.`,
        { details: { issues: [{ field: 'url', message: `at most ${maxEndpointsPerAccount} endpoints` }] } },
      );
    }
    const inserted = await tx.query<EndpointRow>(
      `INSERT INTO webhook_endpoints (account_id, url, description, events, secret) VALUES ($1, $2, $3, $4, $5)
       RETURNING ${endpointColumns}`,
      [accountId, input.url, input.description || null, uniqueEvents(input.events), secret],
    );
    return inserted.rows[0] as EndpointRow;
  });
  return { ...endpointView(row), secret };
}

export async function listEndpoints(db: Queryable, accountId: number): Promise<EndpointView[]> {
  const result = await db.query<EndpointRow>(
    `SELECT ${endpointColumns} FROM webhook_endpoints WHERE account_id = $1 ORDER BY id DESC`,
    [accountId],
  );
  return result.rows.map((row) => endpointView(row));
}

export interface EndpointChanges {
  url?: string | undefined;
  events?: WebhookEventType[] | undefined;
  description?: string | null | undefined;
  disabled?: boolean | undefined;
}

export async function updateEndpoint(
  context: DbConfigDeps & ServicesDeps<'webhookSender'>,
  accountId: number,
  endpointId: string,
  changes: EndpointChanges,
): Promise<EndpointView> {
  if (changes.url !== undefined) requireWebhookUrl(context.config, context.services.webhookSender, changes.url);
  const row = await context.db.transaction(async (tx) => {
    const current = await requireEndpoint(tx, accountId, endpointId, true);
    if (changes.disabled === true && !current.disabled) {
      await endPendingDeliveries(tx, accountId, current.id, 'the endpoint was disabled before it was delivered');
    }
    const enabling = changes.disabled === false && current.disabled;
    const updated = await tx.query<EndpointRow>(
      `UPDATE webhook_endpoints SET
          url = coalesce($3, url),
          events = coalesce($4, events),
          description = CASE WHEN $5::boolean THEN $6 ELSE description END,
          disabled = coalesce($7, disabled),
          disabled_reason = CASE WHEN $7 IS NULL OR $7 = disabled THEN disabled_reason WHEN $7 THEN 'requested' END,
          disabled_at = CASE WHEN $7 IS NULL OR $7 = disabled THEN disabled_at WHEN $7 THEN now() END,
          failing_since = CASE WHEN $8::boolean THEN NULL ELSE failing_since END,
          updated_at = now()
        WHERE account_id = $1 AND id = $2
        RETURNING ${endpointColumns}`,
      [
        accountId,
        current.id,
        changes.url ?? null,
        changes.events ? uniqueEvents(changes.events) : null,
        changes.description !== undefined,
        changes.description || null,
        changes.disabled ?? null,
        enabling,
      ],
    );
    return updated.rows[0] as EndpointRow;
  });
  return endpointView(row);
}

export async function deleteEndpoint(
  db: Database,
  accountId: number,
  endpointId: string,
): Promise<{ webhookEndpointId: string; deleted: true }> {
  await db.transaction(async (tx) => {
    const endpoint = await requireEndpoint(tx, accountId, endpointId, true);
    await cancelDeliveryJobs(tx, accountId, endpoint.id, 'its webhook endpoint was deleted');
    await tx.query('DELETE FROM webhook_attempts WHERE account_id = $1 AND endpoint_id = $2', [accountId, endpoint.id]);
    await tx.query('DELETE FROM webhook_deliveries WHERE account_id = $1 AND endpoint_id = $2', [
      accountId,
      endpoint.id,
    ]);
    await tx.query('DELETE FROM webhook_endpoints WHERE account_id = $1 AND id = $2', [accountId, endpoint.id]);
  });
  return { webhookEndpointId: endpointId, deleted: true };
}

export async function rotateSecret(
  db: Database,
  accountId: number,
  endpointId: string,
): Promise<EndpointView & { secret: string }> {
  const secret = newSigningSecret();
  const row = await db.transaction(async (tx) => {
    const current = await requireEndpoint(tx, accountId, endpointId, true);
    const updated = await tx.query<EndpointRow>(
      `UPDATE webhook_endpoints SET previous_secret = secret, secret = $3,
              previous_secret_expires_at = now() + make_interval(hours => $4), updated_at = now()
        WHERE account_id = $1 AND id = $2 RETURNING ${endpointColumns}`,
      [accountId, current.id, secret, secretOverlapHours],
    );
    return updated.rows[0] as EndpointRow;
  });
  return { ...endpointView(row), secret };
}

export interface ManualDeliveryLimits {
  manualDeliveriesPerHour: number;
}

/** A webhook.test event for this endpoint only, delivered like any other. */
export async function sendTestEvent(
  db: Database,
  accountId: number,
  endpointId: string,
  limits: ManualDeliveryLimits,
): Promise<{ webhookEndpointId: string; deliveryId: string; webhookId: string; status: 'pending' }> {
  const queued = await db.transaction(async (tx) => {
    const endpoint = await requireEndpoint(tx, accountId, endpointId, true);
    if (endpoint.disabled) throw disabledRefusal(endpoint);
    await takeManualDelivery(tx, limits.manualDeliveriesPerHour, endpoint.id, 'testWebhookEndpoint');
    const data = {
      webhookEndpointId: String(endpoint.id),
      message: 'A test event: the endpoint receives deliveries. Verify its webhook-signature as every event.',
    };
    const emitted = await tx.query<{ event_id: number }>('SELECT webhook_emit($1, $2, $3::jsonb, $4) AS event_id', [
      accountId,
      webhookTestEventType,
      JSON.stringify(data),
      endpoint.id,
    ]);
    const result = await tx.query<{ delivery_id: number; message_id: string }>(
      `SELECT d.id AS delivery_id, e.message_id
         FROM webhook_deliveries d JOIN webhook_events e ON e.account_id = d.account_id AND e.id = d.event_id
        WHERE d.account_id = $1 AND d.endpoint_id = $2 AND d.event_id = $3`,
      [accountId, endpoint.id, emitted.rows[0]?.event_id],
    );
    return result.rows[0] as { delivery_id: number; message_id: string };
  });
  return {
    webhookEndpointId: endpointId,
    deliveryId: String(queued.delivery_id),
    webhookId: queued.message_id,
    status: 'pending',
  };
}

interface DeliveryRow {
  id: number;
  endpoint_id: number;
  status: 'pending' | 'delivered' | 'failed';
  next_attempt_at: Date;
  delivered_at: Date | null;
  failure_reason: string | null;
  type: string;
  message_id: string;
  event_at: Date;
}

interface AttemptRow {
  delivery_id: number;
  attempted_at: Date;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  response_excerpt: string | null;
}

export interface DeliveryView {
  deliveryId: string;
  webhookId: string;
  eventType: string;
  eventTimestamp: string;
  status: 'pending' | 'delivered' | 'failed';
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  failureReason: string | null;
  attempts: Array<{
    attemptedAt: string;
    statusCode: number | null;
    error: string | null;
    durationMs: number;
    responseExcerpt: string | null;
  }>;
}

const deliverySelect = `SELECT d.id, d.endpoint_id, d.status, d.next_attempt_at, d.delivered_at, d.failure_reason, e.type, e.message_id,
         e.created_at AS event_at
    FROM webhook_deliveries d JOIN webhook_events e ON e.account_id = d.account_id AND e.id = d.event_id`;

async function deliveryViews(db: Queryable, accountId: number, rows: DeliveryRow[]): Promise<DeliveryView[]> {
  const attempts = await db.query<AttemptRow>(
    `SELECT delivery_id, attempted_at, status_code, error, duration_ms, response_excerpt FROM (
       SELECT a.*, row_number() OVER (PARTITION BY a.delivery_id ORDER BY a.id DESC) AS n
         FROM webhook_attempts a WHERE a.account_id = $1 AND a.delivery_id = ANY($2::bigint[])) latest
      WHERE n <= $3 ORDER BY delivery_id, n`,
    [accountId, rows.map((r) => r.id), attemptsShown],
  );
  const byDelivery = new Map<number, AttemptRow[]>();
  for (const attempt of attempts.rows) {
    const list = byDelivery.get(attempt.delivery_id) ?? [];
    list.push(attempt);
    byDelivery.set(attempt.delivery_id, list);
  }
  return rows.map((row) => ({
    deliveryId: String(row.id),
    webhookId: row.message_id,
    eventType: row.type,
    eventTimestamp: row.event_at.toISOString(),
    status: row.status,
    nextAttemptAt: row.status === 'pending' ? row.next_attempt_at.toISOString() : null,
    deliveredAt: row.delivered_at?.toISOString() ?? null,
    failureReason: row.failure_reason,
    attempts: (byDelivery.get(row.id) ?? []).map((a) => ({
      attemptedAt: a.attempted_at.toISOString(),
      statusCode: a.status_code,
      error: a.error,
      durationMs: a.duration_ms,
      responseExcerpt: a.response_excerpt,
    })),
  }));
}

export async function listDeliveries(
  db: Queryable,
  cursors: CursorCodec,
  accountId: number,
  query: {
    webhookEndpointId: string;
    status?: 'pending' | 'delivered' | 'failed' | undefined;
    pageSize: number;
    cursor?: string | null | undefined;
  },
): Promise<{ webhookEndpointId: string; data: DeliveryView[]; nextCursor: string | null }> {
  const endpoint = await requireEndpoint(db, accountId, query.webhookEndpointId);
  const pages = cursors.scope(accountId, 'listWebhookDeliveries', {
    endpoint: endpoint.id,
    status: query.status ?? null,
  });
  const before = pages.decode(query.cursor);
  const result = await db.query<DeliveryRow>(
    `${deliverySelect}
      WHERE d.account_id = $1 AND d.endpoint_id = $2 AND ($3::bigint = 0 OR d.id < $3) AND ($4::text IS NULL OR d.status = $4)
      ORDER BY d.id DESC LIMIT $5`,
    [accountId, endpoint.id, before, query.status ?? null, query.pageSize + 1],
  );
  const { rows, nextCursor } = pages.page(result.rows, query.pageSize, (row) => row.id);
  return {
    webhookEndpointId: query.webhookEndpointId,
    data: await deliveryViews(db, accountId, rows),
    nextCursor,
  };
}

/**
 * Sends a delivery again now. A pending one is attempted now instead of at its next attempt (its
 * queued job is moved forward; a job mid-attempt simply finishes). A delivered or failed one
 * starts a new series of attempts, with the same webhook-id.
 */
export async function resendDelivery(
  db: Database,
  accountId: number,
  endpointId: string,
  deliveryId: string,
  limits: ManualDeliveryLimits,
): Promise<DeliveryView> {
  const view = await db.transaction(async (tx) => {
    const endpoint = await requireEndpoint(tx, accountId, endpointId, true);
    const found = await tx.query<{ status: string }>(
      'SELECT status FROM webhook_deliveries WHERE account_id = $1 AND id = $2 AND endpoint_id = $3 FOR UPDATE',
      [accountId, Number(deliveryId), endpoint.id],
    );
    const delivery = found.rows[0];
    if (!delivery)
      throw new AppError(
        'not_found',
        `Delivery ${deliveryId} of webhook endpoint ${endpointId} not found. listWebhookDeliveries lists them.`,
      );
    if (endpoint.disabled) throw disabledRefusal(endpoint);
    await takeManualDelivery(tx, limits.manualDeliveriesPerHour, endpoint.id, 'resendWebhookDelivery');
    await requeueDelivery(tx, accountId, { deliveryId: Number(deliveryId), endpointId: endpoint.id }, delivery.status);
    const rows = await tx.query<DeliveryRow>(`${deliverySelect} WHERE d.account_id = $1 AND d.id = $2`, [
      accountId,
      Number(deliveryId),
    ]);
    return (await deliveryViews(tx, accountId, rows.rows))[0] as DeliveryView;
  });
  return view;
}

/**
 * Deliveries a caller asks for by hand (a test event, a resend), per endpoint and hour
 * (WEBHOOK_MANUAL_DELIVERIES_PER_HOUR). Each is retried up to ten times, so the account's
 * per-minute limit alone would let one caller make an endpoint receive thousands of requests an
 * hour; past this the call is 429 with Retry-After. Taken in the caller's transaction: a call
 * refused later (a disabled endpoint) gives its token back.
 */
async function takeManualDelivery(
  tx: Queryable,
  perHour: number,
  endpointId: number,
  operation: string,
): Promise<void> {
  const taken = await takeToken(tx, `webhook-endpoint:${endpointId}`, 'webhook-manual', perHour, 3600);
  if (taken.allowed) return;
  throw new AppError(
    'rate_limited',
    `${operation}: webhook endpoint ${endpointId} had ${perHour} test events and resends in the last hour, ` +
      `the most it may; try again in ${taken.retryAfterSeconds} s.`,
    { details: { retryAfterSeconds: taken.retryAfterSeconds, limitPerHour: perHour } },
  );
}

function disabledRefusal(endpoint: EndpointRow): AppError {
  return new AppError(
    'invalid_state',
    `Webhook endpoint ${endpoint.id} is disabled${endpoint.disabled_reason === 'failing' ? ' (its deliveries failed for days)' : ''}: ` +
      'enable it with updateWebhookEndpoint (disabled: false) first.',
    { details: { disabled: true, disabledReason: endpoint.disabled_reason } },
  );
}
