import type { CallToolResult } from '@modelcontextprotocol/server';
import type { AnyOperation } from '../../operations/define.js';
import { findOperation } from '../../operations/index.js';
import { getCreditBalance } from '../../operations/index.js';
import { describeIssues, unreadableValues } from '../api/validation.js';
import type { Principal } from '../auth/api-keys.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { RestAnswer, RestBackend } from './backend.js';
import { catalog, type CatalogEntry } from './catalog.js';
import type { BalanceCache } from './guards/balance.js';
import { canonicalJson, payloadHash } from './guards/canonical.js';
import { confirmationTtlSeconds, type ConfirmationTokens } from './guards/confirmation.js';
import type { PollCache } from './guards/polling.js';
import { estimateTokens, largestArrayField, sliceToBudget, type Envelope } from './guards/response-size.js';
import type { StoredResults } from './guards/stored-results.js';
import { toolError, toolResult } from './results.js';
import { closestOperationIds } from './search.js';

/**
 * call_operation: validate against the registry, apply the guards (polling discipline, credit
 * check, confirmation), forward to the REST API as the caller's account, and shape the answer
 * (charge summary, low-balance warning, response budget). The MCP-specific parts (how the user
 * is asked) stay in the server module; this module only says when to ask.
 */

export interface Caller {
  principal: Principal;
  /** The credential the gateway uses towards the REST API for this account. */
  apiKey: string;
  requestId?: string;
}

/** How this client can be asked to confirm a cost. */
export type ConfirmationChannel =
  | { kind: 'token' }
  | {
      kind: 'elicitation';
      /** The user's answer in this round, or null in the first round. */
      answer: 'accept' | 'decline' | 'cancel' | null;
      /** The payload hash the answered question was about (from the signed request state). */
      confirmedHash: string | null;
    };

export interface ConfirmState {
  /** Payload hash of the call the user is asked about. */
  h: string;
  /** Credits shown to the user. */
  c: number;
}

export type GatewayAnswer =
  | { kind: 'result'; result: CallToolResult }
  | { kind: 'ask'; message: string; state: ConfirmState };

export interface CallArguments {
  operationId: string;
  payload?: unknown;
  confirmationToken?: string;
  resultId?: string;
  offset?: number;
}

export interface GatewayDependencies {
  config: Pick<Config, 'CONFIRM_ABOVE_CREDITS' | 'LOW_BALANCE_WARNING_CREDITS' | 'MCP_RESPONSE_TOKEN_BUDGET'>;
  backend: RestBackend;
  tokens: ConfirmationTokens;
  balances: BalanceCache;
  polls: PollCache;
  stored: StoredResults;
  log: Logger;
}

interface CostEstimate {
  credits: number | null;
  time: string | null;
  /** The estimate operation's full output, shown to the user with the question. */
  estimate?: Record<string, unknown>;
  estimatedBy?: string;
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

  async callOperation(args: CallArguments, caller: Caller, channel: ConfirmationChannel): Promise<GatewayAnswer> {
    const entry = catalog.get(args.operationId);
    if (!entry) return { kind: 'result', result: unknownOperation(args.operationId) };
    if (args.resultId !== undefined) return { kind: 'result', result: await this.storedSlice(entry, args.resultId, args.offset ?? 0, caller) };
    const { operation } = entry;

    const payload = args.payload ?? {};
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
      return result(toolError({
        code: 'invalid_request',
        message: 'payload must be a JSON object of the operation\'s fields.',
        nextStep: `See get_endpoint_details_full for ${operation.operationId}.`,
      }));
    }
    const { confirmationToken: inlineToken, ...fields } = payload as Record<string, unknown>;
    const confirmationToken = args.confirmationToken ?? (typeof inlineToken === 'string' ? inlineToken : undefined);
    const parsed = operation.input.safeParse(fields);
    const unreadable = unreadableValues(fields);
    if (!parsed.success || unreadable.length) {
      // What the REST API would refuse, refused before a user is asked to confirm a call that cannot run.
      const issues = [...unreadable, ...(parsed.success ? [] : describeIssues(parsed.error))];
      return result(toolError({
        code: 'invalid_request',
        message: `Invalid payload for ${operation.operationId}: ${issues.slice(0, 5).map((i) => `${i.field}: ${i.message}`).join('; ')}.`,
        details: { issues },
        nextStep: `Fix the named fields and call again; nothing was sent or charged. get_endpoint_details_full lists the fields of ${operation.operationId}.`,
      }));
    }
    const input = parsed.data as Record<string, unknown>;
    const hash = payloadHash(operation.operationId, input);

