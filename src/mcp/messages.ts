import type { CallToolResult } from '@modelcontextprotocol/server';
import type { AnyOperation } from '../../operations/define.js';
import type { OperationError } from '../runner/run-operation.js';
import type { Envelope } from './guards/response-size.js';
import { largestArrayField } from './guards/response-size.js';
import { confirmationTtlSeconds } from './guards/confirmation.js';
import { toolError, toolResult } from './results.js';
import { closestOperationIds } from './closest-operations.js';

/**
 * What the gateway says: every refusal, question and summary of call_operation, worded for an
 * agent (what happened, then what to do next). The gateway decides; this module words.
 */

/** The cost of a call as the gateway knows it before running it. */
export interface CostEstimate {
  credits: number | null;
  time: string | null;
  /** The estimate operation's full output, shown to the user with the question. */
  estimate?: Record<string, unknown>;
  estimatedBy?: string;
  /** What a schedule the call sets up can charge in a month (operations' monthlyWorstCase). */
  monthlyCredits?: number;
  /** The credits are a ceiling the caller set (a build's caps), charged later only for what is found. */
  ceiling?: boolean;
  /** The free read the ceiling came from (operations' credits.pricedBy). */
  pricedBy?: string;
  /** What the call would cost with today's data, when that free read could count it; null when it could not. */
  expectedCredits?: number | null;
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

/**
 * A charging call from a credential that may not spend (an OAuth token without mcp:spend). The
 * request check of /mcp/v3 answers such a call 403 before any tool runs; this is the tool's own
 * refusal, on the operation it was about to run, should a call ever get past that check.
 */
export function spendScopeRequired(operation: AnyOperation): CallToolResult {
  return toolError({
    code: 'insufficient_scope',
    status: 403,
    requiredScope: 'mcp:spend',
    message: `${operation.operationId} can charge credits, which needs the mcp:spend scope; this token has only mcp:read. Nothing was run or charged.`,
    nextStep: 'Authorize again with mcp:spend (your client can step up), or call free operations only.',
  });
}

export function summaryLine(operation: AnyOperation, body: Envelope): string {
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

export function confirmationQuestion(operation: AnyOperation, cost: CostEstimate, balance: number | null): string {
  const left = balance !== null ? ` The balance is ${balance} credits.` : '';
  if (cost.credits === null) {
    return `${operation.title} charges ${operation.credits.rule.replace(/\.$/, '')}; the total cannot be known before it runs. ${operation.credits.example}${left} Proceed?`;
  }
  const when =
    operation.credits.charged === 'upfront'
      ? ' charged upfront'
      : operation.credits.charged === 'later'
        ? ' charged as the work completes'
        : '';
  const time = cost.time
    ? ` It takes ${/^about /.test(cost.time) ? cost.time : `about ${cost.time}`}.`
    : operation.credits.charged === 'later'
      ? ''
      : ' It runs at once.';
  const basis = cost.estimatedBy
    ? ` (from ${cost.estimatedBy} with the same values)`
    : cost.pricedBy
      ? ` (worst case for this payload: the caps of its stored filters, read with ${cost.pricedBy}; ${operation.credits.rule.replace(/\.$/, '')}, so it is usually less${
          typeof cost.expectedCredits === 'number'
            ? `. With today's data it would find records for ${cost.expectedCredits} credits`
            : '. companyCount and peopleCount with the same filters tell how many would be found'
        })`
      : ' (worst case for this payload)';
  const monthly = cost.monthlyCredits
    ? ` Its schedule keeps running: up to ${cost.monthlyCredits} credits a month, until it is stopped.`
    : '';
  const short =
    cost.ceiling && balance !== null && balance < cost.credits
      ? ' If what it finds costs more than the balance, it charges nothing and ends FAILED.'
      : '';
  return `${operation.title} costs up to ${cost.credits} credits${when}${basis}.${monthly}${time}${left}${short} Proceed?`;
}

export function insufficientCredits(operation: AnyOperation, cost: CostEstimate, balance: number): CallToolResult {
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

export function tokenRefused(
  operation: AnyOperation,
  reason: 'malformed' | 'mismatch' | 'expired' | 'used',
): CallToolResult {
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

export function declined(operation: AnyOperation, cost: CostEstimate, answer: 'decline' | 'cancel'): CallToolResult {
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
  insufficient_credits:
    'Check getCreditBalance; lower pageSize or the number of records, or add credits. Nothing was charged.',
  not_found: 'Check the identifier; resources of other accounts are not visible to this key.',
  quota_exceeded: 'The quota for this period is used up; wait for the next period or lower the request.',
  payload_too_large: 'Send a smaller payload.',
  conflict: 'Read the current state and try again.',
  insufficient_scope:
    'This sign-in may not spend credits: authorize again with the mcp:spend scope (your client can step up), or call free operations only.',
};

/** An operation's refusal or failure as a tool error, with what to do next. */
export function operationError(operation: AnyOperation, error: OperationError): CallToolResult {
  const { code, message, status } = error;
  let nextStep =
    nextSteps[code] ??
    (status >= 500
      ? 'A temporary failure of the service: retry in a minute; nothing was charged.'
      : 'Read the message and adjust the call.');
  const retryAfterSeconds = error.retryAfterSeconds ?? undefined;
  if (code === 'rate_limited' || status === 429) {
    const wait = retryAfterSeconds ?? 60;
    nextStep = `Rate limited: retry after ${wait} s, not sooner, and never in a tight loop.`;
  }
  return toolError({
    status,
    code,
    message: `${operation.operationId}: ${message}`,
    ...(error.details !== undefined ? { details: error.details } : {}),
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
    nextStep,
  });
}

/** A call that did not run: the user must confirm its cost first, with the token to send back once they did. */
export function confirmationRequired(
  operation: AnyOperation,
  cost: CostEstimate,
  balance: number | null,
  minted: { token: string; expiresAt: string },
): CallToolResult {
  const question = confirmationQuestion(operation, cost, balance);
  return toolResult(
    `NOT RUN: ${operation.operationId} needs the user's explicit confirmation. ${question} ` +
      `Ask the user now. If they agree, call again with exactly the same payload and confirmationToken "${minted.token}" ` +
      `(single-use, valid ${confirmationTtlSeconds / 60} minutes). If they decline, do not call again. Nothing was charged.`,
    {
      confirmationRequired: {
        operationId: operation.operationId,
        credits: cost.credits,
        ...(cost.monthlyCredits ? { monthlyCredits: cost.monthlyCredits } : {}),
        time: cost.time,
        ...(cost.estimate ? { estimate: cost.estimate, estimatedBy: cost.estimatedBy } : {}),
        ...(cost.pricedBy ? { expectedCredits: cost.expectedCredits ?? null } : {}),
        balance,
        question,
        confirmationToken: minted.token,
        expiresAt: minted.expiresAt,
      },
    },
  );
}

