import { Readable } from 'node:stream';
import {
  CLIENT_CAPABILITIES_META_KEY,
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  JSONRPC_VERSION,
  SERVER_INFO_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
  classifyInboundRequest,
  isJSONRPCRequest,
  isJsonContentType,
  validateHostHeader,
  validateOriginHeader,
  type AuthInfo,
  type CallToolResult,
  type Implementation,
  type JSONRPCResultResponse,
} from '@modelcontextprotocol/server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../context.js';
import { sendRefusal } from '../auth/mcp-errors.js';
import { requestIdOf, startAccessLog } from '../http/access-log.js';
import type { MetricsRecorder } from '../http/metrics.js';
import { callerOf, canAskByForm } from './server.js';
import { declaresTasks } from './tasks.js';
import type { McpTool } from './tools/table.js';

/**
 * The direct path: answers the MCP requests agents send most (`tools/call` of a tool of the
 * surface's table that needs no round trip with the client) without building the SDK's
 * per-request server, web-standard Request and response stream, more CPU per call than the tools
 * themselves. It is a twin of the SDK's path, not a second implementation: the tools are the
 * SDK's own (tools/table.ts drives both), the JSON-RPC shape and the era are decided by the SDK's
 * own exported functions (isJSONRPCRequest, classifyInboundRequest), and the answer is the
 * result message serialised whole, framed as the SDK frames it (the SDK exports no framing
 * function; test/mcp/direct-path.test.ts sends the same requests, every tool of every surface in
 * both eras and a fuzz corpus, through both paths and compares the answers). It takes only
 * requests that are unambiguously well-formed; everything else (other methods, other tools,
 * anything malformed or unusual, a client that can be asked by form) goes on to the SDK
 * untouched, with the body it had. MCP_DIRECT_PATH=false turns it off.
 */

const modernRevision = '2026-07-28';
/** Tool calls are small; a larger (or unsized) body is left to the SDK, which owns the limits. */
const maxDirectBodyBytes = 64 * 1024;
const allowedParamKeys = new Set(['name', 'arguments', '_meta']);

type Era = 'modern' | 'legacy';

interface DirectCall {
  era: Era;
  id: string | number;
  tool: McpTool;
  arguments: unknown;
  clientCapabilities: unknown;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? undefined : value;
}

/** Whether the request asks for what the SDK answers tool calls with (both media types, as the official clients send). */
function acceptsBoth(req: IncomingMessage): boolean {
  const accept = header(req, 'accept') ?? '';
  return accept.includes('application/json') && accept.includes('text/event-stream');
}

function readBody(req: IncomingMessage, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      chunks.push(chunk);
    });
    // A client already gone before the body was asked for: nothing more will come.
    if (req.destroyed) {
      reject(new Error('client closed the request before its body ended'));
      return;
    }
    let ended = false;
    req.on('end', () => {
      ended = true;
      if (received === length) resolve(Buffer.concat(chunks));
      else reject(new Error('request body shorter than its Content-Length'));
    });
    req.on('error', reject);
    // A client that goes away mid-body: nothing to answer, and nothing may wait for it forever.
    req.on('close', () => {
      if (!ended) reject(new Error('client closed the request before its body ended'));
    });
  });
}

/** What decides how the SDK routes a tools/call: its headers, the tool's name and the `_meta` envelope. */
interface RouteQuestion {
  protocolVersionHeader: string | undefined;
  mcpMethodHeader: string | undefined;
  mcpNameHeader: string | undefined;
  name: string;
  meta: Record<string, unknown> | undefined;
}

/**
 * The era the SDK's classifier (classifyInboundRequest) gives a tools/call, or null when it
 * refuses it or routes it otherwise. The classifier reads the headers and the envelope, never the
 * arguments, so it is asked about the call with its arguments left out, and its verdict is kept
 * per question (bounded; cleared when full): a client sends the same envelope with every call,
 * and the classifier's schema checks cost more than the rest of a call. Each direct path keeps
 * its own.
 */
export class RouteVerdicts {
  private readonly verdicts = new Map<string, Era | null>();

