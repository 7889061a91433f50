import {
  CLIENT_CAPABILITIES_META_KEY,
  McpServer,
  ResourceTemplate,
  inputRequired,
  inputResponse,
  type CallToolResult,
  type InputRequiredResult,
  type McpRequestContext,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { RateLimitClass } from '../../operations/define.js';
import { operations } from '../../operations/index.js';
import { readLlmsTxt, renderOperationList } from '../api/llms-txt.js';
import type { Principal } from '../auth/api-keys.js';
import { audienceWorkflow, catalog, catalogEntry, precomputedSchema, zodToolSchema, type CatalogEntry } from './catalog.js';
import { endpointDetails } from './details.js';
import type { Caller, ConfirmState, ConfirmationChannel, Gateway } from './gateway.js';
import { unknownOperation } from './gateway.js';
import { toolResult } from './results.js';
import { categories, searchEndpoints } from './search.js';

/**
 * The per-request MCP server: the factory runs on every request (both protocol eras, no
 * sessions), so it only registers prebuilt schemas and closures; all conversion and indexing
 * happened at module load.
 */

export type Surface = 'default' | 'full' | 'oauth';

export interface ServerDependencies {
  gateway: Gateway;
  rateLimits: Record<RateLimitClass, number>;
  /** Signs the multi-round-trip state of an elicitation, bound to the account. */
  confirmationCodec: () => Promise<RequestStateCodec<ConfirmState>>;
  name: string;
  version: string;
}

/** What the authentication middleware puts in AuthInfo.extra for the handlers. */
export interface CallerInfo {
  principal: Principal;
  apiKey: string;
  requestId?: string;
}

export function callerOf(authInfo: { extra?: Record<string, unknown> } | undefined): Caller {
  const caller = authInfo?.extra?.caller as CallerInfo | undefined;
  if (!caller) throw new Error('MCP request reached a handler without an authenticated caller');
  return caller;
}

const searchInput = z.object({
  query: z.string().trim().min(1).max(500).describe('What you want to do, in plain words ("find fintech companies in Germany", "how many credits are left").'),
  freeOnly: z.boolean().optional().describe('Only operations that charge nothing.'),
  maxCreditsPerCall: z.number().int().nonnegative().optional().describe('Only operations whose typical call (their example payload) can cost at most this many credits; operations whose cost cannot be known in advance are left out.'),
  readOnlyOnly: z.boolean().optional().describe('Only operations that change nothing.'),
  category: z.enum(categories as [string, ...string[]]).optional().describe('search, audience, enrichment, contact or account.'),
  limit: z.number().int().min(1).max(25).optional().describe('How many recommendations (default 5).'),
});

const detailsInput = z.object({
  operationId: z.string().min(1).describe('An operationId from search_endpoints, e.g. companySearch.'),
});

const callInput = z.object({
  operationId: z.string().min(1).describe('The operation to run, e.g. companySearch (see search_endpoints).'),
  payload: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('The operation\'s fields as a JSON object (path parameters such as audienceId included; no apiKey). See get_endpoint_details_full.'),
  confirmationToken: z
    .string()
    .optional()
    .describe('Only after the user confirmed the cost: the token from the previous answer to exactly this call (single-use, 15 minutes).'),
  resultId: z.string().optional().describe('Read more of a stored result that was truncated (free); give offset too.'),
  offset: z.number().int().nonnegative().optional().describe('With resultId: the first record to return.'),
});

const searchSchema = zodToolSchema(searchInput);
const detailsSchema = zodToolSchema(detailsInput);
const callSchema = zodToolSchema(callInput);
const generatedInputSchemas = new Map([...catalog.values()].map((entry) => [entry.operation.operationId, precomputedSchema(entry.toolInputSchema)]));
const generatedOutputSchemas = new Map([...catalog.values()].map((entry) => [entry.operation.operationId, precomputedSchema(entry.toolOutputSchema)]));

const confirmSchema = {
  type: 'object' as const,
  properties: {
    confirm: { type: 'boolean' as const, title: 'Spend these credits', description: 'Yes to run the operation and be charged as stated.' },
  },
  required: ['confirm'],
};

const instructions =
  'Prospecting data: company and people search, live enrichment, contact reveal and audiences (build, enrich, export), metered in credits. ' +
  'Find the operation with search_endpoints, read its fields with get_endpoint_details_full, run it with call_operation. ' +
  'Check the credit balance before large jobs. Always estimate before triggering enrichment and get the user\'s explicit confirmation of cost and time. ' +
  'Poll status operations at their documented interval (about 30 s), never in a tight loop.';

const searchDescription =
  'Find the operation for an intent written in plain words. Returns ranked operations with operationId, summary, REST method and path, ' +
  'the credit rule, the required fields and where the operation sits in the audience workflow. Optional filters: freeOnly, maxCreditsPerCall, readOnlyOnly, category, limit.';
const detailsDescription =
  'Everything about one operation: full input and output JSON Schemas, required and optional fields with defaults, REST method and path, authentication, ' +
  'rate limit, credit metadata (unit, rule, when charged, worked example), polling interval, whether confirmation is required, an example payload and workflow neighbours.';
const callDescription =
  'Run an operation by operationId with a JSON payload, as your account. The payload is validated first (errors name the fields). ' +
  'Calls that can charge many credits, and every triggerEnrichment, need the user\'s confirmation: the gateway asks through the client when it can, ' +
  'otherwise it answers with the cost and a confirmationToken to send back after the user agreed. Status polls sooner than their interval are answered from cache. ' +
  'Large results are cut to fit, and the rest stays readable free with resultId and offset.';

type ClientCapabilities = { elicitation?: { form?: unknown; url?: unknown } } | undefined;

/** Whether a 2026-era client declared that it can show the user a form (elicitation). */
export function canAskByForm(capabilities: unknown): boolean {
  const elicitation = (capabilities as ClientCapabilities)?.elicitation;
  // An empty elicitation object means form mode, as the spec's backwards-compatibility rule says.
  return elicitation !== undefined && elicitation !== null && (elicitation.form !== undefined || elicitation.url === undefined);
}

function channelFor(ctx: ServerContext, era: McpRequestContext['era']): ConfirmationChannel {
  if (era !== 'modern') return { kind: 'token' };
  const capabilities = ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as keyof typeof ctx.mcpReq.envelope];
  if (!canAskByForm(capabilities)) return { kind: 'token' };
  const view = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  let answer: 'accept' | 'decline' | 'cancel' | null = null;
  if (view.kind === 'elicit') answer = view.action === 'accept' ? (view.content?.confirm === true ? 'accept' : 'decline') : view.action;
  const state = ctx.mcpReq.requestState<ConfirmState>();
  return { kind: 'elicitation', answer, confirmedHash: state && typeof state === 'object' && typeof state.h === 'string' ? state.h : null };
}