/** A status answer served from the gateway's cache because the poll came before its interval. */
export function fromPollCache(operation: AnyOperation, answer: Envelope, ageSeconds: number): CallToolResult {
  const interval = operation.pollIntervalSeconds ?? 0;
  const wait = Math.max(1, Math.ceil(interval - ageSeconds));
  const structured = {
    ...answer,
    polling: {
      nextPollAfterSeconds: wait,
      servedFromCache: true,
      ageSeconds: Math.floor(ageSeconds),
      intervalSeconds: interval,
    },
  };
  return toolResult(
    `${operation.operationId}: answered from the gateway's cache without asking the service: the last poll was ${Math.floor(ageSeconds)} s ago ` +
      `and this status is polled every ${interval} s. Poll again in ${wait} s, not sooner.`,
    structured,
  );
}

export function invalidPayload(operation: AnyOperation, issues: { field: string; message: string }[]): CallToolResult {
  return toolError({
    code: 'invalid_request',
    message: `Invalid payload for ${operation.operationId}: ${issues
      .slice(0, 5)
      .map((i) => `${i.field}: ${i.message}`)
      .join('; ')}.`,
    details: { issues },
    nextStep: `Fix the named fields and call again; nothing was sent or charged. get_endpoint_details_full lists the fields of ${operation.operationId}.`,
  });
}

export function payloadNotAnObject(operation: AnyOperation): CallToolResult {
  return toolError({
    code: 'invalid_request',
    message: "payload must be a JSON object of the operation's fields.",
    nextStep: `See get_endpoint_details_full for ${operation.operationId}.`,
  });
}

/** The backend could not be reached: said as REST would say it, so it reads like any other upstream failure. */
export const backendUnreachable: OperationError = {
  code: 'upstream_unavailable',
  message: 'The backend that runs operations did not answer.',
  status: 502,
  retryAfterSeconds: null,
};
