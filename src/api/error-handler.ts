import type { NextFunction, Request, Response } from 'express';
import { AppError, databaseFailure, retryAfterSeconds } from '../errors.js';
import type { Logger } from '../log.js';

/**
 * The one place errors become responses: `{ error: { code, message, details, requestId } }`.
 * Anything that is not an AppError is a bug: it is logged whole and answered as `internal`
 * without its text.
 */
export function errorHandler(log: Logger) {
  return (error: unknown, _req: Request, res: Response, _next: NextFunction): void => {
    const appError = toAppError(error);
    const requestId = res.locals.requestId as string | undefined;
    if (appError.code === 'internal') {
      log.error({ err: error, requestId }, 'unhandled error');
    } else if (appError.internal) {
      log.warn({ requestId, code: appError.code, internal: appError.internal }, appError.message);
    }
    if (res.headersSent) return;
    if (appError.code === 'query_timeout' || appError.code === 'unavailable')
      res.setHeader('Retry-After', String(retryAfterSeconds[appError.code]));
    if (appError.code === 'idempotency_in_flight') res.setHeader('Retry-After', '1');
    if (appError.code === 'key_spend_cap')
      res.setHeader('Retry-After', String(appError.details?.retryAfterSeconds ?? 60));
    res.status(appError.status).json(errorBody(appError, requestId));
  };
}

export function errorBody(appError: AppError, requestId: string | undefined): { error: Record<string, unknown> } {
  return { error: { code: appError.code, message: appError.message, details: appError.details ?? {}, requestId } };
}

export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const database = databaseFailure(error);
  if (database) return database;
  const clientFault = requestFault(error);
  if (clientFault) return clientFault;
  return new AppError('internal', 'Internal error. It has been logged; retry later or report the requestId.');
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