async function runCall(
  deps: ServerDependencies,
  caller: Caller,
  ctx: ServerContext,
  era: McpRequestContext['era'],
  args: { operationId: string; payload?: unknown; confirmationToken?: string; resultId?: string; offset?: number },
): Promise<CallToolResult | InputRequiredResult> {
  const answer = await deps.gateway.callOperation(args, caller, channelFor(ctx, era));
  if (answer.kind === 'result') return answer.result;
  const codec = await deps.confirmationCodec();
  return inputRequired({
    inputRequests: { confirm: inputRequired.elicit({ mode: 'form', message: answer.message, requestedSchema: confirmSchema }) },
    requestState: await codec.mint(answer.state, ctx),
  });
}

type SearchArguments = z.output<typeof searchInput>;
type DetailsArguments = z.output<typeof detailsInput>;
type CallOperationArguments = z.output<typeof callInput>;

function searchEndpointsResult(args: SearchArguments): CallToolResult {
  const { query, limit, ...filters } = args;
  const results = searchEndpoints(query, { ...filters, category: filters.category as CatalogEntry['operation']['category'] | undefined, limit: limit ?? 5 });
  const lines = results.map((r, i) => `${i + 1}. ${r.operationId} (${r.method} ${r.path}): ${r.summary} Credits: ${r.credits}`);
  const summary = results.length
    ? `Best matches for "${query}":\n${lines.join('\n')}`
    : `No operation matches "${query}" with these filters. Try other words, or drop a filter.`;
  return toolResult(summary, { query, results });
}

function endpointDetailsResult({ operationId }: DetailsArguments, rateLimits: Record<RateLimitClass, number>): CallToolResult {
  const entry = catalogEntry(operationId);
  if (!entry) return unknownOperation(operationId);
  const details = endpointDetails(entry, rateLimits);
  return toolResult(`${operationId}: ${entry.operation.summary} ${entry.operation.method} ${entry.operation.path}. Credits: ${entry.operation.credits.rule}`, details);
}

/** What the direct path knows about a request: its era and, in the 2026 era, what the client declared it can do. */
export interface DirectRequest {
  era: McpRequestContext['era'];
  clientCapabilities: unknown;
}

/**
 * A tool the direct path (fast-path.ts) may answer without the SDK: the same input schema and
 * the same implementation as its registration above. `run` answers null when this request
 * needs the SDK's per-request machinery (a round trip with the client), before doing anything.
 */
