import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { AnyOperation } from '../../operations/define.js';
import { findOperation } from '../../operations/index.js';
import type { Config } from '../config.js';
import { canonicalJson } from '../core/search/cursor.js';
import type { Logger } from '../log.js';
import { prepareCall, type OperationError, type OperationOutcome, type PreparedCall } from '../runner/run-operation.js';
import type { Backend, Caller } from './backend.js';
import { catalog, type CatalogEntry } from './catalog.js';
import type { BalanceCache } from './guards/balance.js';
import type { ConfirmationTokens } from './guards/confirmation.js';
import { payloadHash } from './guards/payload-hash.js';
import type { PollAnswers } from './guards/polling.js';
import { estimateTokens, type Envelope } from './guards/response-size.js';
import { rateLimitedResult, type AccountRateLimits } from './limits.js';
import type { ResultStore } from './guards/stored-results.js';
import {
  backendUnreachable,
  confirmationQuestion,
  confirmationRequired,
  declined,
  fromPollCache,
  insufficientCredits,
  invalidPayload,
  operationError,
  payloadNotAnObject,
  spendScopeRequired,
  summaryLine,
  tokenRefused,
  unknownOperation,
  type CostEstimate,
} from './messages.js';
import { toolResult } from './results.js';
import type { WireTask } from './task-store.js';
import type { McpTasks } from './tasks.js';
import { storedSliceResult, truncatedResult } from './truncation.js';

/**
 * call_operation: prepare the call once (the credential's scope and the payload, checked by the
 * runner's prepareCall), apply the guards to what it prepared (polling discipline, credit check,
 * confirmation), run that through the backend as the caller (in process by default, see
 * backend.ts), and shape the result, a value (charge summary, low-balance warning, response
 * budget). How the user is asked is the MCP server's part; what is said is messages.ts's; this
 * module decides.
 */

export type { Caller };

/** How this client can be asked to confirm a cost. */
export type ConfirmationChannel =
  | { kind: 'token' }
  | {
      kind: 'elicitation';
      /** The user's answer in this round, or null in the first round. */
      answer: 'accept' | 'decline' | 'cancel' | null;
      /** The payload hash the answered question was about (from the signed request state). */
      confirmedHash: string | null;
      /** The answered question's single-use id (from the signed request state): one acceptance runs one call. */
      confirmedNonce: string | null;
    };

export interface ConfirmState {
  /** Payload hash of the call the user is asked about. */
  h: string;
  /** Credits shown to the user. */
  c: number;
  /** A single-use id of this question: the signed state is good for one call, as a confirmation token is. */
  n: string;
}

export type GatewayAnswer =
  | { kind: 'result'; result: CallToolResult }
  | { kind: 'ask'; message: string; state: ConfirmState }
  /** The call became an MCP task (tasks.ts): the client declared the extension and the operation starts a job. */
  | { kind: 'task'; task: WireTask };

export interface CallOptions {
  /** The client declared the tasks extension on this request: a job-starting operation answers with a task. */
  tasks?: boolean;
}

export interface CallArguments {
  operationId: string;
  payload?: unknown;
  confirmationToken?: string;
  resultId?: string;
  offset?: number;
}

export interface GatewayDependencies {
  config: Pick<Config, 'CONFIRM_ABOVE_CREDITS' | 'LOW_BALANCE_WARNING_CREDITS' | 'MCP_RESPONSE_TOKEN_BUDGET'>;
  backend: Backend;
  tokens: ConfirmationTokens;
  balances: BalanceCache;
  polls: PollAnswers;
  stored: ResultStore;
  log: Logger;
  /** The account's per-minute limits, for what the gateway answers without forwarding (limits.ts). */
  limits?: AccountRateLimits;
  /** MCP tasks for the job-starting operations; without it, every call answers as a plain tool call. */
  tasks?: McpTasks;
}

const estimatorCache = new Map<string, AnyOperation | null>();

/**
 * The free operation that prices this one, for operations whose cost the payload alone cannot
 * tell (triggerEnrichment → estimateEnrichmentCost): a free, read-only neighbour that runs before
 * it and takes a subset of its fields.
 */
