import type { Principal } from '../core/principal.js';
import type { Surface } from '../core/request-log.js';
import type { OperationOutcome, PreparedCall } from '../runner/run-operation.js';

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
  /** Aborted when the MCP request is cancelled or its client leaves: a long read stops instead of running for nobody. */
  signal?: AbortSignal;
}

export interface CallOptions {
  /**
   * The caller's own Idempotency-Key (POST operations): a repeat with the same key and payload
   * within 24 hours is answered from the first run and charges nothing.
   */
  idempotencyKey?: string;
}

/**
 * The port the gateway runs operations through: a call prepared once (`prepareCall` in
 * src/runner/run-operation.ts: the credential's scope and the payload checked there, and nowhere
 * again on this side), and its result as a value (output and charge, or an error), never an HTTP
 * status for the gateway to read back.
 */
export interface Backend {
  run(call: PreparedCall, caller: Caller, options?: CallOptions): Promise<OperationOutcome>;
  /**
   * The caller's balance for the credit guard, or null when it cannot be read: a narrow read, not
   * an operation run (in process: no request-log row, no rate-limit token).
   */
  readBalance(caller: Caller): Promise<number | null>;
}
