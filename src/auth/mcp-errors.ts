import type { ServerResponse } from 'node:http';

/**
 * Every 401 and 403 of an MCP route, as a JSON-RPC error object: MCP clients (the Python SDK,
 * fastmcp, ...) show a JSON-RPC error's message, and only that, when a request fails at the
 * HTTP level. The message says what is wrong and what to do; `data.error` carries the REST
 * error envelope (code, message, requestId). The JSON-RPC code is -32000, as the MCP SDK's own
 * HTTP-level refusals (a foreign Origin or Host) use; the id is null because the request is
 * refused before it is read.
 */
export const httpRefusalCode = -32000;

export interface McpRefusal {
  status: 401 | 403 | 413;
  /** The REST error code (unauthorized, forbidden, insufficient_scope, ...). */
  code: string;
  /** What is wrong and what to do, for a person reading the client's error. */
  message: string;
  wwwAuthenticate?: string;
  requestId?: string;
}

export function refusalBody(refusal: McpRefusal): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: null,
    error: {
      code: httpRefusalCode,
      message: refusal.message,
      data: {
        error: {
          code: refusal.code,
          message: refusal.message,
          ...(refusal.requestId ? { requestId: refusal.requestId } : {}),
        },
      },
    },
  });
}

export function sendRefusal(res: ServerResponse, refusal: McpRefusal): void {
  const body = refusalBody(refusal);
  res.statusCode = refusal.status;
  if (refusal.wwwAuthenticate) res.setHeader('WWW-Authenticate', refusal.wwwAuthenticate);
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

/** A quoted-string value for a WWW-Authenticate parameter (RFC 9110): no quotes or backslashes inside. */
export function quoted(value: string): string {
  return `"${value.replace(/["\\]/g, "'")}"`;
}