export function estimatorOf(operation: AnyOperation): AnyOperation | null {
  if (estimatorCache.has(operation.operationId)) return estimatorCache.get(operation.operationId) ?? null;
  const fields = new Set(Object.keys(operation.input.shape));
  const found =
    operation.workflow.before
      .map((id) => findOperation(id))
      .find(
        (candidate): candidate is AnyOperation =>
          candidate !== undefined &&
          candidate.credits.charged === 'free' &&
          candidate.readOnly &&
          Object.keys(candidate.input.shape).every((name) => fields.has(name)) &&
          'totalCredits' in ((candidate.output as { shape?: object }).shape ?? {}),
      ) ?? null;
  estimatorCache.set(operation.operationId, found);
  return found;
}

export class Gateway {
  constructor(private readonly deps: GatewayDependencies) {}

  async callOperation(
    args: CallArguments,
    caller: Caller,
    channel: ConfirmationChannel,
    options: CallOptions = {},
  ): Promise<GatewayAnswer> {
    const entry = catalog.get(args.operationId);
    if (!entry) return result((await this.limited(caller)) ?? unknownOperation(args.operationId));
    if (args.resultId !== undefined) {
      const limited = await this.limited(caller);
      if (limited) return result(limited);
      const stored = await this.deps.stored.load(caller.principal.accountId, args.resultId);
      return result(
        storedSliceResult(
          entry.operation,
          args.resultId,
          stored,
          args.offset ?? 0,
          this.deps.config.MCP_RESPONSE_TOKEN_BUDGET,
        ),
      );
    }
    const { operation } = entry;
    const payload = args.payload ?? {};
    const isObject = typeof payload === 'object' && payload !== null && !Array.isArray(payload);
    const { confirmationToken: inlineToken, ...fields } = (isObject ? payload : {}) as Record<string, unknown>;
    // The one check of the credential and the payload on this side: the guards and the run use what it prepared.
    const prepared = prepareCall(operation, caller.principal, fields);
    if (!prepared.ok && prepared.refusal === 'credential')
      return result(this.credentialRefusal(operation, prepared.error));
    if (!isObject) return result(payloadNotAnObject(operation));
    if (!prepared.ok) {
      const limited = await this.limited(caller, operation.rateLimitClass);
      if (limited) return result(limited);
      // What the REST API would refuse, refused before a user is asked to confirm a call that cannot run.
      return result(invalidPayload(operation, prepared.issues));
    }
    const { call } = prepared;
    const { input } = call;
    const tasks = options.tasks && this.deps.tasks?.supports(operation) ? this.deps.tasks : null;
    const confirmationToken = args.confirmationToken ?? (typeof inlineToken === 'string' ? inlineToken : undefined);
    const hash = payloadHash(operation.operationId, input);

    if (operation.pollIntervalSeconds) {
      const cached = await this.deps.polls.fresh(
        caller.principal.accountId,
        operation.operationId,
        canonicalJson(input),
        operation.pollIntervalSeconds,
      );
      // Answered here, so counted here; a poll that goes on to the operation is counted where it runs.
      if (cached)
        return result(
          (await this.limited(caller, operation.rateLimitClass)) ??
            fromPollCache(operation, cached.answer as Envelope, cached.ageSeconds),
        );
    }

    const priced = await this.costOf(call, caller);
    if ('refusal' in priced) return result(priced.refusal);
    // A schedule is confirmed on what it can spend in a month, not on one run.
    const monthly = operation.credits.monthlyWorstCase?.(input) ?? 0;
    const cost: CostEstimate = monthly > 0 ? { ...priced, monthlyCredits: monthly } : priced;

    let balance: number | null = null;
    if (cost.credits !== null && cost.credits > 0) {
      balance = await this.balanceOf(caller);
      // A ceiling the caller set (a build's caps) is charged only for what is found: stated, not refused.
      if (balance !== null && balance < cost.credits && !cost.ceiling)
        return result(insufficientCredits(operation, cost, balance));
    }

    let redeemedToken: string | null = null;
    // A charging call whose cost cannot be known before it runs is confirmed like one over the
    // threshold: its worst case may well be. A call that costs nothing asks nobody.
    const unknownCost = cost.credits === null && operation.credits.charged !== 'free';
    const costsNothing = cost.credits === 0 && monthly === 0;
    const needsConfirmation =
      !costsNothing &&
      (operation.confirmation === 'always' ||
        unknownCost ||
        (cost.credits ?? 0) > this.deps.config.CONFIRM_ABOVE_CREDITS ||
        monthly > this.deps.config.CONFIRM_ABOVE_CREDITS);
    // The question states the balance as a number: read it when the cost alone did not.
    if (needsConfirmation && balance === null) balance = await this.balanceOf(caller);
    if (needsConfirmation) {
      if (confirmationToken !== undefined) {
        const redeemed = await this.deps.tokens.redeem(confirmationToken, {
          accountId: caller.principal.accountId,
          operationId: operation.operationId,
          payloadHash: hash,
        });
        if (!redeemed.ok) return result(tokenRefused(operation, redeemed.reason));
        redeemedToken = redeemed.tokenId;
      } else if (tasks) {
        // The confirmation becomes the task's input_required step: nothing runs before tasks/update accepts.
        return {
          kind: 'task',
          task: await tasks.ask(caller, operation, fields, confirmationQuestion(operation, cost, balance)),
        };
      } else if (channel.kind === 'elicitation') {
        // A refusal needs no proof; an acceptance counts only for the exact call that was asked about.
        if (channel.answer === 'decline' || channel.answer === 'cancel')
          return result(declined(operation, cost, channel.answer));
        if (channel.answer !== 'accept' || channel.confirmedHash !== hash || channel.confirmedNonce === null) {
          return {
            kind: 'ask',
            message: confirmationQuestion(operation, cost, balance),
            state: { h: hash, c: cost.credits ?? 0, n: randomUUID() },
          };
        }
        // The signed state of an acceptance runs its call once: a replay of it is refused as a used token is.
        const claimed = await this.deps.tokens.claimAnswer(channel.confirmedNonce, {
          accountId: caller.principal.accountId,
          operationId: operation.operationId,
        });
        if (!claimed.ok) return result(tokenRefused(operation, 'used'));
        redeemedToken = claimed.tokenId;
      } else {
        const minted = await this.deps.tokens.mint({
          accountId: caller.principal.accountId,
          operationId: operation.operationId,
          payloadHash: hash,
          credits: cost.credits ?? 0,
        });
        return result(confirmationRequired(operation, cost, balance, minted));
      }
    }

    if (tasks) {
      const started = await tasks.start(caller, call);
      if ('refused' in started) {
        if (redeemedToken) await this.deps.tokens.release(caller.principal.accountId, redeemedToken);
        return result(operationError(operation, started.refused));
      }
      this.deps.balances.forget(caller.principal.accountId);
      await this.deps.polls.forgetAccount(caller.principal.accountId);
      return { kind: 'task', task: started.task };
    }

    const outcome = await this.forward(call, caller);
    if (!outcome.ok) {
      if (redeemedToken) await this.deps.tokens.release(caller.principal.accountId, redeemedToken);
      return result(operationError(operation, outcome.error));
    }
    return result(await this.success(entry, input, outcome, caller));
  }

