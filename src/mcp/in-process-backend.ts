import { randomUUID } from 'node:crypto';
import type { AnyOperation } from '../../operations/define.js';
import type { Logger } from '../log.js';
import type { MetricsRecorder } from '../http/metrics.js';
import type { RunsOperations } from '../runner/run-operation.js';
import type { Backend, BackendAnswer, Caller, CallOptions } from './backend.js';

/**
 * The gateway's default backend: the operation runner of this process, the function the REST
 * routes call, so an operation reached through MCP is validated, limited, charged and answered
 * by the same code as on REST, as the caller's principal (an OAuth sign-in runs as its account
 * directly: no key is made for it, and its token goes nowhere). Each run is logged as one line
 * tied to the MCP request's id, and counted, as a REST request would be.
 */
export class InProcessBackend implements Backend {
  constructor(
    private readonly runner: RunsOperations,
    private readonly log: Logger,
    private readonly metrics: MetricsRecorder | null = null,
  ) {}

  async call(
    operation: AnyOperation,
    payload: Record<string, unknown>,
    caller: Caller,
    options: CallOptions = {},
  ): Promise<BackendAnswer> {
    const started = process.hrtime.bigint();
    const requestId = caller.requestId ?? randomUUID();
    const answer = await this.runner.run({
      operation,
      principal: caller.principal,
      fields: payload,
      requestId,
      via: { surface: caller.surface ?? 'mcp', path: `/${caller.surface ?? 'mcp'}` },
      ...(caller.signal ? { signal: caller.signal } : {}),
      idempotency: options.idempotencyKey ? { key: options.idempotencyKey } : null,
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    this.metrics?.operationRun(operation.operationId, answer.status, seconds);
    if (this.log.isLevelEnabled('info')) {
      this.log.info(
        {
          requestId,
          operationId: operation.operationId,
          accountId: caller.principal.accountId,
          status: answer.status,
          ms: Math.round(seconds * 10_000) / 10,
        },
        'operation',
      );
    }
    return answer;
  }
}
