import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../context.js';
import { redactUrl } from '../log.js';

/**
 * One JSON log line per request, with a request id echoed in X-Request-Id; keys never appear.
 * Shared by the Express app and the MCP direct path, which answers ahead of Express.
 */

/** What handlers add to the line while the request runs. */
export interface RequestLogFields {
  requestId: string;
  operationId?: string;
  accountId?: number;
}

/** The caller's X-Request-Id when it is a sensible token, else a new one. */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && /^[\w.-]{1,100}$/.test(incoming) ? incoming : randomUUID();
}

export function startRequestLog(
  context: AppContext,
  req: IncomingMessage,
  res: ServerResponse,
  fields: Partial<RequestLogFields> = {},
  started = process.hrtime.bigint(),
): RequestLogFields {
  const requestId = fields.requestId ?? requestIdOf(req);
  const line = Object.assign(fields, { requestId }) as RequestLogFields;
  res.setHeader('X-Request-Id', requestId);
  // Routers rewrite req.url while they route: the line keeps the URL as it arrived.
  const url = req.url ?? '';
  res.on('finish', () => {
    if (!context.log.isLevelEnabled('info')) return;
    const milliseconds = Number(process.hrtime.bigint() - started) / 1e6;
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
