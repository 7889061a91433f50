import type { JsonRpcResponse, RawClientDispatch } from '@modelcontextprotocol/ext-tasks/client';

/**
 * Raw JSON-RPC over Streamable HTTP in the 2026-07-28 era, as the tasks extension puts it on the
 * wire: the tests of each task state read the exact messages, and the official requester library
 * (ext-tasks) takes `dispatch` as its host request path for the extension's methods.
 */

export const tasksExtension = 'io.modelcontextprotocol/tasks';
export const modernRevision = '2026-07-28';
export const clientInfo = { name: 'tasks-test', version: '1.0.0' };

export function envelope(capabilities: Record<string, unknown>): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': modernRevision,
    'io.modelcontextprotocol/clientInfo': clientInfo,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  };
}

export const withTasks = { extensions: { [tasksExtension]: {} } };

const nameSource: Record<string, string> = {
  'tools/call': 'name',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

let nextId = 1;

/** Posts one JSON-RPC request as it is (its `_meta` included) and returns the JSON-RPC answer. */
export async function post(
  url: string,
  headers: Record<string, string>,
  request: { method: string; params?: Record<string, unknown>; id?: number | string },
): Promise<{ status: number; message: any }> {
  const params = request.params ?? {};
  const field = nameSource[request.method];
  const name = field ? params[field] : undefined;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': modernRevision,
      'mcp-method': request.method,
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: request.id ?? nextId++, method: request.method, params }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  const json = (response.headers.get('content-type') ?? '').startsWith('text/event-stream')
    ? (/^data: (.*)$/m.exec(text)?.[1] ?? '')
    : text;
  return { status: response.status, message: json ? JSON.parse(json) : null };
}

/** A request of the 2026 era from a client with the given capabilities (the tasks extension by default). */
export async function rpc(
  url: string,
  apiKey: string,
  method: string,
  params: Record<string, unknown> = {},
  capabilities: Record<string, unknown> = withTasks,
): Promise<any> {
  const { message } = await post(
    url,
    { 'x-api-key': apiKey },
    { method, params: { ...params, _meta: envelope(capabilities) } },
  );
  return message;
}

/** The host request path the requester library sends the extension's requests through, with the API key. */
export function rawDispatch(url: string, apiKey: string): RawClientDispatch {
  return async (request) => {
    const { method, params, id } = request as { method: string; params?: Record<string, unknown>; id?: number };
    const { status, message } = await post(
      url,
      { 'x-api-key': apiKey },
      { method, ...(params ? { params } : {}), ...(id !== undefined ? { id } : {}) },
    );
    if (!message) throw new Error(`HTTP ${status} without a JSON-RPC answer to ${method}`);
    if (message.error) return { kind: 'error', error: message.error } as JsonRpcResponse;
    return { kind: 'result', result: message.result } as JsonRpcResponse;
  };
}
