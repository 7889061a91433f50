import express, { type NextFunction, type Request, type Response } from 'express';
import { chargeMethodOf, pathParameters, type AnyOperation } from '../../operations/define.js';
import { operations } from '../../operations/index.js';
import type { Principal } from '../auth/api-keys.js';
import type { AppContext } from '../context.js';
import { spendWith } from '../core/credits.js';
import { assertKeyMayRun } from '../core/key-management.js';
import { ensureMonthlyGrant } from '../core/metering.js';
import { recordRequest } from '../core/request-log.js';
import { AppError } from '../errors.js';
import type { BoundHandler, HandlerResult, RequestContext } from './handler.js';
import { createAccountConcurrency, type AccountConcurrencyGate } from './concurrency.js';
import { errorBody, toAppError } from './error-handler.js';
import {
  claimIdempotencyKey,
  idempotencyHeader,
  idempotencyKeyOf,
  replayedHeader,
  requestHash,
  type Claim,
} from './idempotency.js';
import type { RateLimits } from './rate-limit.js';
import { parseWith, unreadableValues } from '../validation.js';

const bodyMethods = new Set(['POST', 'PATCH', 'PUT']);
const apiKeyHeader = 'x-api-key';

/**
 * The REST API under /v1, built from the operation registry: one route per operation path
 * (and alias), each authenticating the key, applying the rate limit, validating the request
 * with the operation's schema, running its handler and wrapping the answer in the envelope.
 */
export function createApiRouter(context: AppContext, handlers: readonly BoundHandler[]): express.Router {
  const router = express.Router();
  const rateLimits = context.services.rateLimits;
  const concurrency = createAccountConcurrency(context.config, context.db, context.log);
  // The longest a request can be running: past it, a claim left in flight belongs to a process that died.
  const inFlightLeaseMs = Math.max(120_000, 2 * context.config.DATABASE_STATEMENT_TIMEOUT_MS);
  const handlerById = new Map(handlers.map((h) => [h.operationId, h]));
  router.use(express.json({ limit: '2mb', strict: false }));
  router.use(requireJsonBody);

  for (const operation of operations) {
    const handler = handlerById.get(operation.operationId);
    if (!handler) throw new Error(`Operation ${operation.operationId} has no handler`);
    for (const path of [operation.path, ...(operation.aliasPaths ?? [])]) {
      const expressPath = path.replace(/^\/v1/, '').replace(/\{(\w+)\}/g, ':$1');
      const method = operation.method.toLowerCase() as 'get' | 'post' | 'patch' | 'put' | 'delete';
      router[method](expressPath, async (req: Request, res: Response, next: NextFunction) => {
        let leave: (() => void) | null = null;
        let claim: Claim | null = null;
        try {
          res.locals.operationId = operation.operationId;
          const principal = await authenticate(context, operation, req);
          res.locals.accountId = principal.accountId;
          logRun(context, req, res, principal, operation.operationId);
          assertKeyMayRun(principal.key, operation);
          await applyRateLimit(rateLimits, principal, operation, res);
          // Read once, checked for what no schema can refuse, before anything walks it (the idempotency hash does).
          const fields = refuseUnreadableValues(rawInput(operation, req));
          const idempotencyKey = operation.method === 'POST' ? idempotencyKeyOf(req.headers[idempotencyHeader]) : null;
          if (idempotencyKey) {
            const { apiKey: _apiKey, ...body } = isObject(req.body) ? req.body : {};
            claim = await claimIdempotencyKey(context.db.pool, {
              accountId: principal.accountId,
              key: idempotencyKey,
              hash: requestHash(operation.method, `${req.baseUrl}${req.path}`, body),
              operationId: operation.operationId,
              inFlightLeaseMs,
              owner: context.db.liveInstanceKey(),
            });
            if (claim.kind === 'replay') {
              res.setHeader(replayedHeader, 'true');
              res.status(claim.status).type('application/json').send(claim.body);
              return;
            }
          }
          // Every operation, so that none that charges (or reads the balance) can forget it.
          await ensureMonthlyGrant(context, principal);
          const input = parseWith(operation.input, fields);
          leave = await enterOrRefuse(concurrency, principal, operation, res);
          const requestContext: RequestContext = {
            context,
            principal,
            requestId: String(res.locals.requestId),
            log: context.log.child({ requestId: res.locals.requestId, operationId: operation.operationId }),
            signal: abortedWhenClientLeaves(res),
            ledgerKey: claim?.kind === 'run' ? claim.ledgerKey : null,
          };
          const key = principal.key;
          const result = await spendWith(
            key ? { accountId: principal.accountId, keyId: key.id, dailyCreditCap: key.dailyCreditCap } : null,
            () => handler.run(input, requestContext),
          );
          res.locals.creditsCharged = result.creditsCharged ?? 0;
          const status = result.status ?? 200;
          const body = JSON.stringify(envelope(operation, result));
          if (claim?.kind !== 'run') {
            res.status(status).type('application/json').send(body);
            return;
          }
          // The answer goes out while its copy is stored: a repeat that arrives before the store has committed waits for
          // it (claimIdempotencyKey), and a store that fails leaves the claim in flight, which a repeat after the lease
          // runs again under the same ledger key, charging nothing twice.
          const stored = claim.finish(status, body);
          claim = null;
          res.status(status).type('application/json').send(body);
          await stored.catch((error: unknown) =>
            requestContext.log.error({ err: error }, 'idempotent answer not stored'),
          );
        } catch (error) {
          res.locals.errorCode = toAppError(error).code;
          if (claim?.kind === 'run') {
            const appError = toAppError(error);
            await claim
              .finish(appError.status, JSON.stringify(errorBody(appError, res.locals.requestId as string | undefined)))
              .catch(() => undefined);
          }
          next(error);
        } finally {
          leave?.();
        }
      });
    }
  }
  router.use((req: Request, _res: Response, next: NextFunction) => {
    next(new AppError('not_found', `No endpoint ${req.method} /v1${req.path}. See /openapi.json for the endpoints.`));
  });
  return router;
}

