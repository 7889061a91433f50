import { setTimeout as delay } from 'node:timers/promises';
import { Pool } from 'undici';
import type { AnyOperation } from '../../operations/define.js';
import { pathParameters } from '../../operations/define.js';

/**
 * The gateway's only way to the service: the REST API over HTTP, through one keep-alive
 * pool. Going through REST (rather than calling handlers in-process) keeps one code path for
 * authentication, rate limits, validation and metering, and lets BACKEND_URL point the
 * gateway at another deployment.
 */

export interface RestAnswer {
  status: number;
  // The REST envelope or error body, as JSON.
  body: unknown;
  /** The body as it came, when it was JSON: the gateway reuses it rather than serialise `body` again. */
  json: string | null;
  retryAfterSeconds: number | null;
}

export interface ForwardOptions {
  /** The credential of the account the call runs as. */
  apiKey: string;
  requestId?: string;
  /**
   * Names this call on the hop to REST (sent on POSTs as Idempotency-Key): a forward that is
   * sent again after its connection failed is answered from the first run, never run twice.
   */
  idempotencyKey?: string;
}

/** What the gateway forwards to: the REST API (RestBackend), or anything that answers as it does. */
export interface Backend {
  call(operation: AnyOperation, payload: Record<string, unknown>, options: ForwardOptions): Promise<RestAnswer>;
}

const bodyMethods = new Set(['POST', 'PATCH', 'PUT']);
/** Methods that change nothing more when sent twice (by HTTP's rules; the REST API keeps to them). */
const repeatableMethods = new Set(['GET', 'PATCH', 'PUT']);

/** Errors that mean the connection failed: nothing came back, and the request may or may not have run. */
const connectionFailures = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNREFUSED']);

function failureCode(error: unknown): string | null {
  const { code, cause } = (error ?? {}) as { code?: unknown; cause?: { code?: unknown } };
  if (typeof code === 'string' && connectionFailures.has(code)) return code;
  if (typeof cause?.code === 'string' && connectionFailures.has(cause.code)) return cause.code;
  return null;
}

export interface RestBackendOptions {
  connections?: number;
  /**
   * How long a retried forward keeps asking while REST says its first attempt is still running
   * (409 idempotency_in_flight), before that answer is passed on.
   */
  inFlightWaitMs?: number;
}

export class RestBackend implements Backend {
  private readonly pool: Pool;
  private readonly basePath: string;
  private readonly inFlightWaitMs: number;

  constructor(baseUrl: string, options: RestBackendOptions = {}) {
    const url = new URL(baseUrl);
    this.basePath = url.pathname.replace(/\/$/, '');
    this.inFlightWaitMs = options.inFlightWaitMs ?? 10_000;
    // A short idle timeout: sockets left open to this very process would otherwise delay its shutdown.
    this.pool = new Pool(url.origin, {
      connections: options.connections ?? 64,
      keepAliveTimeout: 10_000,
      keepAliveMaxTimeout: 10_000,
      pipelining: 1,
    });
  }

  /**
   * Calls an operation as the holder of `apiKey` with the caller's payload (path parameters
   * included). A connection that fails before the answer arrives is tried once more when that
   * cannot run the call twice: the request never left (refused), the method is repeatable, or
   * the call carries an idempotency key (then REST answers the repeat from the first run).
   */
  async call(operation: AnyOperation, payload: Record<string, unknown>, options: ForwardOptions): Promise<RestAnswer> {
    const request = this.requestOf(operation, payload, options);
    try {
      return await this.send(request);
    } catch (error) {
      const code = failureCode(error);
      const retriable =
        code === 'ECONNREFUSED' ||
        repeatableMethods.has(operation.method) ||
        request.headers['idempotency-key'] !== undefined;
      if (!code || !retriable) throw error;
    }
    return this.sendAgain(request);
  }

  /** The second attempt of a forward; while REST still runs the first one, it waits for that one's answer. */
  private async sendAgain(request: RestRequest): Promise<RestAnswer> {
    const deadline = Date.now() + this.inFlightWaitMs;
    for (;;) {
      const answer = await this.send(request);
      const code = (answer.body as { error?: { code?: unknown } } | null)?.error?.code;
      if (answer.status !== 409 || code !== 'idempotency_in_flight') return answer;
      const wait = Math.min(1_000, Math.max(50, (answer.retryAfterSeconds ?? 1) * 1000) / 4);
      if (Date.now() + wait > deadline) return answer;
      await delay(wait);
    }
  }

  private requestOf(operation: AnyOperation, payload: Record<string, unknown>, options: ForwardOptions): RestRequest {
    const inPath = new Set(pathParameters(operation.path));
    const path = operation.path.replace(/\{(\w+)\}/g, (_match, name: string) =>
      encodeURIComponent(String(payload[name] ?? '')),
    );
    const rest = Object.fromEntries(Object.entries(payload).filter(([name]) => !inPath.has(name)));
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.requestId) headers['x-request-id'] = options.requestId;
    let fullPath = this.basePath + path;
    let body: string | undefined;
    if (bodyMethods.has(operation.method)) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify({ ...rest, apiKey: options.apiKey });
      if (operation.method === 'POST' && options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    } else {
      const query = new URLSearchParams();
      for (const [name, value] of Object.entries(rest)) {
        if (value === undefined || value === null) continue;
        query.append(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
      }
      query.append('apiKey', options.apiKey);
      fullPath += `?${query.toString()}`;
    }
    return { method: operation.method, path: fullPath, headers, body };
  }

  private async send(request: RestRequest): Promise<RestAnswer> {
    const response = await this.pool.request(request);
    const text = await response.body.text();
    let parsed: unknown = text;
    let json: string | null = null;
    try {
      parsed = text.length ? JSON.parse(text) : null;
      json = text.length ? text : null;
    } catch {
      // A proxy's HTML error page: keep the text for the message.
    }
    const retryAfter = response.headers['retry-after'];
    const retryAfterSeconds = typeof retryAfter === 'string' && /^\d+$/.test(retryAfter) ? Number(retryAfter) : null;
    return { status: response.statusCode, body: parsed, json, retryAfterSeconds };
  }
}

interface RestRequest {
  method: AnyOperation['method'];
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}