    if (operation.pollIntervalSeconds) {
      const cached = await this.deps.polls.fresh(caller.principal.accountId, operation.operationId, canonicalJson(input), operation.pollIntervalSeconds);
      if (cached) return result(this.fromPollCache(operation, cached.answer as Envelope, cached.ageSeconds));
    }

    const cost = await this.costOf(operation, input, fields, caller);
    if ('refusal' in cost) return result(cost.refusal);

    let balance: number | null = null;
    if (cost.credits !== null && cost.credits > 0) {
      balance = await this.balanceOf(caller);
      if (balance !== null && balance < cost.credits) return result(insufficientCredits(operation, cost, balance));
    }

    let redeemedToken: string | null = null;
    // A charging call whose cost cannot be known before it runs (an audience build: up to the
    // audience's caps) is confirmed like one over the threshold: its worst case may well be.
    const unknownCost = cost.credits === null && operation.credits.charged !== 'free';
    const needsConfirmation =
      operation.confirmation === 'always' || unknownCost || (cost.credits ?? 0) > this.deps.config.CONFIRM_ABOVE_CREDITS;
    if (needsConfirmation) {
      if (confirmationToken !== undefined) {
        const redeemed = await this.deps.tokens.redeem(confirmationToken, {
          accountId: caller.principal.accountId,
          operationId: operation.operationId,
          payloadHash: hash,
        });
        if (!redeemed.ok) return result(tokenRefused(operation, redeemed.reason));
        redeemedToken = redeemed.tokenId;
      } else if (channel.kind === 'elicitation') {
        // A refusal needs no proof; an acceptance counts only for the exact call that was asked about.
        if (channel.answer === 'decline' || channel.answer === 'cancel') return result(declined(operation, cost, channel.answer));
        if (channel.answer !== 'accept' || channel.confirmedHash !== hash) {
          return { kind: 'ask', message: confirmationQuestion(operation, cost, balance), state: { h: hash, c: cost.credits ?? 0 } };
        }
      } else {
        return result(await this.confirmationRequired(operation, cost, balance, hash, caller));
      }
    }

