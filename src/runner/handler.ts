import type { z } from 'zod';
import type { AnyOperation } from '../../operations/define.js';
import type { Principal } from '../core/principal.js';
import type { AppContext } from '../context.js';
import type { Logger } from '../log.js';

export interface RequestContext {
  context: AppContext;
  principal: Principal;
  requestId: string;
  log: Logger;
  /** Aborted when the client goes away before the answer: long reads stop instead of running for nobody. */
  signal: AbortSignal;
  /**
   * With an Idempotency-Key: the ledger idempotency key for the charge the request makes, so that
   * running it again (after its process died mid-way) cannot charge twice; null without one.
   */
  ledgerKey: string | null;
}

export interface HandlerResult<Output> {
  output: Output;
  /** Credits taken by this call; reported as chargeInfo.creditsCharged. */
  creditsCharged?: number;
  /** Human-readable note for chargeInfo.message. */
  message?: string;
  /** HTTP status when not 200 (e.g. 202 for accepted background work). */
  status?: number;
}

export type Handler<Op extends AnyOperation> = (
  input: z.output<Op['input']>,
  request: RequestContext,
) => Promise<HandlerResult<z.input<Op['output']>>>;

export interface BoundHandler {
  operationId: string;
  run: (input: unknown, request: RequestContext) => Promise<HandlerResult<unknown>>;
}

/**
 * Attaches a handler to an operation by id; the input arrives validated by the operation's schema.
 * Each operation's handler is its run.ts, beside its definition (operations/<category>/<name>/): the
 * runner declares this shape and the composition root hands it the table (operations/runs.ts).
 */
export function handle<Op extends AnyOperation>(operation: Op, handler: Handler<Op>): BoundHandler {
  return {
    operationId: operation.operationId,
    run: (input, request) => handler(input as z.output<Op['input']>, request),
  };
}
