import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../log.js';
import { errorBody, logFailure, retryAfterOf, toAppError } from '../runner/failures.js';

/**
 * Express's end of every error that is not an operation's answer (the operation runner answers
 * those itself, through the same functions): a body that is not JSON, an unknown path.
 * `{ error: { code, message, details, requestId } }`; anything that is not an AppError is a bug,
 * logged whole and answered as `internal` without its text.
 */
export function errorHandler(log: Logger) {
  return (error: unknown, _req: Request, res: Response, _next: NextFunction): void => {
    const appError = toAppError(error);
    const requestId = res.locals.requestId as string | undefined;
    logFailure(log, error, appError, requestId);
    if (res.headersSent) return;
    const retryAfter = retryAfterOf(appError);
    if (retryAfter !== null) res.setHeader('Retry-After', String(retryAfter));
    res.status(appError.status).json(errorBody(appError, requestId));
  };
}