export interface DirectTool {
  input: z.ZodType;
  run(args: unknown, caller: Caller, request: DirectRequest): Promise<CallToolResult> | null;
}

/** A generated tool's arguments are the operation's fields, plus the confirmation token when there is one. */
function generatedToolCall(operationId: string, args: unknown): CallOperationArguments {
  const { confirmationToken, ...payload } = (args ?? {}) as Record<string, unknown>;
  return { operationId, payload, ...(typeof confirmationToken === 'string' ? { confirmationToken } : {}) };
}

/** Runs a call by the token channel; null (before anything is done) for a client that can be asked by form. */
function callByToken(deps: ServerDependencies, call: CallOperationArguments, caller: Caller, request: DirectRequest): Promise<CallToolResult> | null {
  // A client that can be asked by form gets the question through the SDK's multi-round-trip
  // request; every other client confirms with a token, which needs no round trip.
  if (request.era === 'modern' && canAskByForm(request.clientCapabilities)) return null;
  return deps.gateway.callOperation(call, caller, { kind: 'token' }).then((answer) => {
    if (answer.kind !== 'result') throw new Error('the gateway asked a question on the token channel');
    return answer.result;
  });
}

// The generated tools' input schemas are advertised, not enforced, by the SDK (the gateway
// validates the payload against the registry): any object passes, as it does there.
const anyArguments = z.record(z.string(), z.unknown());

/** The direct tools of a surface: the three everywhere, and on /mcp/v2 the generated ones too. */
export function directTools(deps: ServerDependencies, surface: Surface): Map<string, DirectTool> {
  const generated: [string, DirectTool][] =
    surface === 'full'
      ? [...catalog.values()].map(({ operation }) => [
          operation.operationId,
          { input: anyArguments, run: (args, caller, request) => callByToken(deps, generatedToolCall(operation.operationId, args), caller, request) },
        ])
      : [];
  return new Map<string, DirectTool>([
    ...generated,
    ['search_endpoints', { input: searchInput, run: async (args) => searchEndpointsResult(args as SearchArguments) }],
    ['get_endpoint_details_full', { input: detailsInput, run: async (args) => endpointDetailsResult(args as DetailsArguments, deps.rateLimits) }],
    [
      'call_operation',
      { input: callInput, run: (args, caller, request) => callByToken(deps, args as CallOperationArguments, caller, request) },
    ],
  ]);
}

function registerTools(server: McpServer, deps: ServerDependencies, caller: Caller, era: McpRequestContext['era'], surface: Surface): void {
  server.registerTool(
    'search_endpoints',
    { title: 'Search endpoints', description: searchDescription, inputSchema: searchSchema, annotations: { readOnlyHint: true, openWorldHint: false } },
    async (args) => searchEndpointsResult(args as SearchArguments),
  );
  server.registerTool(
    'get_endpoint_details_full',
    { title: 'Get endpoint details', description: detailsDescription, inputSchema: detailsSchema, annotations: { readOnlyHint: true, openWorldHint: false } },
    async (args) => endpointDetailsResult(args as DetailsArguments, deps.rateLimits),
  );
  server.registerTool(
    'call_operation',
    { title: 'Call an operation', description: callDescription, inputSchema: callSchema, annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true } },
    async (args, ctx) => runCall(deps, caller, ctx, era, args as CallOperationArguments),
  );
  if (surface !== 'full') return;
  for (const entry of catalog.values()) {
    const { operation } = entry;
    server.registerTool(
      operation.operationId,
      {
        title: operation.title,
        description: `${operation.summary} ${operation.description} Credits: ${operation.credits.rule}`,
        inputSchema: generatedInputSchemas.get(operation.operationId),
        outputSchema: generatedOutputSchemas.get(operation.operationId),
        annotations: entry.annotations,
      },
      async (args, ctx) => runCall(deps, caller, ctx, era, generatedToolCall(operation.operationId, args)),
    );
  }
}

