import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/**
 * The official MCP clients, as the tests use them: the v2 client in the 2026-07-28 era, the
 * v2 client in its default (2025-era) mode, and the v1 client as a legacy 2025-era client.
 */
export type ClientKind = 'v2-modern' | 'v2-legacy' | 'v1';
export const clientKinds: readonly ClientKind[] = ['v2-modern', 'v2-legacy', 'v1'];

export interface ToolAnswer {
  isError?: boolean;
  content: { type: string; text?: string }[];

  structuredContent?: any;
}

export type ElicitationAnswer =
  | { action: 'accept'; content: Record<string, string | number | boolean | string[]> }
  | { action: 'decline' | 'cancel' };

export interface McpTestClient {
  kind: ClientKind;
  listToolNames(): Promise<string[]>;

  listTools(): Promise<any[]>;
  callTool(name: string, args: Record<string, unknown>): Promise<ToolAnswer>;
  readResource(uri: string): Promise<string>;
  listResourceUris(): Promise<string[]>;
  getPromptText(name: string, args?: Record<string, string>): Promise<string>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  headers?: Record<string, string>;
  /** Declares elicitation and answers every question with this (v2-modern only). */
  onElicit?: (message: string) => ElicitationAnswer;
}

export async function connectMcp(url: string, kind: ClientKind, options: ConnectOptions = {}): Promise<McpTestClient> {
  const requestInit = { headers: options.headers ?? {} };
  if (kind === 'v1') {
    const client = new LegacyClient({ name: 'pds-test-v1', version: '1.0.0' });
    await client.connect(new LegacyTransport(new URL(url), { requestInit }));
    return {
      kind,
      listToolNames: async () => (await client.listTools()).tools.map((t) => t.name),
      listTools: async () => (await client.listTools()).tools,
      callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as ToolAnswer,
      readResource: async (uri) => textOf((await client.readResource({ uri })).contents),
      listResourceUris: async () => (await client.listResources()).resources.map((r) => r.uri),
      getPromptText: async (name, args) =>
        promptText((await client.getPrompt({ name, arguments: args ?? {} })).messages),
      close: () => client.close(),
    };
  }
  const client = new Client(
    { name: `pds-test-${kind}`, version: '1.0.0' },
    {
      ...(kind === 'v2-modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
      ...(options.onElicit ? { capabilities: { elicitation: { form: {} } } } : {}),
    },
  );
  if (options.onElicit) {
    const answer = options.onElicit;
    client.setRequestHandler('elicitation/create', async (request) =>
      answer(String((request.params as { message?: unknown }).message ?? '')),
    );
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit }));
  return {
    kind,
    listToolNames: async () => (await client.listTools()).tools.map((t) => t.name),
    listTools: async () => (await client.listTools()).tools,
    callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as ToolAnswer,
    readResource: async (uri) => textOf((await client.readResource({ uri })).contents),
    listResourceUris: async () => (await client.listResources()).resources.map((r) => r.uri),
    getPromptText: async (name, args) => promptText((await client.getPrompt({ name, arguments: args ?? {} })).messages),
    close: () => client.close(),
  };
}

function textOf(contents: readonly unknown[]): string {
  return contents.map((c) => (c as { text?: string }).text ?? '').join('');
}

function promptText(messages: readonly { content: unknown }[]): string {
  return messages.map((m) => (m.content as { text?: string }).text ?? '').join('\n');
}

export function summaryOf(answer: ToolAnswer): string {
  return answer.content[0]?.text ?? '';
}
