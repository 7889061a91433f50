import { AppError, databaseFailure, retryAfterSeconds } from '../errors.js';
import type { Logger } from '../log.js';

/**
 * What any error becomes for a caller: an AppError (the error itself, a database failure that is
 * not a bug, or a fault of the request found by the body parser), else `internal`, whose text is
 * never sent. The REST error handler and the operation runner both answer through here, so a
 * refusal reads the same on REST and through the MCP gateway.
 */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const database = databaseFailure(error);
  if (database) return database;
  const clientFault = requestFault(error);
  if (clientFault) return clientFault;
  return new AppError('internal', 'Internal error. It has been logged; retry later or report the requestId.');
}

/** The error body: `{ error: { code, message, details, requestId } }`. */
export function errorBody(appError: AppError, requestId: string | undefined): { error: Record<string, unknown> } {
  return { error: { code: appError.code, message: appError.message, details: appError.details ?? {}, requestId } };
}

/**
 * Seconds a caller should wait before trying again, when the refusal says so (sent as Retry-After): its
 * `details.retryAfterSeconds`, else the time until its `details.resetsAt`. Every 429 has one, whichever limit refused
 * it (a rate limit, a concurrency cap, a daily cap, a quota, or one added later), so that no client is left to guess.
 */
export function retryAfterOf(appError: AppError, now = Date.now()): number | null {
  const fromDetails = appError.details?.retryAfterSeconds;
  if (typeof fromDetails === 'number') return fromDetails;
  if (appError.code === 'query_timeout' || appError.code === 'unavailable') return retryAfterSeconds[appError.code];
  if (appError.status !== 429) return null;
  const resetsAt = appError.details?.resetsAt;
  const until = typeof resetsAt === 'string' ? Date.parse(resetsAt) : Number.NaN;
  if (Number.isFinite(until)) return Math.max(1, Math.ceil((until - now) / 1000));
  return fallbackRetryAfterSeconds;
}

/** A 429 that names no time: a minute, the window of every rate limit. */
const fallbackRetryAfterSeconds = 60;

/** A bug is logged whole; a refusal with an internal detail as a warning; any other refusal not at all. */
export function logFailure(log: Logger, error: unknown, appError: AppError, requestId: string | undefined): void {
  if (appError.code === 'internal') log.error({ err: error, requestId }, 'unhandled error');
  else if (appError.internal)
    log.warn({ requestId, code: appError.code, internal: appError.internal }, appError.message);
}

/** Faults of the request itself, found by Express, the router or the body parser before any handler ran: never a 500. */
function requestFault(error: unknown): AppError | null {
  const fault = (error ?? {}) as { type?: string; status?: number; expose?: boolean; message?: string; code?: string };
  if (fault.type === 'entity.parse.failed')
    return new AppError('invalid_request', 'The request body is not valid JSON.');
  if (fault.type === 'entity.too.large')
    return new AppError('payload_too_large', 'The request body is too large (limit 2 MB).');
  if (fault.type === 'encoding.unsupported' || fault.type === 'charset.unsupported') {
    return new AppError(
      'unsupported_media_type',
      `${fault.message ?? 'Unsupported body encoding'}: send UTF-8 JSON, uncompressed or with Content-Encoding gzip, deflate or br.`,
    );
  }
  if (error instanceof URIError || (fault.status === 400 && /Failed to decode param/.test(fault.message ?? ''))) {
    return new AppError(
      'invalid_request',
      'The path holds a malformed percent-escape: encode each reserved byte as %XX with two hex digits.',
    );
  }
  if (fault.code === '22021' || fault.code === '22P05') {
    return new AppError(
      'invalid_request',
      'A value holds a character that cannot be stored (such as NUL, \\u0000); remove it and send the request again.',
    );
  }
  if (fault.expose && typeof fault.status === 'number' && fault.status >= 400 && fault.status < 500) {
    // The body parser's own faults: a body that ends early or does not decompress.
    return new AppError(
      fault.status === 415 ? 'unsupported_media_type' : 'invalid_request',
      `The request body could not be read: ${fault.message ?? 'malformed body'}.`,
    );
  }
  return null;
}
