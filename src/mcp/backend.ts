import type { AnyOperation } from '../../operations/define.js';
import type { Principal } from '../core/principal.js';
import type { Surface } from '../core/request-log.js';

/**
 * What the gateway runs operations through. By default the operation runner of this very
 * process (InProcessBackend, in-process-backend.ts): the same function the REST routes call,
 * without a hop. With BACKEND_URL, the REST API of another deployment (RestBackend,
 * rest-backend.ts). The gateway's guards sit in front of either and cannot tell them apart.
 */

/** Who a call runs for. */
export interface Caller {
  /** The account, and the credential that proved it (an API key, or an OAuth grant with its scopes). */
  principal: Principal;
  /** The API key the caller sent, which only a backend at BACKEND_URL needs; none for an OAuth sign-in. */
  apiKey?: string;
  /** The MCP request's id, which the operation's answer and logs carry too. */
  requestId?: string;
  /** The MCP surface the call came through, for the account's request log. */
  surface?: Exclude<Surface, 'rest'>;
  /**
   * Whether this caller may run operations that charge: an API key may; an OAuth token only with
   * mcp:spend. The gateway refuses a charging call without it, whatever path the request took.
   */
  canSpend: boolean;
  /** Aborted when the MCP request is cancelled or its client leaves: a long read stops instead of running for nobody. */
  signal?: AbortSignal;
}

/** An operation's answer as the REST API gives it. */
export interface BackendAnswer {
  status: number;
  /** The envelope `{output, chargeInfo}` or the error body `{error: {...}}`. */
  body: unknown;
  /** `body` as JSON, when it came as JSON: the gateway passes it on rather than serialise `body` again. */
  json: string | null;
  retryAfterSeconds: number | null;
}

export interface CallOptions {
  /**
   * The caller's own Idempotency-Key (POST operations): a repeat with the same key and payload
   * within 24 hours is answered from the first run and charges nothing.
   */
  idempotencyKey?: string;
}

export interface Backend {
  call(
    operation: AnyOperation,
    payload: Record<string, unknown>,
    caller: Caller,
    options?: CallOptions,
  ): Promise<BackendAnswer>;
}
