import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * Signatures per the Standard Webhooks specification, made by its reference library: the
 * webhook-id, webhook-timestamp and webhook-signature headers over `<id>.<timestamp>.<body>`,
 * HMAC-SHA256 with the endpoint's secret. During a rotation's overlap the header carries one
 * signature per secret, space-separated, as the specification allows; a receiver's library
 * accepts the message when any of them matches its secret.
 */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export function signatureHeaders(
  messageId: string,
  at: Date,
  body: string,
  secrets: readonly string[],
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(messageId, at, body)).join(' '),
  };
}

/** The secrets that sign now: the current one, and the previous one while its overlap lasts. */
export function signingSecrets(
  endpoint: { secret: string; previous_secret: string | null; previous_secret_expires_at: Date | null },
  now = new Date(),
): string[] {
  const { previous_secret: previous, previous_secret_expires_at: until } = endpoint;
  return previous && until && until > now ? [endpoint.secret, previous] : [endpoint.secret];
}
