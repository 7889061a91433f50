import type { AnyOperation } from '../../../operations/define.js';
import { AppError } from '../../errors.js';
import { handle, type BoundHandler } from '../handler.js';

/** Temporary: an operation registered before its capability lands answers 501 with a clear message. */
export function notImplemented(operation: AnyOperation): BoundHandler {
  return handle(operation, async () => {
    throw new AppError('not_implemented', `${operation.operationId} is registered but not available yet.`);
  });
}
