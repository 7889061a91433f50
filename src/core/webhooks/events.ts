import type { WebhookEventType } from '../../../operations/schemas/webhooks.js';
import type { Queryable } from '../../store/db.js';

/**
 * Emitting a webhook event: called in the transaction of the state change it reports (the outbox
 * pattern), so the event exists if and only if the change committed, and a process killed
 * between the two loses nothing. `webhook_emit` (migration 120) writes the event, one delivery
 * per enabled endpoint of the account subscribed to the type, and a delivery job for each,
 * announced to the workers at the commit as `enqueue` announces its jobs; an account with no
 * such endpoint writes nothing.
 *
 * `data` is what the event's status operation would answer at that moment (see webhookEvents).
 */
export async function emitWebhookEvent(
  tx: Queryable,
  accountId: number,
  type: WebhookEventType,
  data: object,
): Promise<void> {
  await tx.query('SELECT webhook_emit($1, $2, $3::jsonb)', [accountId, type, JSON.stringify(data)]);
}
