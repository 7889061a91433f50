import { chargeMethodOf, pathParameters, type AnyOperation, type RateLimitClass } from '../../operations/define.js';
import type { Principal } from '../core/principal.js';
import { scopeSatisfied, scopeToRun, spendScope } from '../auth/scopes.js';
import type { AppContext } from '../context.js';
import { spendWith } from '../core/credits.js';
import { assertKeyMayRun } from '../core/api-keys.js';
import { MonthlyGrants } from '../core/metering.js';
import { recordRequest, type Surface } from '../core/request-log.js';
import { rateLimitsPerMinute } from '../config.js';
import { AppError } from '../errors.js';
import { parseWith, unreadableValues } from '../validation.js';
import { createAccountConcurrency, type AccountConcurrencyGate } from './concurrency.js';
import { errorBody, logFailure, retryAfterOf, toAppError } from './failures.js';
import type { BoundHandler, HandlerResult, RequestContext } from './handler.js';
import { claimIdempotencyKey, replayedHeader, requestHash, type Claim } from './idempotency.js';
import { rateLimitDetails, rateLimitHeaders, type RateDecision, type RateLimits } from './rate-limit.js';

/**
 * Running one operation for a principal: the one path every surface takes, so that what an
 * operation costs and refuses does not depend on how it was reached. The REST route (src/api)
 * turns HTTP into a call of `run` and its answer back into HTTP; the MCP gateway (src/mcp) calls
 * it in process. In order: what the credential allows, the rate class's limit, values no schema
 * can refuse, the caller's Idempotency-Key, the free plan's monthly grant, the operation's
 * schema, the account's concurrency cap, the handler (which charges, under the idempotency
 * key's ledger key when there is one), and the envelope.
 */

export interface OperationRequest {
  operation: AnyOperation;
  principal: Principal;
  /** The operation's fields as the caller sent them (path parameters included, no credential); validated here. */
  fields: Record<string, unknown>;
  requestId: string;
  /** Where the call came from, for the account's request log: the surface, and the path as it arrived. */
  via: { surface: Surface; path: string | null };
  /** Aborted when the caller goes away before the answer: long reads stop instead of running for nobody. */
  signal?: AbortSignal;
  /**
   * The caller's Idempotency-Key (POST only): the first run's answer is kept and given again to a
   * repeat, which charges nothing. `requestHash` says what makes two requests the same; by
   * default the operation's path with its parameters and the other fields (`canonicalRequestHash`).
   * It is asked for only after the fields were found readable (a hash walks every value).
   */
  idempotency?: { key: string; requestHash?: () => string } | null;
}

/** An operation's answer, as the REST API sends it. */
export interface OperationAnswer {
  status: number;
  /** The envelope `{output, chargeInfo}`, or the error body `{error: {...}}`. */
  body: unknown;
  /** `body` serialised, as sent (and, with an Idempotency-Key, as stored). */
  json: string;
  /** Headers the answer carries on REST: RateLimit-Policy and RateLimit, Retry-After, Idempotent-Replayed. */
  headers: Record<string, string>;
  /** Seconds to wait before trying again, when the refusal says so. */
  retryAfterSeconds: number | null;
}

/** What runs operations: the REST routes and the MCP gateway's in-process backend hold one of these. */
export interface RunsOperations {
  run(request: OperationRequest): Promise<OperationAnswer>;
}

export class OperationRunner implements RunsOperations {
  private readonly rateLimits: RateLimits;
  private readonly perMinute: Record<RateLimitClass, number>;
  private readonly concurrency: AccountConcurrencyGate;
  private readonly grants: MonthlyGrants;
  private readonly handlerById: Map<string, BoundHandler>;
  /** The longest a request can be running: past it, a claim left in flight belongs to a process that died. */
  private readonly inFlightLeaseMs: number;

  constructor(
    private readonly context: AppContext,
    handlers: readonly BoundHandler[],
  ) {
    this.rateLimits = context.services.rateLimits;
    this.perMinute = rateLimitsPerMinute(context.config);
    this.concurrency = createAccountConcurrency(context.config, context.db, context.log);
    this.grants = new MonthlyGrants(context);
    this.handlerById = new Map(handlers.map((h) => [h.operationId, h]));
    this.inFlightLeaseMs = Math.max(120_000, 2 * context.config.DATABASE_STATEMENT_TIMEOUT_MS);
  }

  /** The handler of an operation; throws at start (from the REST router) for an operation without one. */
  handlerOf(operation: AnyOperation): BoundHandler {
    const handler = this.handlerById.get(operation.operationId);
    if (!handler) throw new Error(`Operation ${operation.operationId} has no handler`);
    return handler;
  }