function registerResources(server: McpServer, deps: ServerDependencies, caller: Caller): void {
  server.registerResource(
    'llms.txt',
    'pds://docs/llms.txt',
    { title: 'llms.txt: rules for agents', description: 'Credit rules, confirmation rules, polling intervals and the audience workflow.', mimeType: 'text/plain' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: await llmsTxt() }] }),
  );
  server.registerResource(
    'operation',
    new ResourceTemplate('pds://operations/{operationId}', {
      list: () => ({
        resources: operations.map((op) => ({
          uri: `pds://operations/${op.operationId}`,
          name: op.operationId,
          title: op.title,
          description: op.summary,
          mimeType: 'application/json',
        })),
      }),
    }),
    { title: 'Operation reference', description: 'The full reference of one operation (as get_endpoint_details_full returns it).', mimeType: 'application/json' },
    async (uri, variables) => {
      const operationId = String(variables.operationId ?? '');
      const entry = catalogEntry(operationId);
      if (!entry) throw new Error(`Unknown operation ${operationId}`);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(endpointDetails(entry, deps.rateLimits), null, 2) }] };
    },
  );
  server.registerResource(
    'stored-result',
    new ResourceTemplate('pds://results/{resultId}{?offset}', { list: undefined }),
    { title: 'Stored result', description: 'A result that was too large for one answer; free to read (it was charged when fetched).', mimeType: 'application/json' },
    async (uri, variables) => {
      const resultId = String(variables.resultId ?? '');
      const offset = Number(variables.offset ?? 0);
      const stored = await deps.gateway.storedResultOperation(caller, resultId);
      if (!stored) throw new Error(`No stored result ${resultId} on this account`);
      const sliced = await deps.gateway.callOperation(
        { operationId: stored, resultId, offset: Number.isInteger(offset) && offset >= 0 ? offset : 0 },
        caller,
        { kind: 'token' },
      );
      const structured = sliced.kind === 'result' ? sliced.result.structuredContent : undefined;
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(structured ?? {}) }] };
    },
  );
}

let llmsTxtCache: string | null = null;
async function llmsTxt(): Promise<string> {
  if (llmsTxtCache) return llmsTxtCache;
  try {
    llmsTxtCache = await readLlmsTxt();
  } catch {
    // Without the hand-written file, the generated operation list still tells an agent the essentials.
    return `# Prospecting Data Service\n\n## Operations\n${renderOperationList()}\n`;
  }
  return llmsTxtCache;
}

const workflowPromptArgs = z.object({
  goal: z.string().optional().describe('What the audience is for, e.g. "VPs of Sales at US fintech startups".'),
});
const workflowPromptSchema = zodToolSchema(workflowPromptArgs);

export function audienceWorkflowText(goal: string | undefined): string {
  const steps = audienceWorkflow.map((ids, index) => {
    const described = ids.map((id) => {
      const entry = catalog.get(id) as CatalogEntry;
      const poll = entry.operation.pollIntervalSeconds ? ` Poll every ${entry.operation.pollIntervalSeconds} s, never faster.` : '';
      return `${id} (${entry.operation.method} ${entry.operation.path}): ${entry.operation.summary} Credits: ${entry.operation.credits.rule}${poll}`;
    });
    return `${index + 1}. ${described.join('\n   or ')}`;
  });
  return [
    `Build a prospect audience${goal ? ` for: ${goal}` : ''}, with the tools search_endpoints, get_endpoint_details_full and call_operation.`,
    'First read the credit balance (getCreditBalance). Count before spending: companyCount or peopleCount (1 credit each) with the filters you mean to use tells how many records the build would pay for; narrow the filters if that is more than the user wants.',
    'Exclusion lists before building: leave out what the user already has (CRM accounts, customers, people already contacted) with an exclusion list (listExclusionLists, createExclusionList, or createExclusionListFromAudience from an earlier audience) given in companyExclusionListIDs / prospectExclusionListIDs of step 2.',
    'Then follow these steps in order; calling a step in the wrong audience state is refused with 400:',
    ...steps,
    'Before step 6: show the user the estimate of step 5 (credits and time) and get their explicit confirmation; the gateway will also ask for it. ' +
      'If the user declines, stop: nothing is charged. To lower the cost, lower maxProspectsToEnrich or switch enrichment types off and estimate again.',
    'If a build ends FAILED, or the filters must change after a build, create a new audience. Use exactly the same values in the trigger as in the estimate.',
  ].join('\n');
}

function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    'audience_workflow',
    {
      title: 'Build, enrich and export an audience',
      description: 'Walks through the audience workflow: create, filters, build, poll, estimate, confirm, enrich, export.',
      argsSchema: workflowPromptSchema,
    },
    (args) => ({
      messages: [{ role: 'user', content: { type: 'text', text: audienceWorkflowText((args as z.output<typeof workflowPromptArgs>).goal) } }],
    }),
  );
}

export function createServerFactory(deps: ServerDependencies, surface: Surface) {
  return (ctx: McpRequestContext): McpServer => {
    const caller = callerOf(ctx.authInfo);
    const server = new McpServer(
      { name: deps.name, version: deps.version },
      {
        capabilities: { tools: {}, resources: {}, prompts: {} },
        instructions,
        requestState: { verify: async (state, serverCtx) => (await deps.confirmationCodec()).verify(state, serverCtx) },
      },
    );
    registerTools(server, deps, caller, ctx.era, surface);
    registerResources(server, deps, caller);
    registerPrompts(server);
    return server;
  };
}