  /** A credential that may not run the operation: without mcp:spend, said as the gateway says it; any other, as the runner did. */
  private credentialRefusal(operation: AnyOperation, error: OperationError): CallToolResult {
    return error.code === 'insufficient_scope' ? spendScopeRequired(operation) : operationError(operation, error);
  }

  /** A rate-limit refusal for an answer the gateway gives itself, or null (limits.ts). */
  private limited(caller: Caller, rateClass?: AnyOperation['rateLimitClass']): Promise<CallToolResult | null> {
    return rateLimitedResult(this.deps.limits, caller.principal.accountId, rateClass);
  }

  /** The operation a stored result belongs to, or null when this account has no such result. */
  async storedResultOperation(caller: Caller, resultId: string): Promise<string | null> {
    return (await this.deps.stored.load(caller.principal.accountId, resultId))?.operationId ?? null;
  }

  private async forward(call: PreparedCall, caller: Caller): Promise<OperationOutcome> {
    try {
      return await this.deps.backend.run(call, caller);
    } catch (error) {
      this.deps.log.warn({ err: error, operationId: call.operation.operationId }, 'backend call failed');
      return { ok: false, error: backendUnreachable };
    }
  }

  private async costOf(call: PreparedCall, caller: Caller): Promise<CostEstimate | { refusal: CallToolResult }> {
    const { operation, input, fields } = call;
    if (operation.credits.charged === 'free') return { credits: 0, time: null };
    const worstCase = operation.credits.worstCase(input);
    if (worstCase !== null) return { credits: worstCase, time: null };
    const pricedBy = operation.credits.pricedBy;
    const estimator = pricedBy ? (findOperation(pricedBy.operationId) ?? null) : estimatorOf(operation);
    if (!estimator) return { credits: null, time: null };
    const estimatorFields = Object.fromEntries(
      Object.entries(fields).filter(([name]) => name in estimator.input.shape),
    );
    const prepared = prepareCall(estimator, caller.principal, estimatorFields);
    const outcome: OperationOutcome = prepared.ok
      ? await this.forward(prepared.call, caller)
      : { ok: false, error: prepared.error };
    if (!outcome.ok) {
      const refusal = operationError(estimator, outcome.error);
      const text = refusal.content[0];
      if (text?.type === 'text')
        text.text = `Could not price ${operation.operationId} with ${estimator.operationId} (nothing was run or charged). ${text.text}`;
      return { refusal };
    }
    const estimate = (outcome.output ?? {}) as Record<string, unknown>;
    if (pricedBy)
      return {
        credits: pricedBy.worstCase(estimate),
        time: null,
        ceiling: true,
        pricedBy: estimator.operationId,
        expectedCredits: pricedBy.expected?.(estimate) ?? null,
      };
    const time = (estimate.timeEstimate as { formatted?: unknown } | undefined)?.formatted;
    return {
      credits: typeof estimate.totalCredits === 'number' ? estimate.totalCredits : null,
      time: typeof time === 'string' ? time : null,
      estimate,
      estimatedBy: estimator.operationId,
    };
  }

