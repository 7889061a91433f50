import { Pool } from 'undici';
import type { AnyOperation } from '../../operations/define.js';
import { pathParameters } from '../../operations/define.js';

/**
 * The gateway's only way to the service: the REST API over HTTP, through one keep-alive
 * pool. Going through REST (rather than calling handlers in-process) keeps one code path for
 * authentication, rate limits, validation and metering, and lets BACKEND_URL point the
 * gateway at another deployment.
 */

export interface RestAnswer {
  status: number;
  // The REST envelope or error body, as JSON.
  body: unknown;
  /** The body as it came, when it was JSON: the gateway reuses it rather than serialise `body` again. */
  json: string | null;
  retryAfterSeconds: number | null;
}

const bodyMethods = new Set(['POST', 'PATCH', 'PUT']);

export class RestBackend {
  private readonly pool: Pool;
  private readonly basePath: string;

  constructor(baseUrl: string, connections = 64) {
    const url = new URL(baseUrl);
    this.basePath = url.pathname.replace(/\/$/, '');
    // A short idle timeout: sockets left open to this very process would otherwise delay its shutdown.
    this.pool = new Pool(url.origin, { connections, keepAliveTimeout: 10_000, keepAliveMaxTimeout: 10_000, pipelining: 1 });
  }

  /** Calls an operation as the holder of `apiKey` with the caller's payload (path parameters included). */
  async call(operation: AnyOperation, payload: Record<string, unknown>, apiKey: string, requestId?: string): Promise<RestAnswer> {
    const inPath = new Set(pathParameters(operation.path));
    const path = operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(String(payload[name] ?? '')));
    const rest = Object.fromEntries(Object.entries(payload).filter(([name]) => !inPath.has(name)));
    const headers: Record<string, string> = { accept: 'application/json' };
    if (requestId) headers['x-request-id'] = requestId;
    let fullPath = this.basePath + path;
    let body: string | undefined;
    if (bodyMethods.has(operation.method)) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify({ ...rest, apiKey });
    } else {
      const query = new URLSearchParams();
      for (const [name, value] of Object.entries(rest)) {
        if (value === undefined || value === null) continue;
        query.append(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
      }
      query.append('apiKey', apiKey);
      fullPath += `?${query.toString()}`;
    }
    const response = await this.pool.request({ method: operation.method, path: fullPath, headers, body });
    const text = await response.body.text();
    let parsed: unknown = text;
    let json: string | null = null;
    try {
      parsed = text.length ? JSON.parse(text) : null;
      json = text.length ? text : null;
    } catch {
      // A proxy's HTML error page: keep the text for the message.
    }
    const retryAfter = response.headers['retry-after'];
    const retryAfterSeconds = typeof retryAfter === 'string' && /^\d+$/.test(retryAfter) ? Number(retryAfter) : null;
    return { status: response.statusCode, body: parsed, json, retryAfterSeconds };
  }
}