    const answer = await this.forward(operation, fields, caller);
    if (answer.status < 200 || answer.status >= 300) {
      if (redeemedToken) await this.deps.tokens.release(caller.principal.accountId, redeemedToken);
      return result(restError(operation, answer));
    }
    return result(await this.success(entry, input, answer, caller));
  }

  /** The operation a stored result belongs to, or null when this account has no such result. */
  async storedResultOperation(caller: Caller, resultId: string): Promise<string | null> {
    return (await this.deps.stored.load(caller.principal.accountId, resultId))?.operationId ?? null;
  }

  private async forward(operation: AnyOperation, fields: Record<string, unknown>, caller: Caller): Promise<RestAnswer> {
    try {
      return await this.deps.backend.call(operation, fields, caller.apiKey, caller.requestId);
    } catch (error) {
      this.deps.log.warn({ err: error, operationId: operation.operationId }, 'backend call failed');
      return { status: 502, body: { error: { code: 'upstream_unavailable', message: 'The REST API could not be reached.' } }, json: null, retryAfterSeconds: null };
    }
  }

  private async costOf(
    operation: AnyOperation,
    input: Record<string, unknown>,
    fields: Record<string, unknown>,
    caller: Caller,
  ): Promise<CostEstimate | { refusal: CallToolResult }> {
    if (operation.credits.charged === 'free') return { credits: 0, time: null };
    const worstCase = operation.credits.worstCase(input);
    if (worstCase !== null) return { credits: worstCase, time: null };
    const estimator = estimatorOf(operation);
    if (!estimator) return { credits: null, time: null };
    const estimatorFields = Object.fromEntries(Object.entries(fields).filter(([name]) => name in estimator.input.shape));
    const answer = await this.forward(estimator, estimatorFields, caller);
    if (answer.status < 200 || answer.status >= 300) {
      const refusal = restError(estimator, answer);
      const text = refusal.content[0];
      if (text?.type === 'text') text.text = `Could not price ${operation.operationId} with ${estimator.operationId} (nothing was run or charged). ${text.text}`;
      return { refusal };
    }
    const estimate = ((answer.body as Envelope).output ?? {}) as Record<string, unknown>;
    const time = (estimate.timeEstimate as { formatted?: unknown } | undefined)?.formatted;
    return {
      credits: typeof estimate.totalCredits === 'number' ? estimate.totalCredits : null,
      time: typeof time === 'string' ? time : null,
      estimate,
      estimatedBy: estimator.operationId,
    };
  }

  private async balanceOf(caller: Caller): Promise<number | null> {
    return this.deps.balances.get(caller.principal.accountId, async () => {
      const answer = await this.forward(getCreditBalance, {}, caller);
      const balance = (answer.body as { output?: { balance?: unknown } } | null)?.output?.balance;
      return answer.status === 200 && typeof balance === 'number' ? balance : null;
    });
  }

  private async confirmationRequired(operation: AnyOperation, cost: CostEstimate, balance: number | null, hash: string, caller: Caller): Promise<CallToolResult> {
    const minted = await this.deps.tokens.mint({
      accountId: caller.principal.accountId,
      operationId: operation.operationId,
      payloadHash: hash,
      credits: cost.credits ?? 0,
    });
    const question = confirmationQuestion(operation, cost, balance);
    return toolResult(
      `NOT RUN: ${operation.operationId} needs the user's explicit confirmation. ${question} ` +
        `Ask the user now. If they agree, call again with exactly the same payload and confirmationToken "${minted.token}" ` +
        `(single-use, valid ${confirmationTtlSeconds / 60} minutes). If they decline, do not call again. Nothing was charged.`,
      {
        confirmationRequired: {
          operationId: operation.operationId,
          credits: cost.credits,
          time: cost.time,
          ...(cost.estimate ? { estimate: cost.estimate, estimatedBy: cost.estimatedBy } : {}),
          balance,
          question,
          confirmationToken: minted.token,
          expiresAt: minted.expiresAt,
        },
      },
    );
  }

  private fromPollCache(operation: AnyOperation, answer: Envelope, ageSeconds: number): CallToolResult {
    const interval = operation.pollIntervalSeconds ?? 0;
    const wait = Math.max(1, Math.ceil(interval - ageSeconds));
    const structured = { ...answer, polling: { nextPollAfterSeconds: wait, servedFromCache: true, ageSeconds: Math.floor(ageSeconds), intervalSeconds: interval } };
    return toolResult(
      `${operation.operationId}: answered from the gateway's cache without asking the service: the last poll was ${Math.floor(ageSeconds)} s ago ` +
        `and this status is polled every ${interval} s. Poll again in ${wait} s, not sooner.`,
      structured,
    );
  }

  private async success(entry: CatalogEntry, input: Record<string, unknown>, answer: RestAnswer, caller: Caller): Promise<CallToolResult> {
    const { operation } = entry;
    const body = answer.body as Envelope;
    const accountId = caller.principal.accountId;
    const chargeInfo = (body.chargeInfo ?? {}) as { method?: string; creditsCharged?: number; message?: string };
    const charged = chargeInfo.creditsCharged ?? 0;
    const balance = charged > 0 ? this.deps.balances.charged(accountId, charged) : this.deps.balances.peek(accountId);
    if (!operation.readOnly) await this.deps.polls.forgetAccount(accountId);
    if (operation.pollIntervalSeconds) await this.deps.polls.remember(accountId, operation.operationId, canonicalJson(input), body);

    const warnings: string[] = [];
    if (balance !== null && balance < this.deps.config.LOW_BALANCE_WARNING_CREDITS) {
      warnings.push(`Low balance: about ${balance} credits left (warning below ${this.deps.config.LOW_BALANCE_WARNING_CREDITS}). Check getCreditBalance before large jobs.`);
    }
    const structured: Envelope = { ...body };
    if (operation.pollIntervalSeconds) {
      structured.polling = { nextPollAfterSeconds: operation.pollIntervalSeconds, servedFromCache: false, intervalSeconds: operation.pollIntervalSeconds };
    }
    if (warnings.length) structured.warnings = warnings;

    const lines = [summaryLine(operation, body)];
    if (operation.pollIntervalSeconds) lines.push(`Poll again in ${operation.pollIntervalSeconds} s at the earliest, only while the job is still running.`);
    lines.push(...warnings);

    // A page passed on as it came is serialised once, by the REST API.
    const structuredJson = answer.json !== null && !structured.polling && !structured.warnings ? answer.json : JSON.stringify(structured);
    const budget = this.deps.config.MCP_RESPONSE_TOKEN_BUDGET;
    if (estimateTokens(structuredJson) <= budget) return toolResult(lines.join(' '), structured, false, structuredJson);
    const stored = await this.deps.stored.store(accountId, operation.operationId, body);
    return this.truncated(operation, structured, stored.resultId, stored.expiresAt, 0, lines, input);
  }

  private truncated(
    operation: AnyOperation,
    structured: Envelope,
    resultId: string,
    expiresAt: string,
    offset: number,
    lines: string[],
    input: Record<string, unknown> | null,
  ): CallToolResult {
    const budget = this.deps.config.MCP_RESPONSE_TOKEN_BUDGET;
    const field = largestArrayField(structured.output);
    const resource = `pds://results/${resultId}`;
    if (!field) {
      const { output: _omitted, ...rest } = structured;
      const note = {
        resultId, resource, expiresAt,
        reason: `The output is larger than the response budget (about ${budget} tokens) and has no list to cut.`,
        howToGetTheRest: `Read the resource ${resource} (free) for the whole output.`,
      };
      return toolResult(`${lines.join(' ')} Output omitted: too large. ${note.howToGetTheRest}`, { ...rest, truncated: note });
    }
    const slice = sliceToBudget(structured, field, offset, budget);
    const pageSize = typeof input?.pageSize === 'number' ? input.pageSize : null;
    const howToGetTheRest =
      slice.nextOffset === null
        ? 'This slice reaches the end of the stored result.'
        : `Records ${slice.nextOffset + 1} to ${slice.total} of this page were charged and are kept: call call_operation with ` +
          `{"operationId": "${operation.operationId}", "resultId": "${resultId}", "offset": ${slice.nextOffset}} (free) or read ${resource}?offset=${slice.nextOffset}. ` +
          'Do not skip them by paging on with nextCursor, which continues after the whole page.' +
          (pageSize ? ` Next time ask for pageSize ${Math.max(1, slice.shown)} or less to fit one answer.` : '');
    const note = {
      field,
      offset: slice.offset,
      shown: slice.shown,
      total: slice.total,
      nextOffset: slice.nextOffset,
      resultId,
      resource,
      expiresAt,
      budgetTokens: budget,
      howToGetTheRest,
    };
    return toolResult(
      `${lines.join(' ')} Truncated to fit the response budget: showing ${field} ${slice.offset + 1}–${slice.offset + slice.shown} of ${slice.total}. ${howToGetTheRest}`,
      { ...slice.answer, truncated: note },
    );
  }

  private async storedSlice(entry: CatalogEntry, resultId: string, offset: number, caller: Caller): Promise<CallToolResult> {
    const stored = await this.deps.stored.load(caller.principal.accountId, resultId);
    if (!stored || stored.operationId !== entry.operation.operationId) {
      return toolError({
        code: 'not_found',
        message: `No stored result ${resultId} for ${entry.operation.operationId} on this account (stored results are kept 24 hours).`,
        nextStep: 'Call the operation again with a smaller pageSize.',
      });
    }
    const body = stored.answer as Envelope;
    const replay: Envelope = {
      ...body,
      chargeInfo: { method: 'free', creditsCharged: 0, message: 'A stored result, charged when it was first fetched.' },
    };
    const lines = [`${entry.operation.operationId}: stored result ${resultId}, free (already charged).`];
    const field = largestArrayField(body.output);
    const budget = this.deps.config.MCP_RESPONSE_TOKEN_BUDGET;
    if (field) {
      const total = ((body.output as Record<string, unknown>)[field] as unknown[]).length;
      if (offset >= total) {
        return toolError({ code: 'invalid_request', message: `offset ${offset} is past the ${total} records of ${resultId}.`, nextStep: `Use an offset below ${total}.` });
      }
      return this.truncated(entry.operation, { ...replay, storedResult: { resultId, expiresAt: stored.expiresAt } }, resultId, stored.expiresAt, offset, lines, null);
    }
    if (estimateTokens(JSON.stringify(replay)) > budget) {
      return this.truncated(entry.operation, replay, resultId, stored.expiresAt, 0, lines, null);
    }
    return toolResult(lines.join(' '), { ...replay, storedResult: { resultId, expiresAt: stored.expiresAt } });
  }
}

