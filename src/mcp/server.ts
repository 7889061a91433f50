import {
  CLIENT_CAPABILITIES_META_KEY,
  McpServer,
  inputRequired,
  inputResponse,
  type CallToolResult,
  type InputRequiredResult,
  type McpRequestContext,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { RateLimitClass } from '../../operations/define.js';
import type { Principal } from '../auth/api-keys.js';
import { precomputedSchema } from './catalog.js';
import type { Caller, ConfirmState, ConfirmationChannel, Gateway } from './gateway.js';
import type { AccountRateLimits } from './limits.js';
import { registerPrompts } from './prompts.js';
import { countAgainstLimit, registerResources } from './resources.js';
import type { McpTool, Surface } from './tools/table.js';

/**
 * The per-request MCP server of the SDK: the factory runs on every request (both protocol eras,
 * no sessions), so it only registers what the tool table built once, and closures. The tools are
 * those of tools/table.ts, which the direct path (fast-path.ts) answers from as well; what is
 * the SDK's alone is asking the user through elicitation.
 */

export type { Surface };

export interface ServerDependencies {
  gateway: Gateway;
  rateLimits: Record<RateLimitClass, number>;
  /** The account's per-minute limits, for resources and prompts (limits.ts). */
  limits?: AccountRateLimits;
  /** Signs the multi-round-trip state of an elicitation, bound to the account. */
  confirmationCodec: () => Promise<RequestStateCodec<ConfirmState>>;
  name: string;
  version: string;
}

/** What the authentication middleware puts in AuthInfo.extra for the handlers. */
export interface CallerInfo {
  principal: Principal;
  /** The key an API-key caller sent (a backend at BACKEND_URL forwards with it); none for OAuth. */
  apiKey?: string;
  requestId?: string;
  /** Whether the credential may run operations that charge (an API key may; an OAuth token needs mcp:spend). */
  canSpend: boolean;
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

function channelFor(ctx: ServerContext, era: McpRequestContext['era']): ConfirmationChannel {
  if (era !== 'modern') return { kind: 'token' };
  const capabilities = ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as keyof typeof ctx.mcpReq.envelope];
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
function registration(tool: McpTool) {
  return {
    title: tool.title,
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
  const answer = await tool.run(
    args,
    { ...caller, signal: ctx.mcpReq.signal },
    tool.mayAsk ? channelFor(ctx, era) : { kind: 'token' },
  );
  if (answer.kind === 'result') return answer.result;
  const codec = await deps.confirmationCodec();
  return inputRequired({
    inputRequests: {
      confirm: inputRequired.elicit({ mode: 'form', message: answer.message, requestedSchema: confirmSchema }),
    },
    requestState: await codec.mint(answer.state, ctx),
  });
}

/** The SDK's server factory for a surface's tool table. Everything but the per-request server is built here, once. */
export function createServerFactory(
  deps: ServerDependencies,
  tools: ReadonlyMap<string, McpTool>,
): (ctx: McpRequestContext) => McpServer {
  const registrations = [...tools.values()].map((tool) => ({ tool, config: registration(tool) }));
  const factory = (ctx: McpRequestContext): McpServer => {
    const caller = callerOf(ctx.authInfo);
    const server = new McpServer(
      { name: deps.name, version: deps.version },
      {
        capabilities: { tools: {}, resources: {}, prompts: {} },
        instructions,
        requestState: { verify: async (state, serverCtx) => (await deps.confirmationCodec()).verify(state, serverCtx) },
      },
    );
    for (const { tool, config } of registrations) {
      server.registerTool(tool.name, config, async (args: unknown, toolCtx: ServerContext) =>
        runTool(tool, deps, caller, toolCtx, ctx.era, args),
      );
    }
    registerResources(server, deps, caller);
    registerPrompts(server, () => countAgainstLimit(deps.limits, caller));
    return server;
  };
  return factory;
}
