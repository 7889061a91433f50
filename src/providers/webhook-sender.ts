import { Agent, request } from 'undici';
import type { WebhookOutcome, WebhookSender } from '../core/ports/webhook-sender.js';
import { guardedLookup, refusedUrlHost, type AddressPolicy, type Resolver } from './network-guard.js';

/**
 * Webhook attempts over HTTP (undici). Every connection goes through the guarded lookup, so the
 * addresses DNS answers at that moment are checked (a name registered while it pointed at a
 * public address and rebound to a private one since is refused); IP literals, which skip DNS, are
 * checked before the call. undici's `request` follows no redirect: a 3xx is an answer like any
 * other non-2xx. The time limit covers the whole attempt: connection, TLS, headers and the part
 * of the body that is read (at most `maxResponseBytes`; the rest is not downloaded).
 */
export interface WebhookSenderOptions {
  timeoutMs: number;
  policy: AddressPolicy;
  /** Tests: how names resolve (a name that answers a private address, without DNS). */
  resolve?: Resolver;
  userAgent?: string;
}

export const maxResponseBytes = 2048;

export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const agent = new Agent({
    connect: { lookup: guardedLookup(options.policy, options.resolve) as never, timeout: options.timeoutMs },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    keepAliveTimeout: 4_000,
  });
  const userAgent = options.userAgent ?? 'ProspectingDataService-Webhooks/1';

  return {
    refusedTarget(url) {
      const hostname = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
      if (!options.policy.allowPrivate && !options.policy.allowLoopback) {
        if (hostname === 'localhost' || hostname.endsWith('.localhost')) return `${hostname} is a loopback name`;
      }
      return refusedUrlHost(url, options.policy);
    },

    async send(webhook, signal): Promise<WebhookOutcome> {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      const failed = (error: string): WebhookOutcome => ({
        statusCode: null,
        error,
        durationMs: elapsed(),
        responseText: null,
      });
      let target: URL;
      try {
        target = new URL(webhook.url);
      } catch {
        return failed('the URL cannot be parsed');
      }
      const refusal = refusedUrlHost(target, options.policy);
      if (refusal) return failed(`refused: ${refusal}`);
      const deadline = AbortSignal.timeout(options.timeoutMs);
      try {
        const response = await request(target, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': userAgent, ...webhook.headers },
          body: webhook.body,
          dispatcher: agent,
          signal: AbortSignal.any([deadline, signal]),
        });
        const responseText = await readPrefix(response.body, maxResponseBytes);
        return { statusCode: response.statusCode, error: null, durationMs: elapsed(), responseText };
      } catch (error) {
        if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('the attempt was stopped');
        if (deadline.aborted || isTimeout(error)) return failed(`no answer within ${options.timeoutMs} ms`);
        return failed(describe(error));
      }
    },

    close: () => agent.close(),
  };
}

/** The first `limit` bytes of a body as text; the rest is not read (the connection is dropped instead). */
async function readPrefix(body: AsyncIterable<Buffer> & { destroy(): void }, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

function isTimeout(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
}

/** The innermost reason, as a line for the delivery log: refusals and connection errors say what happened. */
function describe(error: unknown): string {
  let current = error as { message?: string; code?: string; cause?: unknown };
  while (current.cause && typeof current.cause === 'object') current = current.cause as typeof current;
  if (current.code === 'EADDRNOTAVAIL' && current.message?.startsWith('refused')) return current.message;
  if (current.code === 'ECONNREFUSED') return 'connection refused';
  if (current.code === 'ECONNRESET') return 'connection reset';
  if (current.code === 'ENOTFOUND') return 'the host name does not resolve';
  const message = (current.message ?? String(error)).slice(0, 300);
  return current.code ? `${current.code}: ${message}` : message;
}