function result(toolResultValue: CallToolResult): GatewayAnswer {
  return { kind: 'result', result: toolResultValue };
}

export function unknownOperation(operationId: string): CallToolResult {
  const closest = closestOperationIds(operationId);
  return toolError({
    code: 'unknown_operation',
    message: `There is no operation "${operationId}". Closest operationIds: ${closest.join(', ')}.`,
    closest,
    nextStep: 'Use one of the closest operationIds, or search_endpoints to find the right one.',
  });
}

function summaryLine(operation: AnyOperation, body: Envelope): string {
  const chargeInfo = (body.chargeInfo ?? {}) as { method?: string; creditsCharged?: number; message?: string };
  const output = (body.output ?? {}) as Record<string, unknown>;
  const field = largestArrayField(output) ?? Object.keys(output).find((name) => Array.isArray(output[name]));
  const what = field ? `${(output[field] as unknown[]).length} ${field === 'data' ? 'records' : field}` : 'done';
  const charged =
    chargeInfo.method === 'free'
      ? 'Free: nothing charged.'
      : chargeInfo.method === 'charging-later'
        ? `Nothing charged now; charged later: ${chargeInfo.message ?? operation.credits.rule}`
        : `Charged ${chargeInfo.creditsCharged ?? 0} credits.`;
  const more = typeof output.nextCursor === 'string' ? ' More results: pass nextCursor with identical filters.' : '';
  return `${operation.operationId}: ${what}. ${charged}${more}`;
}

