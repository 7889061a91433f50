import { chargeMethodOf, pathParameters, type AnyOperation, type RateLimitClass } from '../../operations/define.js';
import type { Principal } from '../core/principal.js';
import { scopeSatisfied, scopeToRun, spendScope } from '../auth/scopes.js';
import type { AppContext } from '../context.js';
import { chargeFor, getBalance, spendWith } from '../core/credits.js';
import { assertKeyMayRun } from '../core/api-keys.js';
import { MonthlyGrants } from '../core/metering.js';
import { recordRequest, type Surface } from '../core/request-log.js';
import { rateLimitsPerMinute } from '../config.js';
import { AppError, type FieldIssue } from '../errors.js';
import { describeIssues, parseWith, unreadableValues } from '../validation.js';
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

/** What the charge of a run says: how the operation charges, what it took, and a note. */
export interface ChargeInfo {
  method: string;
  creditsCharged?: number;
  message?: string;
}

/** A refusal or failure as a value: the error body's fields, and the status REST gives its code. */
export interface OperationError {
  code: string;
  message: string;
  details?: unknown;
  /** The HTTP status of this code on REST (src/errors.ts), which a tool error names too. */
  status: number;
  /** Seconds to wait before trying again, when the refusal says so. */
  retryAfterSeconds: number | null;
}

/** An operation's result as a value, for a surface that is not HTTP (the MCP gateway). */
export type OperationOutcome =
  | {
      ok: true;
      output: unknown;
      chargeInfo: ChargeInfo;
      /** The envelope `{output, chargeInfo}` serialised where the operation ran, when it was (passed on rather than serialised again). */
      envelopeJson: string | null;
    }
  | { ok: false; error: OperationError };

declare const preparedBrand: unique symbol;

/**
 * A call checked once, before anything about it is counted or guarded: the credential allows the
 * operation, and the fields are readable and valid for its schema. Only `prepareCall` makes one,
 * and `runPrepared` runs it without checking either again.
 */
export interface PreparedCall {
  readonly operation: AnyOperation;
  readonly principal: Principal;
  /** The fields as the caller sent them: what a remote REST API is sent and an Idempotency-Key's hash is of. */
  readonly fields: Record<string, unknown>;
  /** The fields as the operation's schema parsed them: what the handler runs with and the guards price. */
  readonly input: Record<string, unknown>;
  readonly [preparedBrand]: true;
}

export type Preparation =
  | { ok: true; call: PreparedCall }
  /** The credential does not allow the operation (scope, or a restricted key): nothing was run or counted. */
  | { ok: false; refusal: 'credential'; error: OperationError }
  /** The fields are unreadable or invalid, by field. */
  | { ok: false; refusal: 'invalid'; issues: FieldIssue[]; error: OperationError };

/**
 * The checks of a call that need nothing but the call: what the credential allows (`permit`), then
 * values no schema can refuse and the operation's schema, all issues together, by field. Pure: the
 * MCP gateway prepares a call once, guards it on the parsed input, and runs what it prepared.
 */
export function prepareCall(
  operation: AnyOperation,
  principal: Principal,
  fields: Record<string, unknown>,
): Preparation {
  try {
    permit(principal, operation);
  } catch (error) {
    return { ok: false, refusal: 'credential', error: errorOf(toAppError(error)) };
  }
  const unreadable = unreadableValues(fields);
  const parsed = operation.input.safeParse(fields);
  if (!parsed.success || unreadable.length) {
    const issues = [...unreadable, ...(parsed.success ? [] : describeIssues(parsed.error, operation.input))];
    return { ok: false, refusal: 'invalid', issues, error: errorOf(invalidFields(issues)) };
  }
  const call = { operation, principal, fields, input: parsed.data as Record<string, unknown> };
  return { ok: true, call: call as PreparedCall };
}

/** How a prepared call is run: as `OperationRequest`, less what the prepared call holds. */
export type PreparedRequest = Omit<OperationRequest, 'operation' | 'principal' | 'fields'>;

/** What runs operations for the REST routes. */
export interface RunsOperations {
  run(request: OperationRequest): Promise<OperationAnswer>;
}

/** The typed in-process port the MCP gateway's backend holds: prepared calls in, results as values out. */
export interface OperationPort {
  runPrepared(call: PreparedCall, request: PreparedRequest): Promise<OperationOutcome>;
  /**
   * The account's balance, for a guard that weighs a call before it runs (the monthly grant applied
   * when due, as every run does): no operation runs, so no request-log row and no rate-limit token.
   */
  balanceOf(principal: Principal): Promise<number>;
}