  /** The balance through the backend's narrow reader: weighing a call is not a call, so it is neither logged nor limited. */
  private async balanceOf(caller: Caller): Promise<number | null> {
    return this.deps.balances.get(caller.principal.accountId, async () => {
      try {
        return await this.deps.backend.readBalance(caller);
      } catch (error) {
        this.deps.log.warn({ err: error }, 'balance read failed');
        return null;
      }
    });
  }

  private async success(
    entry: CatalogEntry,
    input: Record<string, unknown>,
    outcome: Extract<OperationOutcome, { ok: true }>,
    caller: Caller,
  ): Promise<CallToolResult> {
    const { operation } = entry;
    const body: Envelope = { output: outcome.output, chargeInfo: outcome.chargeInfo };
    const accountId = caller.principal.accountId;
    const charged = outcome.chargeInfo.creditsCharged ?? 0;
    const balance = charged > 0 ? this.deps.balances.charged(accountId, charged) : this.deps.balances.peek(accountId);
    if (!operation.readOnly) await this.deps.polls.forgetAccount(accountId);
    if (operation.pollIntervalSeconds)
      await this.deps.polls.remember(accountId, operation.operationId, canonicalJson(input), body);

    const warnings: string[] = [];
    if (balance !== null && balance < this.deps.config.LOW_BALANCE_WARNING_CREDITS) {
      warnings.push(
        `Low balance: about ${balance} credits left (warning below ${this.deps.config.LOW_BALANCE_WARNING_CREDITS}). Check getCreditBalance before large jobs.`,
      );
    }
    const structured: Envelope = { ...body };
    if (operation.pollIntervalSeconds) {
      structured.polling = {
        nextPollAfterSeconds: operation.pollIntervalSeconds,
        servedFromCache: false,
        intervalSeconds: operation.pollIntervalSeconds,
      };
    }
    if (warnings.length) structured.warnings = warnings;

    const lines = [summaryLine(operation, body)];
    if (operation.pollIntervalSeconds)
      lines.push(
        `Poll again in ${operation.pollIntervalSeconds} s at the earliest, only while the job is still running.`,
      );
    lines.push(...warnings);

    // A page passed on as it came is serialised once, where the operation ran.
    const structuredJson =
      outcome.envelopeJson !== null && !structured.polling && !structured.warnings
        ? outcome.envelopeJson
        : JSON.stringify(structured);
    const budget = this.deps.config.MCP_RESPONSE_TOKEN_BUDGET;
    if (estimateTokens(structuredJson) <= budget) return toolResult(lines.join(' '), structured, false, structuredJson);
    const stored = await this.deps.stored.store(accountId, operation.operationId, body);
    return truncatedResult(operation, structured, stored, 0, lines, input, budget);
  }
}

function result(toolResultValue: CallToolResult): GatewayAnswer {
  return { kind: 'result', result: toolResultValue };
}
