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
  not_found: 404,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  quota_exceeded: 429,
  rate_limited: 429,
  upstream_unavailable: 502,
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

export const notFound = (what: string): AppError => new AppError('not_found', `${what} not found.`);

export const invalidRequest = (message: string, issues?: FieldIssue[]): AppError =>
  new AppError('invalid_request', message, issues ? { details: { issues } } : {});
