import express, { type NextFunction, type Request, type Response } from 'express';
import { pathParameters, type AnyOperation } from '../../operations/define.js';
import { operations } from '../../operations/index.js';
import type { Principal } from '../core/principal.js';
import { rateLimitsPerMinute } from '../config.js';
import type { AppContext } from '../context.js';
import { AppError } from '../errors.js';
import { idempotencyHeader, idempotencyKeyOf, requestHash } from '../runner/idempotency.js';
import { rateLimitHeaders } from '../runner/rate-limit.js';
import type { OperationRunner } from '../runner/run-operation.js';

const bodyMethods = new Set(['POST', 'PATCH', 'PUT']);
const apiKeyHeader = 'x-api-key';

/**
 * The REST API under /v1, built from the operation registry: one route per operation path (and
 * alias), each authenticating the key, reading the request into the operation's fields and
 * handing them to the operation runner (src/runner/run-operation.ts), which does everything
 * else; its answer is sent as it comes, status, headers and body.
 */
export function createApiRouter(context: AppContext, runner: OperationRunner): express.Router {
  const router = express.Router();
  router.use(express.json({ limit: '2mb', strict: false }));
  router.use(requireJsonBody);
  const perMinute = rateLimitsPerMinute(context.config);

  for (const operation of operations) {
    // Every operation has a handler before the first request is taken.
    runner.handlerOf(operation);
    for (const path of [operation.path, ...(operation.aliasPaths ?? [])]) {
      const expressPath = path.replace(/^\/v1/, '').replace(/\{(\w+)\}/g, ':$1');
      const method = operation.method.toLowerCase() as 'get' | 'post' | 'patch' | 'put' | 'delete';
      router[method](expressPath, async (req: Request, res: Response, next: NextFunction) => {
        try {
          res.locals.operationId = operation.operationId;
          // The class's policy even when the key is refused, before any account (and bucket) is known.
          const policy = rateLimitHeaders(operation.rateLimitClass, perMinute[operation.rateLimitClass], null);
          for (const [name, value] of Object.entries(policy)) res.setHeader(name, value);
          const principal = await authenticate(context, operation, req);
          res.locals.accountId = principal.accountId;
          const fields = rawInput(operation, req);
          const idempotencyKey = operation.method === 'POST' ? idempotencyKeyOf(req.headers[idempotencyHeader]) : null;
          const answer = await runner.run({
            operation,
            principal,
            fields,
            requestId: String(res.locals.requestId),
            via: { surface: 'rest', path: req.originalUrl },
            signal: abortedWhenClientLeaves(res),
            idempotency: idempotencyKey
              ? { key: idempotencyKey, requestHash: () => keyedRequestHash(operation, req) }
              : null,
          });
          for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
          res.status(answer.status).type('application/json').send(answer.json);
        } catch (error) {
          next(error);
        }
      });
    }
  }
  router.use((req: Request, _res: Response, next: NextFunction) => {
    next(new AppError('not_found', `No endpoint ${req.method} /v1${req.path}. See /openapi.json for the endpoints.`));
  });
  return router;
}

/** What makes two REST requests with one Idempotency-Key the same: the path as sent and the body without the API key (which may rotate). */
function keyedRequestHash(operation: AnyOperation, req: Request): string {
  const { apiKey: _apiKey, ...body } = isObject(req.body) ? req.body : {};
  return requestHash(operation.method, `${req.baseUrl}${req.path}`, body);
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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