  era(question: RouteQuestion): Era | null {
    const { protocolVersionHeader, mcpMethodHeader, mcpNameHeader, name, meta } = question;
    const key = JSON.stringify([protocolVersionHeader, mcpMethodHeader, mcpNameHeader, name, meta]);
    const known = this.verdicts.get(key);
    if (known !== undefined) return known;
    const params = { name, arguments: {}, ...(meta === undefined ? {} : { _meta: meta }) };
    const route = classifyInboundRequest({
      httpMethod: 'POST',
      ...(protocolVersionHeader === undefined ? {} : { protocolVersionHeader }),
      ...(mcpMethodHeader === undefined ? {} : { mcpMethodHeader }),
      ...(mcpNameHeader === undefined ? {} : { mcpNameHeader }),
      body: { jsonrpc: JSONRPC_VERSION, id: 0, method: 'tools/call', params },
    });
    let era: Era | null = null;
    if (route.kind === 'modern' && route.messageKind === 'request' && route.classification.revision === modernRevision)
      era = 'modern';
    // A 2025-era call names a revision this SDK serves, or none, and none of the 2026 headers.
    else if (
      route.kind === 'legacy' &&
      route.reason === 'no-claim' &&
      (protocolVersionHeader === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersionHeader)) &&
      mcpMethodHeader === undefined &&
      mcpNameHeader === undefined
    )
      era = 'legacy';
    if (key.length > maxRememberedQuestionChars) return era;
    if (this.verdicts.size >= routeVerdictLimit) this.verdicts.clear();
    this.verdicts.set(key, era);
    return era;
  }
}

const routeVerdictLimit = 1_000;
const maxRememberedQuestionChars = 4_096;

/** The call, when this request is one the direct path answers exactly as the SDK would; otherwise null. */
function directCall(
  req: IncomingMessage,
  body: unknown,
  tools: ReadonlyMap<string, McpTool>,
  routes: RouteVerdicts,
): DirectCall | null {
  // The SDK's own check of a JSON-RPC request's shape.
  if (!isJSONRPCRequest(body) || body.method !== 'tools/call') return null;
  const { id, params } = body as { id: unknown; params?: unknown };
  if (!(typeof id === 'string' || Number.isSafeInteger(id))) return null;
  if (!isPlainObject(params) || !Object.keys(params).every((key) => allowedParamKeys.has(key))) return null;
  const tool = typeof params.name === 'string' ? tools.get(params.name) : undefined;
  if (!tool || !(params.arguments === undefined || isPlainObject(params.arguments))) return null;
  const meta = params._meta;
  if (meta !== undefined && !isPlainObject(meta)) return null;
  const question = {
    protocolVersionHeader: header(req, 'mcp-protocol-version'),
    mcpMethodHeader: header(req, 'mcp-method'),
    mcpNameHeader: header(req, 'mcp-name'),
    name: tool.name,
    meta,
  };
  const era = routes.era(question);
  if (!era) return null;
  // The classifier routes a 2026 claim; the SDK's modern leg then requires the standard headers, agreeing with the body.
  if (
    era === 'modern' &&
    (question.protocolVersionHeader !== modernRevision ||
      question.mcpMethodHeader !== 'tools/call' ||
      question.mcpNameHeader !== tool.name)
  )
    return null;
  const clientCapabilities = era === 'modern' ? meta?.[CLIENT_CAPABILITIES_META_KEY] : undefined;
  return { era, id: id as string | number, tool, arguments: params.arguments ?? {}, clientCapabilities };
}

/** The result as the SDK puts it on the wire: the 2026 era stamps the result type and the server's identity. */
function wireResult(era: Era, result: CallToolResult, serverInfo: Implementation): Record<string, unknown> {
  if (era === 'legacy') return result;
  const stamped: Record<string, unknown> = { ...result, resultType: 'complete' };
  const meta = result._meta;
  if (meta === undefined) stamped._meta = { [SERVER_INFO_META_KEY]: serverInfo };
  else if (isPlainObject(meta) && meta[SERVER_INFO_META_KEY] === undefined)
    stamped._meta = { ...meta, [SERVER_INFO_META_KEY]: serverInfo };
  return stamped;
}

