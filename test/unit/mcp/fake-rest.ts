import type { Backend, Caller, CallOptions } from '../../../src/mcp/backend.js';
import { outcomeOfAnswer, type OperationOutcome, type PreparedCall } from '../../../src/runner/run-operation.js';

/**
 * A stand-in for the backend behind the gateway, for the unit tier: it answers the few
 * operations the gateway's tests call, as the REST API's envelope and error shapes say (mapped to
 * values as RestBackend maps them), keeps a balance, and records every call and balance read. The HTTP tier runs the gateway against the real operation runner.
 */
export interface Forward {
  operationId: string;
  payload: Record<string, unknown>;
  caller: Caller;
  options: CallOptions;
}

export class FakeRest implements Backend {
  readonly forwards: Forward[] = [];
  /** Each balance the gateway read, by the caller it read for. */
  readonly balanceReads: Caller[] = [];
  /** The next calls fail as a connection would (thrown, nothing answered). */
  failures = 0;
  /** Size of each record's padding, to make pages as large as a test needs. */
  recordPadding = 10;
  estimateCredits = 40;
  /** What getAudienceStatus says a build of audience 7 can charge at most (its caps). */
  buildWorstCaseCredits = 1_100;
  /** What it says a build would charge with today's data; null when its count ran out of time. */
  buildExpectedCredits: number | null = 340;
  buildStatus = 'DRAFT';

  constructor(public balance: number) {}

  async readBalance(caller: Caller): Promise<number | null> {
    this.balanceReads.push(caller);
    this.failIfAsked();
    return this.balance;
  }

  private failIfAsked(): void {
    if (this.failures > 0) {
      this.failures -= 1;
      throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    }
  }

  async run(call: PreparedCall, caller: Caller, options: CallOptions = {}): Promise<OperationOutcome> {
    const answer = this.answer(call, caller, options);
    return outcomeOfAnswer(answer.status, answer.body, answer.json, null);
  }

  private answer(call: PreparedCall, caller: Caller, options: CallOptions): HttpAnswer {
    const { operation, fields: payload } = call;
    this.forwards.push({ operationId: operation.operationId, payload, caller, options });
    this.failIfAsked();
    switch (operation.operationId) {
      case 'getCreditBalance':
        return ok({ balance: this.balance, plan: 'pro' }, { method: 'free' });
      case 'companySearch': {
        const pageSize = typeof payload.pageSize === 'number' ? payload.pageSize : 25;
        if (pageSize > this.balance)
          return error(402, 'insufficient_credits', `Needs ${pageSize} credits; the balance is ${this.balance}.`);
        this.balance -= pageSize;
        const data = Array.from({ length: pageSize }, (_, i) => ({
          id: String(i + 1),
          name: `Company ${i + 1}`,
          padding: 'x'.repeat(this.recordPadding),
        }));
        return ok({ data, nextCursor: 'c1' }, { method: 'charged-now', creditsCharged: pageSize });
      }
      case 'getAudienceStatus':
        if (payload.audienceId !== '7') return error(404, 'not_found', 'No audience with this id.');
        return ok(
          {
            audienceId: '7',
            status: this.buildStatus,
            buildWorstCaseCredits: this.buildWorstCaseCredits,
            buildExpectedCredits: this.buildExpectedCredits,
          },
          { method: 'free' },
        );
      case 'buildAudience':
        this.buildStatus = 'BUILDING';
        return ok({ audienceId: '7', status: 'BUILDING', message: 'Build started.' }, { method: 'charging-later' });
      case 'estimateEnrichmentCost':
        return ok(
          {
            estimateId: '1',
            totalCredits: this.estimateCredits,
            timeEstimate: { totalSeconds: 30, formatted: 'about 30 seconds' },
          },
          { method: 'free' },
        );
      case 'triggerEnrichment':
        if (this.estimateCredits > this.balance) return error(402, 'insufficient_credits', 'Not enough credits.');
        this.balance -= this.estimateCredits;
        return ok(
          { enrichmentId: '1', status: 'RUNNING', estimatedCredits: this.estimateCredits },
          { method: 'charged-now', creditsCharged: this.estimateCredits },
        );
      default:
        return error(404, 'not_found', `The fake REST API does not serve ${operation.operationId}.`);
    }
  }

  forwardsOf(operationId: string): Forward[] {
    return this.forwards.filter((f) => f.operationId === operationId);
  }
}

interface HttpAnswer {
  status: number;
  body: unknown;
  json: string;
}

function ok(output: unknown, chargeInfo: Record<string, unknown>): HttpAnswer {
  const body = { output, chargeInfo };
  return { status: 200, body, json: JSON.stringify(body) };
}

function error(status: number, code: string, message: string): HttpAnswer {
  const body = { error: { code, message, requestId: 'fake' } };
  return { status, body, json: JSON.stringify(body) };
}
