/**
 * Sending one webhook attempt over HTTP, as core's delivery job uses it; the adapter is
 * src/providers/webhook-sender.ts. Core signs the request; the adapter only carries it, under
 * the address rules (no private, loopback or link-local address, checked on the DNS answer at
 * connection time), with the attempt's time limit, never following a redirect.
 */
export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * What became of one attempt. `statusCode` is the endpoint's answer (any status: the caller decides
 * what counts as delivered), null when there was none; then `error` says why (time limit, refused
 * address, connection refused). `responseText` is at most the first kilobytes of the answer, unredacted:
 * the caller keeps only a redacted excerpt.
 */
export type WebhookOutcome =
  | { statusCode: number; error: null; durationMs: number; responseText: string }
  | { statusCode: null; error: string; durationMs: number; responseText: null };

export interface WebhookSender {
  /**
   * One POST. A failed attempt resolves with its error; the promise rejects only when `signal`
   * aborts (the job is stopping), with the signal's reason, so the attempt is not counted.
   */
  send(request: WebhookRequest, signal: AbortSignal): Promise<WebhookOutcome>;
  /** Why a URL's host may not be sent to when it is an IP literal or a name for loopback (checked at registration), or null. */
  refusedTarget(url: URL): string | null;
  close(): Promise<void>;
}
