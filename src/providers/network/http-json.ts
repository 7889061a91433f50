import { Agent, errors as undiciErrors, request, type Dispatcher } from 'undici';

/**
 * A JSON call to an outside HTTP service with one overall deadline, shared by the HTTP
 * adapters of the network source and of the contact providers. Outcomes are reduced to what
 * an adapter needs to decide: a status and a parsed body, or a failure it can classify.
 */
export interface HttpJsonOptions {
  method: 'GET' | 'POST';
  url: string;
  apiKey?: string | undefined;
  body?: unknown;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  dispatcher?: Dispatcher;
}

export interface HttpJsonResponse {
  status: number;
  /** Parsed JSON, or undefined when the body was empty or not JSON. */
  body: unknown;
}

export type HttpFailureKind = 'timeout' | 'unavailable';

export class HttpCallError extends Error {
  constructor(
    readonly kind: HttpFailureKind,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'HttpCallError';
  }
}

/** One connection pool per adapter instance keeps sockets warm between calls. */
export function createDispatcher(timeoutMs: number): Agent {
  return new Agent({
    connectTimeout: timeoutMs,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    keepAliveTimeout: 30_000,
  });
}

export async function httpJson(options: HttpJsonOptions): Promise<HttpJsonResponse> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  try {
    const response = await request(options.url, {
      method: options.method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal,
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    });
    const text = await response.body.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: response.statusCode, body };
  } catch (error) {
    const timedOut =
      deadline.aborted ||
      error instanceof undiciErrors.HeadersTimeoutError ||
      error instanceof undiciErrors.BodyTimeoutError ||
      error instanceof undiciErrors.ConnectTimeoutError;
    if (timedOut)
      throw new HttpCallError('timeout', `no answer from ${hostOf(options.url)} within ${options.timeoutMs} ms`, {
        cause: error,
      });
    throw new HttpCallError('unavailable', `call to ${hostOf(options.url)} failed: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** Only the host appears in messages: paths can carry identifiers of people. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the upstream service';
  }
}
