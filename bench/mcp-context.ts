import { countTokens } from 'gpt-tokenizer';

/**
 * What a search-to-call task costs an agent's context, on a running service: the agent loads the
 * tool list, searches for the operation, reads its details, and calls it. Counted in tokens of
 * the o200k_base encoding (gpt-tokenizer; other models' tokenizers differ by some percent) and in
 * bytes. A tool's share of the prompt is what a model reads of it (name, description, input
 * schema); a call's is its result as the client receives it (content and structured content).
 *
 *   node dist/bench/mcp-context.js --url http://127.0.0.1:3000 --key pds_...
 * bench/mcp.ts runs it on the service it starts.
 */

export const contextTask = {
  query: 'find heads of sales at fintech companies in Germany',
  operationId: 'peopleSearch',
  payload: { searchParams: { jobTitleV2: { included: ['Head of Sales'] }, country3LetterCode: ['DEU'] }, pageSize: 5 },
};

export interface ContextStep {
  step: string;
  bytes: number;
  tokens: number;
}

export interface ContextFigures {
  tools: Record<
    '/mcp' | '/mcp/v2',
    { tools: number; listBytes: number; listTokens: number; modelTokens: number; largestToolTokens: number }
  >;
  steps: ContextStep[];
  /** Tokens of the whole task on /mcp: its tools, then the three calls' results. */
  taskTokensMcp: number;
  /** The same on /mcp/v2, whose tool list the agent loads instead. */
  taskTokensV2: number;
}

async function rpc(
  url: string,
  apiKey: string,
  method: string,
  params: Record<string, unknown>,
): Promise<{ json: string; result: { tools?: unknown[] } }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': apiKey },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const text = await response.text();
  const json = response.headers.get('content-type')?.startsWith('text/event-stream')
    ? (/^data: (.*)$/m.exec(text)?.[1] ?? '')
    : text;
  if (response.status !== 200) throw new Error(`${method} answered ${response.status}: ${text.slice(0, 300)}`);
  const parsed = JSON.parse(json) as { result?: { tools?: unknown[] }; error?: unknown };
  if (!parsed.result) throw new Error(`${method}: ${JSON.stringify(parsed.error)}`);
  return { json: JSON.stringify(parsed.result), result: parsed.result };
}

export async function measureContext(baseUrl: string, apiKey: string): Promise<ContextFigures> {
  const tools = {} as ContextFigures['tools'];
  for (const surface of ['/mcp', '/mcp/v2'] as const) {
    const { json, result } = await rpc(`${baseUrl}${surface}`, apiKey, 'tools/list', {});
    const list = result.tools as { name: string; description?: string; inputSchema: unknown }[];
    const perTool = list.map((tool) =>
      countTokens(`${tool.name}\n${tool.description ?? ''}\n${JSON.stringify(tool.inputSchema)}`),
    );
    tools[surface] = {
      tools: list.length,
      listBytes: Buffer.byteLength(json),
      listTokens: countTokens(json),
      modelTokens: perTool.reduce((sum, tokens) => sum + tokens, 0),
      largestToolTokens: Math.max(...perTool),
    };
  }
  const call = async (step: string, name: string, args: Record<string, unknown>): Promise<ContextStep> => {
    const { json } = await rpc(`${baseUrl}/mcp`, apiKey, 'tools/call', { name, arguments: args });
    return { step, bytes: Buffer.byteLength(json), tokens: countTokens(json) };
  };
  const steps = [
    await call(`search_endpoints "${contextTask.query}"`, 'search_endpoints', { query: contextTask.query, limit: 5 }),
    await call(`get_endpoint_details_full ${contextTask.operationId}`, 'get_endpoint_details_full', {
      operationId: contextTask.operationId,
    }),
    await call(`call_operation ${contextTask.operationId}, page of ${contextTask.payload.pageSize}`, 'call_operation', {
      operationId: contextTask.operationId,
      payload: contextTask.payload,
    }),
  ];
  const calls = steps.reduce((sum, step) => sum + step.tokens, 0);
  return {
    tools,
    steps,
    taskTokensMcp: tools['/mcp'].modelTokens + calls,
    taskTokensV2: tools['/mcp/v2'].modelTokens + calls,
  };
}

export function contextTable(figures: ContextFigures): string[] {
  const v2 = figures.tools['/mcp/v2'];
  const mcp = figures.tools['/mcp'];
  return [
    `| search-to-call task (tokens: o200k_base) | bytes | tokens |`,
    '|---|---:|---:|',
    `| /mcp tools/list, ${mcp.tools} tools (what a model reads: ${mcp.modelTokens} tokens) | ${mcp.listBytes} | ${mcp.listTokens} |`,
    `| /mcp/v2 tools/list, ${v2.tools} tools (what a model reads: ${v2.modelTokens} tokens, largest tool ${v2.largestToolTokens}) | ${v2.listBytes} | ${v2.listTokens} |`,
    ...figures.steps.map((step) => `| ${step.step} | ${step.bytes} | ${step.tokens} |`),
    `| the task on /mcp (tools read + three results) | | ${figures.taskTokensMcp} |`,
    `| the task on /mcp/v2 (its tools read + the same three results) | | ${figures.taskTokensV2} |`,
  ];
}

// Run on its own: measure a service that is already running (an older build, another deployment).
if (process.argv.includes('--url')) {
  const option = (name: string) => process.argv[process.argv.indexOf(`--${name}`) + 1] as string;
  process.stdout.write(`${contextTable(await measureContext(option('url'), option('key'))).join('\n')}\n`);
}
