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
    if (appError.code === 'query_timeout' || appError.code === 'unavailable') res.setHeader('Retry-After', String(retryAfterSeconds[appError.code]));
    res.status(appError.status).json({
      error: { code: appError.code, message: appError.message, details: appError.details ?? {}, requestId },
    });
  };
}

function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const database = databaseFailure(error);
  if (database) return database;
  const bodyError = error as { type?: string; status?: number };
  if (bodyError?.type === 'entity.parse.failed') return new AppError('invalid_request', 'The request body is not valid JSON.');
  if (bodyError?.type === 'entity.too.large') return new AppError('payload_too_large', 'The request body is too large (limit 2 MB).');
  if (bodyError?.type === 'encoding.unsupported' || bodyError?.type === 'charset.unsupported') {
    return new AppError('invalid_request', 'Unsupported body encoding; send UTF-8 JSON.');
  }
  return new AppError('internal', 'Internal error. It has been logged; retry later or report the requestId.');
}
