import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { Pool } from 'undici';
import type { AnyOperation } from '../../operations/define.js';
import { pathParameters } from '../../operations/define.js';
import { getCreditBalance } from '../../operations/index.js';
import { canonicalJson } from '../core/search/cursor.js';
import { outcomeOfAnswer, prepareCall, type OperationOutcome, type PreparedCall } from '../runner/run-operation.js';
import type { Backend, Caller, CallOptions } from './backend.js';

/**
 * The gateway's backend when BACKEND_URL names the REST API of another deployment: each call is
 * a REST request through one keep-alive pool, made with the API key the caller sent, in the
 * x-api-key header only (never in a query string, which proxies log). An OAuth sign-in of
 * /mcp/v3 has no key to send, and its token never goes upstream: configuration refuses
 * BACKEND_URL together with sign-in, and a call without a key is refused here, before any request.
 * Each answer becomes the value an in-process run gives (outcomeOfAnswer), so the gateway reads no status.
 */

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

/**
 * The Idempotency-Key of one forward when the caller gave none: the same for a repeat of the
 * same call in the same MCP request (so a forward sent again after its connection failed is
 * answered from the first run), different for anything else. Bound to the account, the request
 * id, the operation and the payload.
 */
export function forwardKey(caller: Caller, operationId: string, fields: Record<string, unknown>): string {
  const request = caller.requestId ?? randomUUID();
  const digest = createHash('sha256')
    .update(`${caller.principal.accountId}\n${request}\n${operationId}\n${canonicalJson(fields)}`)
    .digest('base64url');
  return `mcp-${digest}`;
}

export interface RestBackendOptions {
  connections?: number;
  /**
   * How long a retried forward keeps asking while REST says its first attempt is still running
   * (409 idempotency_in_flight), before that answer is passed on.
   */
  inFlightWaitMs?: number;
}

const noKey = (operation: AnyOperation): OperationOutcome => ({
  ok: false,
  error: {
    code: 'unauthorized',
    message: `This gateway runs ${operation.operationId} at BACKEND_URL with the caller's API key, and this caller signed in with OAuth (no key). Connect to /mcp or /mcp/v2 with an API key, or to a gateway without BACKEND_URL. Nothing was run or charged.`,
    details: {},
    status: 401,
    retryAfterSeconds: null,
  },
});

/** An answer as it came over HTTP, before it becomes a value. */
interface HttpAnswer {
  status: number;
  body: unknown;
  json: string | null;
  retryAfterSeconds: number | null;
}

export class RestBackend implements Backend {
  private readonly pool: Pool;
  private readonly basePath: string;
  private readonly inFlightWaitMs: number;

  constructor(baseUrl: string, options: RestBackendOptions = {}) {
    const url = new URL(baseUrl);
    this.basePath = url.pathname.replace(/\/$/, '');
    this.inFlightWaitMs = options.inFlightWaitMs ?? 10_000;
    // A short idle timeout: open sockets would otherwise delay this process's shutdown.
    this.pool = new Pool(url.origin, {
      connections: options.connections ?? 64,
      keepAliveTimeout: 10_000,
      keepAliveMaxTimeout: 10_000,
      pipelining: 1,
    });
  }

  /**
   * Calls an operation with the caller's key and payload (path parameters included). A
   * connection that fails before the answer arrives is tried once more when that cannot run the
   * call twice: the request never left (refused), the method is repeatable, or the call carries
   * an idempotency key (then REST answers the repeat from the first run).
   */
  async run(call: PreparedCall, caller: Caller, options: CallOptions = {}): Promise<OperationOutcome> {
    const { operation } = call;
    if (!caller.apiKey) return noKey(operation);
    const answer = await this.answerOf(
      operation,
      this.requestOf(operation, call.fields, caller, caller.apiKey, options),
    );
    return outcomeOfAnswer(answer.status, answer.body, answer.json, answer.retryAfterSeconds);
  }

  /** The balance as that deployment's getCreditBalance gives it (a request there: it has no narrower door). */
  async readBalance(caller: Caller): Promise<number | null> {
    const prepared = prepareCall(getCreditBalance, caller.principal, {});
    if (!prepared.ok) return null;
    const outcome = await this.run(prepared.call, caller);
    const balance = outcome.ok ? (outcome.output as { balance?: unknown } | null)?.balance : undefined;
    return typeof balance === 'number' ? balance : null;
  }

  private async answerOf(operation: AnyOperation, request: RestRequest): Promise<HttpAnswer> {
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
  private async sendAgain(request: RestRequest): Promise<HttpAnswer> {
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

  private requestOf(
    operation: AnyOperation,
    payload: Record<string, unknown>,
    caller: Caller,
    apiKey: string,
    options: CallOptions,
  ): RestRequest {
    const inPath = new Set(pathParameters(operation.path));
    const path = operation.path.replace(/\{(\w+)\}/g, (_match, name: string) =>
      encodeURIComponent(String(payload[name] ?? '')),
    );
    const rest = Object.fromEntries(Object.entries(payload).filter(([name]) => !inPath.has(name)));
    const headers: Record<string, string> = { accept: 'application/json', 'x-api-key': apiKey };
    if (caller.requestId) headers['x-request-id'] = caller.requestId;
    let fullPath = this.basePath + path;
    let body: string | undefined;
    if (bodyMethods.has(operation.method)) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(rest);
      if (operation.method === 'POST')
        headers['idempotency-key'] = options.idempotencyKey ?? forwardKey(caller, operation.operationId, payload);
    } else {
      const query = new URLSearchParams();
      for (const [name, value] of Object.entries(rest)) {
        if (value === undefined || value === null) continue;
        query.append(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
      }
      const search = query.toString();
      if (search) fullPath += `?${search}`;
    }
    return { method: operation.method, path: fullPath, headers, body, signal: caller.signal };
  }

  private async send(request: RestRequest): Promise<HttpAnswer> {
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
  signal: AbortSignal | undefined;
}
