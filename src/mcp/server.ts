import {
  CLIENT_CAPABILITIES_META_KEY,
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  inputRequired,
  inputResponse,
  type CallToolResult,
  type CacheHint,
  type Icon,
  type InputRequiredResult,
  type McpRequestContext,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { RateLimitClass } from '../../operations/define.js';
import type { Principal } from '../core/principal.js';
import { precomputedSchema } from './catalog.js';
import type { Caller, ConfirmState, ConfirmationChannel, Gateway } from './gateway.js';
import type { AccountRateLimits } from './limits.js';
import { registerPrompts } from './prompts.js';
import { countAgainstLimit, registerResources } from './resources.js';
import type { McpTool } from './tools/table.js';
import { declaresTasks, tasksExtension, type McpTasks } from './tasks.js';

/**
 * The per-request MCP server of the SDK: the factory runs on every request (both protocol eras,
 * no sessions), so it only registers what the tool table built once, and closures. The tools are
 * those of tools/table.ts, which the direct path (fast-path.ts) answers from as well; what is
 * the SDK's alone is asking the user through elicitation.
 */

export interface ServerDependencies {
  gateway: Gateway;
  rateLimits: Record<RateLimitClass, number>;
  /** The account's per-minute limits, for resources and prompts (limits.ts). */
  limits?: AccountRateLimits;
  /** Signs the multi-round-trip state of an elicitation, bound to the account. */
  confirmationCodec: () => Promise<RequestStateCodec<ConfirmState>>;
  name: string;
  version: string;
  /** Implementation.description, as server/discover and initialize give it. */
  description?: string;
  /** Each tool's icons (served by the service). */
  toolIcons?: (toolName: string) => Icon[];
  /** MCP tasks for the job-starting operations (2026-07-28 clients that declare the extension). */
  tasks?: McpTasks;
}

/** What the authentication middleware puts in AuthInfo.extra for the handlers. */
export interface CallerInfo {
  principal: Principal;
  /** The key an API-key caller sent (a backend at BACKEND_URL forwards with it); none for OAuth. */
  apiKey?: string;
  requestId?: string;
  /** The surface it came through: /mcp, /mcp/v2 or /mcp/v3 (the account's request log names it). */
  surface?: 'mcp' | 'mcp/v2' | 'mcp/v3';
}

export function callerOf(authInfo: { extra?: Record<string, unknown> } | undefined): Caller {
  const caller = authInfo?.extra?.caller as CallerInfo | undefined;
  if (!caller) throw new Error('MCP request reached a handler without an authenticated caller');
  return caller;
}

const confirmSchema = {
  type: 'object' as const,
  properties: {
    confirm: {
      type: 'boolean' as const,
      title: 'Spend these credits',
      description: 'Yes to run the operation and be charged as stated.',
    },
  },
  required: ['confirm'],
};

const instructions =
  'Prospecting data: company and people search, live enrichment, contact reveal and audiences (build, enrich, export), metered in credits. ' +
  'Find the operation with search_endpoints, read its fields with get_endpoint_details_full, run it with call_operation. ' +
  "Check the credit balance before large jobs. Always estimate before triggering enrichment and get the user's explicit confirmation of cost and time. " +
  'Poll status operations at their documented interval (about 30 s), never in a tight loop.';

type ClientCapabilities = { elicitation?: { form?: unknown; url?: unknown } } | undefined;

/** Whether a 2026-era client declared that it can show the user a form (elicitation). */
export function canAskByForm(capabilities: unknown): boolean {
  const elicitation = (capabilities as ClientCapabilities)?.elicitation;
  // An empty elicitation object means form mode, as the spec's backwards-compatibility rule says.
  return (
    elicitation !== undefined &&
    elicitation !== null &&
    (elicitation.form !== undefined || elicitation.url === undefined)
  );
}

function clientCapabilitiesOf(ctx: ServerContext): unknown {
  return ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as keyof typeof ctx.mcpReq.envelope];
}

function channelFor(ctx: ServerContext, era: McpRequestContext['era']): ConfirmationChannel {
  if (era !== 'modern') return { kind: 'token' };
  const capabilities = clientCapabilitiesOf(ctx);
  if (!canAskByForm(capabilities)) return { kind: 'token' };
  const view = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  let answer: 'accept' | 'decline' | 'cancel' | null = null;
  if (view.kind === 'elicit')
    answer = view.action === 'accept' ? (view.content?.confirm === true ? 'accept' : 'decline') : view.action;
  const state = ctx.mcpReq.requestState<ConfirmState>();
  return {
    kind: 'elicitation',
    answer,
    confirmedHash: state && typeof state === 'object' && typeof state.h === 'string' ? state.h : null,
    confirmedNonce: state && typeof state === 'object' && typeof state.n === 'string' ? state.n : null,
  };
}

/** A tool as the SDK registers it: the table's schemas wrapped once, validated by the tool's own input schema. */
function registration(tool: McpTool, icons: Icon[] | undefined) {
  return {
    title: tool.title,
    ...(icons ? { icons } : {}),
    description: tool.description,
    inputSchema: precomputedSchema(tool.inputSchema, (value) => {
      const parsed = tool.input.safeParse(value);
      if (parsed.success) return { value: parsed.data };
      return {
        issues: parsed.error.issues.map((issue) => ({
          message: issue.message,
          path: issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
        })),
      };
    }),
    ...(tool.outputSchema ? { outputSchema: precomputedSchema(tool.outputSchema) } : {}),
    annotations: tool.annotations,
  };
}