function respond(res: ServerResponse, call: DirectCall, result: CallToolResult, serverInfo: Implementation): void {
  const answer: JSONRPCResultResponse = {
    result: wireResult(call.era, result, serverInfo),
    jsonrpc: JSONRPC_VERSION,
    id: call.id,
  };
  const message = JSON.stringify(answer);
  if (call.era === 'modern') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(message) });
    res.end(message);
    return;
  }
  // The 2025-era stateless exchange answers a POST with a one-event stream.
  const stream = `event: message\ndata: ${message}\n\n`;
  res.writeHead(200, {
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'content-type': 'text/event-stream',
    'x-accel-buffering': 'no',
    'content-length': Buffer.byteLength(stream),
  });
  res.end(stream);
}

/** The SDK's own limit on a request body. */
export const maxMcpBodyBytes = DEFAULT_MAX_REQUEST_BODY_SIZE;

/**
 * The bodies read before the SDK handler runs (by the direct path, which passes on what it does
 * not answer, or by the /mcp/v3 scope check), kept for the handler to read again. One per
 * mounted set of MCP surfaces; an entry goes with its request.
 */
export class ReadBodies {
  private readonly bodies = new WeakMap<IncomingMessage, Buffer>();

  keep(req: IncomingMessage, body: Buffer): void {
    this.bodies.set(req, body);
  }

  /**
   * The request's body, read once and kept for the SDK handler (replayed), for a step before it
   * that must see the body (the /mcp/v3 scope check). Null for a request without one. A body over
   * the SDK's limit is answered 413 here, since a partly read stream could not be handed on.
   */
  async buffered(req: IncomingMessage, res: ServerResponse): Promise<Buffer | null | 'answered'> {
    const known = this.bodies.get(req);
    if (known) return known;
    if (req.method !== 'POST') return null;
    const declared = Number(header(req, 'content-length'));
    const chunks: Buffer[] = [];
    let received = 0;
    let tooLarge = Number.isFinite(declared) && declared > maxMcpBodyBytes;
    if (!tooLarge) {
      for await (const chunk of req as AsyncIterable<Buffer>) {
        received += chunk.length;
        if (received > maxMcpBodyBytes) {
          tooLarge = true;
          break;
        }
        chunks.push(chunk);
      }
    }
    if (tooLarge) {
      sendRefusal(res, {
        status: 413,
        code: 'payload_too_large',
        message: `The request body is larger than ${maxMcpBodyBytes} bytes.`,
      });
      return 'answered';
    }
    const body = Buffer.concat(chunks);
    this.bodies.set(req, body);
    return body;
  }

  /**
   * The request as the SDK's Node adapter should see it: it reads method, URL, headers, auth and
   * the body stream, so a request whose body was already read gets that body replayed.
   */
  replayed<R extends IncomingMessage>(req: R): R {
    const body = this.bodies.get(req);
    if (!body) return req;
    return Object.assign(Readable.from([body]), {
      method: req.method,
      url: req.url,
      headers: req.headers,
      auth: (req as { auth?: AuthInfo }).auth,
    }) as unknown as R;
  }
}

/** One MCP surface as the direct path sees it. */
export interface DirectSurface {
  /** The surface's tool table, the one its SDK server registers. */
  tools: ReadonlyMap<string, McpTool>;
  /** The request's AuthInfo when its credential is valid, else null (Express then answers the 401). */
  authenticate(req: IncomingMessage, requestId: string): Promise<AuthInfo | null>;
  /** Whether the credential allows this body (the /mcp/v3 scope rule); when it does not, Express answers the 403. */
  permits?(auth: AuthInfo, body: unknown): boolean;
}

export interface DirectPathOptions {
  context: AppContext;
  serverInfo: Implementation;
  surfaces: Map<string, DirectSurface>;
  /** DNS-rebinding protection, as the Express routes apply it (null: Host not checked). */
  allowedHosts: string[] | null;
  allowedOrigins: string[];
  /** The CORS headers of an answer to a browser at this Origin (none when it is not allowed). */
  corsHeaders?: (origin: string | undefined) => Record<string, string>;
  /** Where the direct path reports how many requests it answered and passed on. */
  metrics?: MetricsRecorder | null;
  /** Where a body it reads and passes on is kept for the SDK handler. */
  bodies: ReadBodies;
}

/**
 * The process's request listener in front of the Express app. It answers the direct calls
 * itself, after the same Host, Origin and credential checks as the Express routes, and hands
 * everything else to Express: requests it does not take, and every refusal, which Express
 * answers as it always does (a request with a bad key is checked twice, which only a bad key pays).
 * Its state (the route verdicts, its counts) is its own.
 */