function confirmationQuestion(operation: AnyOperation, cost: CostEstimate, balance: number | null): string {
  const left = balance !== null ? ` The balance is ${balance} credits.` : '';
  if (cost.credits === null) {
    return `${operation.title} charges ${operation.credits.rule.replace(/\.$/, '')}; the total cannot be known before it runs. ${operation.credits.example}${left} Proceed?`;
  }
  const when = operation.credits.charged === 'upfront' ? ' charged upfront' : operation.credits.charged === 'later' ? ' charged as the work completes' : '';
  const time = cost.time ? ` It takes about ${cost.time}.` : operation.credits.charged === 'later' ? '' : ' It runs at once.';
  const basis = cost.estimatedBy ? ` (from ${cost.estimatedBy} with the same values)` : ' (worst case for this payload)';
  return `${operation.title} costs up to ${cost.credits} credits${when}${basis}.${time}${left} Proceed?`;
}

function insufficientCredits(operation: AnyOperation, cost: CostEstimate, balance: number): CallToolResult {
  const lower = cost.estimatedBy
    ? 'lower maxProspectsToEnrich or switch enrichment types off (see the estimate)'
    : 'pageSize' in operation.input.shape
      ? `ask for a pageSize of ${Math.max(1, balance)} or less`
      : 'ask for fewer data types or fewer profiles';
  return toolError({
    code: 'insufficient_credits',
    message: `Refused before running: ${operation.operationId} can cost up to ${cost.credits} credits and the balance is ${balance}. Nothing was charged.`,
    balance,
    worstCaseCredits: cost.credits,
    nextStep: `To fit the balance, ${lower}; or add credits to the account.`,
  });
}

