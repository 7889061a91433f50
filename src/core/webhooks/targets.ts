import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';
import type { WebhookSender } from '../ports/webhook-sender.js';

/**
 * Where webhooks may go. https only in production (http is allowed in development and tests, as
 * loopback origins are for CORS); no user and password in the URL (the signature authenticates
 * the service, and the URL is shown in listings and mails); and no private, loopback or
 * link-local host, judged here on what can be seen in the URL (an IP literal, a localhost name)
 * so the caller hears it at once. The sender checks again on every connection, on the addresses
 * DNS answers then: a name can point anywhere later.
 */
export function webhookUrlRefusal(
  config: Pick<Config, 'NODE_ENV'>,
  sender: Pick<WebhookSender, 'refusedTarget'>,
  value: string,
): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'expected an https:// URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'expected an https:// URL';
  if (url.protocol === 'http:' && config.NODE_ENV === 'production') return 'must be https:// (http:// is refused)';
  if (url.username || url.password)
    return 'must not carry a user name or password: the webhook-signature header authenticates each delivery';
  const refusal = sender.refusedTarget(url);
  return refusal ? `${refusal}: webhooks go only to public addresses` : null;
}

/** As webhookUrlRefusal, as the 400 that names the field. */
export function requireWebhookUrl(
  config: Pick<Config, 'NODE_ENV'>,
  sender: Pick<WebhookSender, 'refusedTarget'>,
  value: string,
  field = 'url',
): void {
  const refusal = webhookUrlRefusal(config, sender, value);
  if (refusal)
    throw new AppError('invalid_request', `${field} ${refusal}.`, {
      details: { issues: [{ field, message: refusal }] },
    });
}