async function runTool(
  tool: McpTool,
  deps: ServerDependencies,
  caller: Caller,
  ctx: ServerContext,
  era: McpRequestContext['era'],
  args: unknown,
): Promise<CallToolResult | InputRequiredResult> {
  const tasks = era === 'modern' && deps.tasks !== undefined && tool.mayAsk && declaresTasks(clientCapabilitiesOf(ctx));
  const answer = await tool.run(
    args,
    { ...caller, signal: ctx.mcpReq.signal },
    tool.mayAsk ? channelFor(ctx, era) : { kind: 'token' },
    { tasks },
  );
  if (answer.kind === 'result') return answer.result;
  if (answer.kind === 'task') {
    // A CreateTaskResult: the Task alone (its question is read with tasks/get). The SDK passes a result type
    // other than "complete" through, after checking it as a CallToolResult (content required, and structured
    // content for a tool with an output schema): hence the empty ones.
    const { inputRequests: _asked, result: _result, error: _error, ...task } = answer.task;
    return {
      resultType: 'task',
      ...task,
      content: [],
      ...(tool.outputSchema ? { structuredContent: {} } : {}),
    } as unknown as CallToolResult;
  }
  const codec = await deps.confirmationCodec();
  return inputRequired({
    inputRequests: {
      confirm: inputRequired.elicit({ mode: 'form', message: answer.message, requestedSchema: confirmSchema }),
    },
    requestState: await codec.mint(answer.state, ctx),
  });
}

/**
 * The lists (tools, resources, prompts) are the same for every caller of a surface: built from the
 * registry, not from the account, and changed only by a deploy. Shared caches may keep them an hour.
 */
export const listCacheHint: CacheHint = { ttlMs: 60 * 60 * 1000, cacheScope: 'public' };

/** The SDK's server factory for a surface's tool table. Everything but the per-request server is built here, once. */
export function createServerFactory(
  deps: ServerDependencies,
  tools: ReadonlyMap<string, McpTool>,
): (ctx: McpRequestContext) => McpServer {
  const registrations = [...tools.values()].map((tool) => ({
    tool,
    config: registration(tool, deps.toolIcons?.(tool.name)),
  }));
  const factory = (ctx: McpRequestContext): McpServer => {
    const caller = callerOf(ctx.authInfo);
    const server = new McpServer(
      {
        name: deps.name,
        version: deps.version,
        ...(deps.description ? { description: deps.description } : {}),
      },
      {
        cacheHints: { 'tools/list': listCacheHint, 'resources/list': listCacheHint, 'prompts/list': listCacheHint },
        capabilities: {
          tools: {},
          resources: {},
          prompts: {},
          ...(ctx.era === 'modern' && deps.tasks ? { extensions: { [tasksExtension]: {} } } : {}),
        },
        instructions,
        requestState: { verify: async (state, serverCtx) => (await deps.confirmationCodec()).verify(state, serverCtx) },
      },
    );
    for (const { tool, config } of registrations) {
      server.registerTool(tool.name, config, async (args: unknown, toolCtx: ServerContext) =>
        runTool(tool, deps, caller, toolCtx, ctx.era, args),
      );
    }
    if (ctx.era === 'modern' && deps.tasks) registerTaskMethods(server, deps.tasks, caller);
    registerResources(server, deps, caller);
    registerPrompts(server, () => countAgainstLimit(deps.limits, caller));
    return server;
  };
  return factory;
}

const taskParams = z.looseObject({ taskId: z.string().min(1).max(200) });

/** A tasks/* request from a client that did not declare the extension on it: -32021, as the extension requires. */
function requireTasksDeclared(ctx: ServerContext): void {
  if (declaresTasks(clientCapabilitiesOf(ctx))) return;
  throw new ProtocolError(ProtocolErrorCode.MissingRequiredClientCapability, 'Missing required client capability', {
    requiredCapabilities: { extensions: { [tasksExtension]: {} } },
  });
}

/** tasks/get, tasks/update and tasks/cancel of the tasks extension (tasks.ts), as this request's caller. */
function registerTaskMethods(server: McpServer, tasks: McpTasks, caller: Caller): void {
  server.server.setRequestHandler('tasks/get', { params: taskParams }, async (params, ctx) => {
    requireTasksDeclared(ctx);
    return { ...(await tasks.get(caller, params.taskId)) };
  });
  server.server.setRequestHandler('tasks/update', { params: taskParams }, async (params, ctx) => {
    requireTasksDeclared(ctx);
    // The SDK lifts inputResponses out of params, as for any retried request, and keeps the bare answers.
    await tasks.update(caller, params.taskId, (ctx.mcpReq.inputResponses ?? {}) as Record<string, unknown>);
    return {};
  });
  server.server.setRequestHandler('tasks/cancel', { params: taskParams }, async (params, ctx) => {
    requireTasksDeclared(ctx);
    await tasks.cancel(caller, params.taskId);
    return {};
  });
}