export class OperationRunner implements RunsOperations, OperationPort {
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
    return (await this.logged(request, () => this.answer(request, null))).answer;
  }

  /** Runs a call prepared by `prepareCall` (its credential and fields are not checked again), with the result as a value. */
  async runPrepared(call: PreparedCall, request: PreparedRequest): Promise<OperationOutcome> {
    const full: OperationRequest = {
      ...request,
      operation: call.operation,
      principal: call.principal,
      fields: call.fields,
    };
    return (await this.logged(full, () => this.answer(full, call))).outcome;
  }

  async balanceOf(principal: Principal): Promise<number> {
    await this.grants.ensure(principal);
    return getBalance(this.context.db.pool, principal.accountId);
  }

  private async logged(request: OperationRequest, run: () => Promise<Ran>): Promise<Ran> {
    const started = process.hrtime.bigint();
    const outcome = await run();
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
    return outcome;
  }

  /** The run, in order; a prepared call skips the checks it passed when it was prepared. */
  private async answer(request: OperationRequest, prepared: PreparedCall | null): Promise<Ran> {
    const { operation, principal, requestId } = request;
    const headers: Record<string, string> = {};
    // The account's bucket of the operation's class, once read: what the RateLimit header says.
    let decision: RateDecision | null = null;
    const log = this.context.log.child({ requestId, operationId: operation.operationId });
    let leave: (() => void) | null = null;
    let claim: Claim | null = null;
    try {
      if (!prepared) permit(principal, operation);
      decision = await this.rateLimits.take(String(principal.accountId), operation.rateLimitClass);
      Object.assign(headers, this.rateHeaders(operation, decision));
      if (!decision.allowed) throw rateLimited(operation, decision);
      const fields = prepared ? prepared.fields : refuseUnreadableValues(request.fields);
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
          const body = parsed(claim.body);
          const answer = { status: claim.status, body, json: claim.body, headers, retryAfterSeconds: null };
          return {
            answer,
            outcome: outcomeOfAnswer(claim.status, body, claim.body, null),
            errorCode: null,
            credits: 0,
          };
        }
      }
      // Every operation, so that none that charges (or reads the balance) can forget it.
      await this.grants.ensure(principal);
      const input = prepared ? prepared.input : parseWith(operation.input, fields);
      leave = await this.concurrency.enter(principal.accountId, operation.rateLimitClass);
      const requestContext: RequestContext = {
        context: this.context,
        principal,
        requestId,
        log,
        signal: request.signal ?? neverAborted,
        ledgerKey: claim?.kind === 'run' ? claim.ledgerKey : null,
      };
      // Every charge the handler makes is the key's too, and a capped key's cap holds in the statement that takes it;
      // the ledger names the operation it was made for.
      const { key } = principal;
      const result = await chargeFor(operation.operationId, () =>
        spendWith(
          key ? { accountId: principal.accountId, keyId: key.id, dailyCreditCap: key.dailyCreditCap } : null,
          () => this.handlerOf(operation).run(input, requestContext),
        ),
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
        outcome: { ok: true, output: body.output, chargeInfo: body.chargeInfo, envelopeJson: json },
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
        // The details as the body gives them: a 429's limit numbers reach MCP's tool errors too.
        outcome: {
          ok: false,
          error: { ...errorOf(appError), details: (body.error.details ?? {}) as Record<string, unknown> },
        },
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
): { output: unknown; chargeInfo: ChargeInfo } {
  const chargeInfo: ChargeInfo = { method: chargeMethodOf(operation.credits.charged) };
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
  if (issues.length) throw invalidFields(issues);
  return fields;
}

function invalidFields(issues: FieldIssue[]): AppError {
  return new AppError(
    'invalid_request',
    `Invalid request: ${issues
      .slice(0, 5)
      .map((i) => `${i.field}: ${i.message}`)
      .join('; ')}`,
    { details: { issues } },
  );
}

/** What one run gives: the answer as REST sends it, the same as a value, and what the request log keeps. */
interface Ran {
  answer: OperationAnswer;
  outcome: OperationOutcome;
  errorCode: string | null;
  credits: number;
}

function errorOf(appError: AppError): OperationError {
  return {
    code: appError.code,
    message: appError.message,
    details: appError.details ?? {},
    status: appError.status,
    retryAfterSeconds: retryAfterOf(appError),
  };
}

/**
 * An answer that came as HTTP (a stored idempotent answer, or a REST API at BACKEND_URL) as the
 * same value a run gives: a 2xx envelope is the output and its charge; anything else an error, by
 * the error body's code when there is one (a proxy's page or an empty body: by the status alone).
 */
export function outcomeOfAnswer(
  status: number,
  body: unknown,
  json: string | null,
  retryAfterSeconds: number | null,
): OperationOutcome {
  const envelopeBody = body as { output?: unknown; chargeInfo?: ChargeInfo } | null;
  if (status >= 200 && status < 300 && envelopeBody !== null && typeof envelopeBody === 'object') {
    return {
      ok: true,
      output: envelopeBody.output,
      chargeInfo: envelopeBody.chargeInfo ?? { method: 'free' },
      envelopeJson: json,
    };
  }
  const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)?.error;
  const details = (error?.details ?? undefined) as { retryAfterSeconds?: unknown } | undefined;
  return {
    ok: false,
    error: {
      code: typeof error?.code === 'string' ? error.code : status >= 500 ? 'upstream_unavailable' : `http_${status}`,
      message:
        typeof error?.message === 'string'
          ? error.message
          : typeof body === 'string' && body.length
            ? body.slice(0, 300)
            : `HTTP ${status}`,
      ...(error?.details !== undefined ? { details: error.details } : {}),
      status,
      retryAfterSeconds:
        retryAfterSeconds ?? (typeof details?.retryAfterSeconds === 'number' ? details.retryAfterSeconds : null),
    },
  };
}

function parsed(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

const neverAborted = new AbortController().signal;
