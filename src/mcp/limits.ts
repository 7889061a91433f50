import type { CallToolResult } from '@modelcontextprotocol/server';
import type { RateLimitClass } from '../../operations/define.js';
import { rateLimitDetails, type RateDecision } from '../runner/rate-limit.js';
import { toolError } from './results.js';

/**
 * The account's per-minute limits (the REST API's token buckets, shared: src/service.ts builds
 * them once), for what MCP answers without reaching an operation: search_endpoints,
 * get_endpoint_details_full, resources, prompts, and call_operation's own answers (stored
 * results, polls answered from cache, refusals before anything is forwarded). A call that
 * reaches an operation is counted where the operation runs, once.
 */
export interface AccountRateLimits {
  take(subject: string, rateClass: RateLimitClass): Promise<RateDecision>;
}

/** The class MCP's own answers count against. */
export const mcpLocalClass: RateLimitClass = 'standard';

/** Null when the account may have one more answer of this class now; otherwise why not, as the REST API says it. */
export async function rateRefusal(
  limits: AccountRateLimits | undefined,
  accountId: number,
  rateClass: RateLimitClass = mcpLocalClass,
): Promise<{ message: string; retryAfterSeconds: number; limit: number; decision: RateDecision } | null> {
  if (!limits) return null;
  const decision = await limits.take(String(accountId), rateClass);
  if (decision.allowed) return null;
  return {
    message: `Rate limit of ${decision.limit} ${rateClass} requests per minute exceeded for this account (MCP discovery, references and stored results count too); retry after ${decision.retryAfterSeconds} s.`,
    retryAfterSeconds: decision.retryAfterSeconds,
    limit: decision.limit,
    decision,
  };
}

/** The same refusal as a tool error (429 rate_limited, with retryAfterSeconds and the rate limit as REST's headers say it). */
export async function rateLimitedResult(
  limits: AccountRateLimits | undefined,
  accountId: number,
  rateClass: RateLimitClass = mcpLocalClass,
): Promise<CallToolResult | null> {
  const refusal = await rateRefusal(limits, accountId, rateClass);
  if (!refusal) return null;
  return toolError({
    code: 'rate_limited',
    status: 429,
    message: `${refusal.message} Nothing was run or charged.`,
    retryAfterSeconds: refusal.retryAfterSeconds,
    details: {
      limitPerMinute: refusal.limit,
      rateLimitClass: rateClass,
      retryAfterSeconds: refusal.retryAfterSeconds,
      rateLimit: rateLimitDetails(rateClass, refusal.decision),
    },
    nextStep: `Wait ${refusal.retryAfterSeconds} s before the next call, and space calls out.`,
  });
}