/** The request log's row of this run, written once the answer is sent (its status known), without holding the answer. */
function logRun(context: AppContext, req: Request, res: Response, principal: Principal, operationId: string): void {
  const started = process.hrtime.bigint();
  res.once('finish', () => {
    recordRequest(context.db.pool, {
      accountId: principal.accountId,
      requestId: String(res.locals.requestId),
      surface: 'rest',
      operationId,
      path: req.originalUrl,
      status: res.statusCode,
      errorCode: typeof res.locals.errorCode === 'string' ? res.locals.errorCode : null,
      credits: typeof res.locals.creditsCharged === 'number' ? res.locals.creditsCharged : 0,
      apiKeyId: principal.key?.id ?? null,
      clientId: null,
      durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e6),
    }).catch((error: unknown) => context.log.warn({ err: error }, 'request log row not written'));
  });
}

/**
 * The key travels in the `x-api-key` header (preferred: query strings end up in proxies' logs),
 * or as the spec's `apiKey` field (JSON body for POST, PATCH and PUT; query string for GET and
 * DELETE). Both at once must agree: two different keys in one request is a client bug, not a
 * choice for the service to make.
 */
async function authenticate(context: AppContext, operation: AnyOperation, req: Request): Promise<Principal> {
  const header = req.headers[apiKeyHeader];
  const fromHeader = typeof header === 'string' && header.length > 0 ? header : null;
  const carrier = bodyMethods.has(operation.method) ? (isObject(req.body) ? req.body : {}) : req.query;
  const field = (carrier as Record<string, unknown>).apiKey;
  const fromField = typeof field === 'string' && field.length > 0 ? field : null;
  if (fromHeader !== null && fromField !== null && fromHeader !== fromField) {
    throw new AppError(
      'invalid_request',
      'Two different API keys: the x-api-key header and the apiKey field disagree. Send the key once, preferably in the x-api-key header.',
      {
        details: { issues: [{ field: 'apiKey', message: 'differs from the x-api-key header' }] },
      },
    );
  }
  const key = fromHeader ?? fromField;
  if (key === null) {
    const where = bodyMethods.has(operation.method) ? 'in the JSON body' : 'in the query string';
    throw new AppError(
      'unauthorized',
      `Missing API key: send it in the x-api-key header (preferred), or as apiKey ${where}.`,
    );
  }
  const principal = await context.authenticator.authenticate(key);
  if (!principal) throw new AppError('unauthorized', 'Invalid API key.');
  return principal;
}

async function applyRateLimit(
  limits: RateLimits,
  principal: Principal,
  operation: AnyOperation,
  res: Response,
): Promise<void> {
  const decision = await limits.take(String(principal.accountId), operation.rateLimitClass);
  res.setHeader('RateLimit-Limit', String(decision.limit));
  res.setHeader('RateLimit-Remaining', String(decision.remaining));
  if (!decision.allowed) {
    res.setHeader('Retry-After', String(decision.retryAfterSeconds));
    throw new AppError(
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
}

async function enterOrRefuse(
  concurrency: AccountConcurrencyGate,
  principal: Principal,
  operation: AnyOperation,
  res: Response,
): Promise<() => void> {
  try {
    return await concurrency.enter(principal.accountId, operation.rateLimitClass);
  } catch (error) {
    res.setHeader('Retry-After', '1');
    throw error;
  }
}

/** Aborted when the connection closes before the answer was sent, so work done for nobody can stop. */
function abortedWhenClientLeaves(res: Response): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new Error('the client closed the connection'));
  });
  return controller.signal;
}

/** A body that is not JSON would be read as no body at all ("missing API key"): say what is wrong instead. */
function requireJsonBody(req: Request, _res: Response, next: NextFunction): void {
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (bodyMethods.has(req.method) && hasBody && !req.is('application/json')) {
    next(
      new AppError(
        'unsupported_media_type',
        `The body must be JSON, sent with Content-Type: application/json (got ${req.headers['content-type'] ?? 'none'}).`,
      ),
    );
    return;
  }
  next();
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

/** The request as the operation's schema sees it: body or query without apiKey, plus path parameters. */
function rawInput(operation: AnyOperation, req: Request): Record<string, unknown> {
  const source = bodyMethods.has(operation.method) ? req.body : req.query;
  if (bodyMethods.has(operation.method) && req.body !== undefined && !isObject(req.body)) {
    throw new AppError('invalid_request', 'The request body must be a JSON object.');
  }
  const { apiKey: _apiKey, ...fields } = (source ?? {}) as Record<string, unknown>;
  for (const name of pathParameters(operation.path)) {
    const fromPath = req.params[name];
    if (fields[name] !== undefined && fields[name] !== fromPath) {
      throw new AppError('invalid_request', `${name} in the body differs from ${name} in the path.`, {
        details: { issues: [{ field: name, message: 'must equal the path parameter' }] },
      });
    }
    fields[name] = fromPath;
  }
  return fields;
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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