function tokenRefused(operation: AnyOperation, reason: 'malformed' | 'mismatch' | 'expired' | 'used'): CallToolResult {
  const messages = {
    malformed: 'The confirmationToken is not one this service issued.',
    mismatch: `The confirmationToken was issued for a different payload, operation or account than this ${operation.operationId} call; any change to the payload needs a new confirmation.`,
    expired: 'The confirmationToken has expired (tokens are valid 15 minutes).',
    used: 'The confirmationToken has already been used; each token confirms one call.',
  } as const;
  return toolError({
    code: 'confirmation_refused',
    reason,
    message: `${messages[reason]} Nothing was run or charged.`,
    nextStep: 'Call again without confirmationToken to get the cost and a new token, and ask the user to confirm it.',
  });
}

function declined(operation: AnyOperation, cost: CostEstimate, answer: 'decline' | 'cancel'): CallToolResult {
  const text = `The user ${answer === 'decline' ? 'declined' : 'cancelled'} ${operation.operationId} (${cost.credits ?? 'unknown'} credits). Nothing was run or charged.`;
  return toolResult(`${text} Do not retry unless the user asks; to lower the cost, change the payload.`, {
    declined: { operationId: operation.operationId, answer, credits: cost.credits, creditsCharged: 0 },
  });
}

const nextSteps: Record<string, string> = {
  invalid_request: 'Fix the fields named in details.issues and call again; nothing was charged.',
  invalid_state:
    'Read the current status (getAudienceStatus); if BUILDING, poll about every 30 s; if FAILED, or to change filters after a build, create a new audience.',
  cursor_mismatch: 'Send the same searchParams as the page the cursor came from, or start again without a cursor.',
  unauthorized: 'The API key was refused; check the x-api-key header.',
  insufficient_credits: 'Check getCreditBalance; lower pageSize or the number of records, or add credits. Nothing was charged.',
  not_found: 'Check the identifier; resources of other accounts are not visible to this key.',
  quota_exceeded: 'The quota for this period is used up; wait for the next period or lower the request.',
  not_implemented: 'This operation is not available on this deployment yet; use another operation.',
  payload_too_large: 'Send a smaller payload.',
  conflict: 'Read the current state and try again.',
};

export function restError(operation: AnyOperation, answer: RestAnswer): CallToolResult {
  const body = answer.body as { error?: { code?: string; message?: string; details?: unknown } } | null;
  const code = body?.error?.code ?? (answer.status >= 500 ? 'upstream_unavailable' : `http_${answer.status}`);
  const message = body?.error?.message ?? (typeof answer.body === 'string' ? answer.body.slice(0, 300) : `HTTP ${answer.status}`);
  let nextStep = nextSteps[code] ?? (answer.status >= 500 ? 'A temporary failure of the service: retry in a minute; nothing was charged.' : 'Read the message and adjust the call.');
  const retryAfterSeconds = answer.retryAfterSeconds ?? undefined;
  if (code === 'rate_limited' || answer.status === 429) {
    const wait = retryAfterSeconds ?? 60;
    nextStep = `Rate limited: retry after ${wait} s, not sooner, and never in a tight loop.`;
  }
  return toolError({
    status: answer.status,
    code,
    message: `${operation.operationId}: ${message}`,
    ...(body?.error?.details !== undefined ? { details: body.error.details } : {}),
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
    nextStep,
  });
}