export class DirectPath {
  /** How many MCP requests it answered, and how many it read and passed on to the SDK. */
  readonly counts = { answered: 0, passedOn: 0 };
  private readonly routes = new RouteVerdicts();

  constructor(private readonly options: DirectPathOptions) {}

  /** The listener: this direct path in front of `express`. */
  before(
    express: (req: IncomingMessage, res: ServerResponse) => void,
  ): (req: IncomingMessage, res: ServerResponse) => void {
    return directPath(this.options, express, this.counts, this.routes);
  }
}

function directPath(
  options: DirectPathOptions,
  express: (req: IncomingMessage, res: ServerResponse) => void,
  counts: DirectPath['counts'],
  routes: RouteVerdicts,
) {
  const { context, serverInfo, surfaces, allowedHosts, allowedOrigins, corsHeaders, metrics, bodies } = options;
  return (req: IncomingMessage, res: ServerResponse): void => {
    const surface = req.method === 'POST' ? surfaces.get(req.url ?? '') : undefined;
    const length = Number(header(req, 'content-length'));
    if (
      !surface ||
      !isJsonContentType(header(req, 'content-type') ?? null) ||
      !acceptsBoth(req) ||
      header(req, 'content-encoding') !== undefined ||
      !Number.isInteger(length) ||
      length <= 0 ||
      length > maxDirectBodyBytes ||
      (allowedHosts !== null && !validateHostHeader(header(req, 'host'), allowedHosts).ok) ||
      !validateOriginHeader(header(req, 'origin'), allowedOrigins).ok
    ) {
      express(req, res);
      return;
    }
    void answer(req, res, surface, length).catch((error: unknown) => {
      if (req.destroyed || res.destroyed) {
        context.log.debug({ err: error }, 'mcp client went away');
        return;
      }
      context.log.error({ err: error }, 'mcp direct path failed');
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }));
      } else res.destroy();
    });
  };

  async function answer(
    req: IncomingMessage,
    res: ServerResponse,
    surface: DirectSurface,
    length: number,
  ): Promise<void> {
    const started = process.hrtime.bigint();
    const requestId = requestIdOf(req);
    const auth = await surface.authenticate(req, requestId);
    if (!auth) {
      express(req, res);
      return;
    }
    const raw = await readBody(req, length);
    const body = parsedBody(raw);
    const call = body === undefined ? null : directCall(req, body, surface.tools, routes);
    if (!call || (surface.permits && !surface.permits(auth, body))) {
      passOn(req, res, raw);
      return;
    }
    const parsed = call.tool.input.safeParse(call.arguments);
    // Invalid arguments get the SDK's own wording; a client to be asked by form, the SDK's round trip;
    // a client with the tasks extension, the SDK server where tasks are answered (tasks.ts).
    if (
      !parsed.success ||
      (call.tool.mayAsk &&
        call.era === 'modern' &&
        (canAskByForm(call.clientCapabilities) || declaresTasks(call.clientCapabilities)))
    ) {
      passOn(req, res, raw);
      return;
    }
    const caller = callerOf(auth);
    counts.answered += 1;
    metrics?.directPathRequest('answered');
    startAccessLog(context, req, res, { requestId, accountId: caller.principal.accountId }, started);
    let result: CallToolResult;
    try {
      const answered = await call.tool.run(parsed.data, caller, { kind: 'token' });
      if (answered.kind !== 'result') throw new Error(`${call.tool.name} asked a question on the token channel`);
      result = answered.result;
    } catch (error) {
      // As the SDK does with a tool that throws: the message becomes a tool error.
      result = {
        content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }],
        isError: true,
      };
    }
    const cors = corsHeaders?.(header(req, 'origin'));
    if (cors) for (const [name, value] of Object.entries(cors)) res.setHeader(name, value);
    respond(res, call, result, serverInfo);
  }

  function passOn(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    counts.passedOn += 1;
    metrics?.directPathRequest('passed_on');
    bodies.keep(req, body);
    express(req, res);
  }

  function parsedBody(raw: Buffer): unknown {
    try {
      return JSON.parse(raw.toString('utf8'));
    } catch {
      return undefined;
    }
  }
}