  /**
   * Runs the operation and answers, whatever happens: a refusal or a failure is an answer too,
   * never a throw. Each run is a row of the account's request log (written without holding the answer).
   */
  async run(request: OperationRequest): Promise<OperationAnswer> {
    const started = process.hrtime.bigint();
    const outcome = await this.answer(request);
    const { principal, operation } = request;
    recordRequest(this.context.db.pool, {
      accountId: principal.accountId,
      requestId: request.requestId,
      surface: request.via.surface,
      operationId: operation.operationId,
      path: request.via.path,
      status: outcome.answer.status,
      errorCode: outcome.errorCode,
      credits: outcome.credits,
      apiKeyId: principal.key?.id ?? null,
      clientId: principal.oauth?.clientId ?? null,
      durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e6),
    }).catch((error: unknown) => this.context.log.warn({ err: error }, 'request log row not written'));
    return outcome.answer;
  }

  private async answer(
    request: OperationRequest,
  ): Promise<{ answer: OperationAnswer; errorCode: string | null; credits: number }> {
    const { operation, principal, requestId } = request;
    const headers: Record<string, string> = {};
    // The account's bucket of the operation's class, once read: what the RateLimit header says.
    let decision: RateDecision | null = null;
    const log = this.context.log.child({ requestId, operationId: operation.operationId });
    let leave: (() => void) | null = null;
    let claim: Claim | null = null;
    try {
      permit(principal, operation);
      decision = await this.rateLimits.take(String(principal.accountId), operation.rateLimitClass);
      Object.assign(headers, this.rateHeaders(operation, decision));
      if (!decision.allowed) throw rateLimited(operation, decision);
      const fields = refuseUnreadableValues(request.fields);
      const idempotency = operation.method === 'POST' ? request.idempotency : null;
      if (idempotency) {
        claim = await claimIdempotencyKey(this.context.db.pool, {
          accountId: principal.accountId,
          key: idempotency.key,
          hash: idempotency.requestHash?.() ?? canonicalRequestHash(operation, fields),
          operationId: operation.operationId,
          inFlightLeaseMs: this.inFlightLeaseMs,
          owner: this.context.db.liveInstanceKey(),
        });
        if (claim.kind === 'replay') {
          headers[replayedHeader] = 'true';
          const answer = {
            status: claim.status,
            body: parsed(claim.body),
            json: claim.body,
            headers,
            retryAfterSeconds: null,
          };
          return { answer, errorCode: null, credits: 0 };
        }
      }
      // Every operation, so that none that charges (or reads the balance) can forget it.
      await this.grants.ensure(principal);
      const input = parseWith(operation.input, fields);
      leave = await this.concurrency.enter(principal.accountId, operation.rateLimitClass);
      const requestContext: RequestContext = {
        context: this.context,
        principal,
        requestId,
        log,
        signal: request.signal ?? neverAborted,
        ledgerKey: claim?.kind === 'run' ? claim.ledgerKey : null,
      };
      // Every charge the handler makes is the key's too, and a capped key's cap holds in the statement that takes it.
      const { key } = principal;
      const result = await spendWith(
        key ? { accountId: principal.accountId, keyId: key.id, dailyCreditCap: key.dailyCreditCap } : null,
        () => this.handlerOf(operation).run(input, requestContext),
      );
      const status = result.status ?? 200;
      const body = envelope(operation, result);
      const json = JSON.stringify(body);
      if (claim?.kind === 'run') {
        // The answer goes out while its copy is stored: a repeat that arrives before the store has committed waits for
        // it (claimIdempotencyKey), and a store that fails leaves the claim in flight, which a repeat after the lease
        // runs again under the same ledger key, charging nothing twice.
        void claim
          .finish(status, json)
          .catch((error: unknown) => log.error({ err: error }, 'idempotent answer not stored'));
        claim = null;
      }
      return {
        answer: { status, body, json, headers, retryAfterSeconds: null },
        errorCode: null,
        credits: result.creditsCharged ?? 0,
      };
    } catch (error) {
      const appError = toAppError(error);
      logFailure(this.context.log, error, appError, requestId);
      // Refused before its bucket was counted (the credential's limits): the bucket as it stands.
      decision ??= await this.peekRateLimit(principal, operation);
      Object.assign(headers, this.rateHeaders(operation, decision));
      const retryAfterSeconds = retryAfterOf(appError);
      const body = errorBody(appError, requestId);
      if (appError.status === 429) {
        // What the headers say, in the body too: MCP's tool errors carry the details, and no header reaches an agent.
        body.error.details = {
          ...(body.error.details as Record<string, unknown>),
          retryAfterSeconds,
          ...(decision ? { rateLimit: rateLimitDetails(operation.rateLimitClass, decision) } : {}),
        };
      }
      const json = JSON.stringify(body);
      if (claim?.kind === 'run') await claim.finish(appError.status, json).catch(() => undefined);
      if (retryAfterSeconds !== null) headers['Retry-After'] = String(retryAfterSeconds);
      return {
        answer: { status: appError.status, body, json, headers, retryAfterSeconds },
        errorCode: appError.code,
        credits: 0,
      };
    } finally {
      leave?.();
    }
  }

  private async peekRateLimit(principal: Principal, operation: AnyOperation): Promise<RateDecision | null> {
    try {
      return await this.rateLimits.peek(String(principal.accountId), operation.rateLimitClass);
    } catch (error) {
      // The refusal is the answer; a bucket that cannot be read leaves only the policy to say.
      this.context.log.warn({ err: error }, 'rate-limit bucket not read for the RateLimit header');
      return null;
    }
  }

  /** RateLimit-Policy on every answer of the operation; RateLimit once the account's bucket was read. */
  private rateHeaders(operation: AnyOperation, decision: RateDecision | null): Record<string, string> {
    const limit = decision?.limit ?? this.perMinute[operation.rateLimitClass];
    return rateLimitHeaders(operation.rateLimitClass, limit, decision);
  }
}

