/**
 * One error class for everything the service refuses on purpose. The code is stable
 * and machine-readable, the message is safe to show a caller, and `internal` is only logged.
 */
export const errorStatus = {
  invalid_request: 400,
  invalid_state: 400,
  cursor_mismatch: 400,
  unauthorized: 401,
  insufficient_credits: 402,
  forbidden: 403,
  key_read_only: 403,
  insufficient_scope: 403,
  not_found: 404,
  conflict: 409,
  idempotency_in_flight: 409,
  idempotency_mismatch: 400,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  quota_exceeded: 429,
  key_spend_cap: 429,
  rate_limited: 429,
  upstream_unavailable: 502,
  query_timeout: 503,
  unavailable: 503,
  starting: 503,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export interface FieldIssue {
  field: string;
  message: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly internal: string | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: Record<string, unknown>; internal?: string; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.details = options.details;
    this.internal = options.internal;
  }

  get status(): number {
    return errorStatus[this.code];
  }
}

/** Seconds a client should wait before retrying a 503. */
export const retryAfterSeconds = { query_timeout: 5, unavailable: 5, starting: 1 } as const;

/**
 * Database failures that are not bugs: a statement stopped by its timeout, no free connection,
 * the server unreachable or restarting, or a write refused by a server that is no longer (or not
 * yet) the primary during a failover. Each is answered 503 with Retry-After, never 500.
 */
export function databaseFailure(error: unknown): AppError | null {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  if (code === '57014') {
    return new AppError(
      'query_timeout',
      'The query ran longer than this service allows and was stopped; nothing was charged. Narrow the filters (fewer or longer substrings, a country, an industry), or retry later.',
      { cause: error },
    );
  }
  if (code === '25006') {
    // A write reached a server that takes none: the primary is changing (a failover), or not yet reachable.
    return new AppError(
      'unavailable',
      'The database is switching to a new primary server; nothing was charged. Retry after the delay in Retry-After.',
      { cause: error, internal: message ?? code },
    );
  }
  const unreachable =
    (typeof code === 'string' &&
      (/^08/.test(code) ||
        /^57P0[1-3]$/.test(code) ||
        code === '53300' ||
        ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'].includes(
          code,
        ))) ||
    (typeof message === 'string' &&
      /timeout exceeded when trying to connect|Connection terminated|Client has encountered a connection error/.test(
        message,
      ));
  if (unreachable) {
    return new AppError(
      'unavailable',
      'The database is busy or unreachable; nothing was charged. Retry after the delay in Retry-After.',
      { cause: error, internal: message ?? code },
    );
  }
  return null;
}
