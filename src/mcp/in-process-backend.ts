import { randomUUID } from 'node:crypto';
import type { Logger } from '../log.js';
import type { MetricsRecorder } from '../http/metrics.js';
import type { OperationOutcome, OperationPort, PreparedCall } from '../runner/run-operation.js';
import type { Backend, Caller, CallOptions } from './backend.js';

/**
 * The gateway's default backend: the operation runner of this process, the function the REST
 * routes call, so an operation reached through MCP is limited, charged and answered by the same
 * code as on REST, as the caller's principal (an OAuth sign-in runs as its account directly: no
 * key is made for it, and its token goes nowhere), through the runner's typed port: the call
 * prepared by the gateway is not checked again, and its result comes back as a value. Each run is
 * logged as one line tied to the MCP request's id, and counted, as a REST request would be.
 */
export class InProcessBackend implements Backend {
  constructor(
    private readonly runner: OperationPort,
    private readonly log: Logger,
    private readonly metrics: MetricsRecorder | null = null,
  ) {}

  async run(call: PreparedCall, caller: Caller, options: CallOptions = {}): Promise<OperationOutcome> {
    const started = process.hrtime.bigint();
    const requestId = caller.requestId ?? randomUUID();
    const outcome = await this.runner.runPrepared(call, {
      requestId,
      via: { surface: caller.surface ?? 'mcp', path: `/${caller.surface ?? 'mcp'}` },
      ...(caller.signal ? { signal: caller.signal } : {}),
      idempotency: options.idempotencyKey ? { key: options.idempotencyKey } : null,
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    // Counted by the status REST would have given it, so that both surfaces read alike on one dashboard.
    const status = outcome.ok ? 200 : outcome.error.status;
    this.metrics?.operationRun(call.operation.operationId, status, seconds);
    if (this.log.isLevelEnabled('info')) {
      this.log.info(
        {
          requestId,
          operationId: call.operation.operationId,
          accountId: caller.principal.accountId,
          status,
          ms: Math.round(seconds * 10_000) / 10,
        },
        'operation',
      );
    }
    return outcome;
  }

  readBalance(caller: Caller): Promise<number | null> {
    return this.runner.balanceOf(caller.principal);
  }
}