function rateLimited(operation: AnyOperation, decision: RateDecision): AppError {
  return new AppError(
    'rate_limited',
    `Rate limit of ${decision.limit} ${operation.rateLimitClass} requests per minute exceeded; retry after ${decision.retryAfterSeconds} s.`,
    {
      details: {
        retryAfterSeconds: decision.retryAfterSeconds,
        limitPerMinute: decision.limit,
        rateLimitClass: operation.rateLimitClass,
      },
    },
  );
}

/**
 * What the caller's credential allows, checked before anything runs or is counted, however the
 * call arrived and whatever a surface checked before: an OAuth token of /mcp/v3 runs an operation
 * that charges only with mcp:spend, and any other only with mcp:read (or mcp:spend); a restricted
 * API key runs only what its restrictions let it (assertKeyMayRun: read-only keys, and a daily cap,
 * which also holds in every charge the handler makes: spendWith above).
 */
function permit(principal: Principal, operation: AnyOperation): void {
  assertKeyMayRun(principal.key, operation);
  const { oauth } = principal;
  if (!oauth) return;
  const required = scopeToRun(operation);
  if (scopeSatisfied(oauth.scopes, required)) return;
  throw new AppError(
    'insufficient_scope',
    required === spendScope
      ? `${operation.operationId} can charge credits, which needs the mcp:spend scope; this token has only ${oauth.scopes.join(' ') || 'no scope'}. Authorize again with mcp:spend, or call free operations only. Nothing was run or charged.`
      : `This token has no mcp:read scope. Authorize again with mcp:read. Nothing was run.`,
    { details: { requiredScope: required } },
  );
}

/** What makes two requests with one Idempotency-Key the same: the path (with its parameters) and the other fields. */
export function canonicalRequestHash(operation: AnyOperation, fields: Record<string, unknown>): string {
  const inPath = new Set(pathParameters(operation.path));
  const path = operation.path.replace(/\{(\w+)\}/g, (_match, name: string) =>
    encodeURIComponent(String(fields[name] ?? '')),
  );
  const body = Object.fromEntries(Object.entries(fields).filter(([name]) => !inPath.has(name)));
  return requestHash(operation.method, path, body);
}

export function envelope(
  operation: AnyOperation,
  result: HandlerResult<unknown>,
): { output: unknown; chargeInfo: Record<string, unknown> } {
  const chargeInfo: Record<string, unknown> = { method: chargeMethodOf(operation.credits.charged) };
  if (result.message) chargeInfo.message = result.message;
  else if (operation.credits.charged === 'later') chargeInfo.message = operation.credits.rule;
  if (
    operation.credits.charged === 'now' ||
    operation.credits.charged === 'upfront' ||
    result.creditsCharged !== undefined
  ) {
    chargeInfo.creditsCharged = result.creditsCharged ?? 0;
  }
  return { output: result.output, chargeInfo };
}

/** A NUL character or nesting deeper than any operation's fields, refused by the field it came in (see unreadableValues). */
function refuseUnreadableValues(fields: Record<string, unknown>): Record<string, unknown> {
  const issues = unreadableValues(fields);
  if (issues.length) {
    throw new AppError(
      'invalid_request',
      `Invalid request: ${issues
        .slice(0, 5)
        .map((i) => `${i.field}: ${i.message}`)
        .join('; ')}`,
      { details: { issues } },
    );
  }
  return fields;
}

function parsed(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

const neverAborted = new AbortController().signal;
