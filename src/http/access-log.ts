import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../context.js';
import { redactUrl } from '../log.js';

/**
 * The access log: one JSON log line per HTTP request (the account's request log of operations is
 * src/core/request-log.ts), with a request id echoed in X-Request-Id; keys never appear.
 * Shared by the Express app and the MCP direct path, which answers ahead of Express.
 */

/** What handlers add to the line while the request runs. */
export interface AccessLogFields {
  requestId: string;
  operationId?: string;
  accountId?: number;
}

const fixedRoutes = new Set(['/mcp', '/mcp/v2', '/mcp/v3', '/healthz', '/openapi.json', '/llms.txt', '/metrics']);

/** A route label of bounded cardinality for metrics: the operationId, or a fixed path; never an id or a query value. */
export function routeLabel(url: string, operationId: string | undefined): string {
  if (operationId) return operationId;
  const path = url.split('?')[0] ?? '';
  if (fixedRoutes.has(path)) return path;
  if (path.startsWith('/downloads/')) return 'download';
  if (path.startsWith('/.well-known/')) return 'well-known';
  return 'other';
}

/** The caller's X-Request-Id when it is a sensible token, else a new one. */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && /^[\w.-]{1,100}$/.test(incoming) ? incoming : randomUUID();
}

export function startAccessLog(
  context: AppContext,
  req: IncomingMessage,
  res: ServerResponse,
  fields: Partial<AccessLogFields> = {},
  started = process.hrtime.bigint(),
): AccessLogFields {
  const requestId = fields.requestId ?? requestIdOf(req);
  const line = Object.assign(fields, { requestId }) as AccessLogFields;
  res.setHeader('X-Request-Id', requestId);
  // Routers rewrite req.url while they route: the line keeps the URL as it arrived.
  const url = req.url ?? '';
  res.on('finish', () => {
    const milliseconds = Number(process.hrtime.bigint() - started) / 1e6;
    context.services.metrics?.observeRequest(
      routeLabel(url, line.operationId),
      req.method ?? '',
      res.statusCode,
      milliseconds / 1000,
    );
    if (!context.log.isLevelEnabled('info')) return;
    context.log.info(
      {
        requestId,
        method: req.method,
        url: redactUrl(url),
        status: res.statusCode,
        ms: Math.round(milliseconds * 10) / 10,
        operationId: line.operationId,
        accountId: line.accountId,
      },
      'request',
    );
  });
  return line;
}
