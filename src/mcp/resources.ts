import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/server';
import type { RateLimitClass } from '../../operations/define.js';
import { operations } from '../../operations/index.js';
import { readLlmsTxt, renderOperationList } from '../http/llms-txt.js';
import { catalogEntry } from './catalog.js';
import { endpointDetails } from './details.js';
import type { Caller, Gateway } from './gateway.js';
import { rateRefusal, type AccountRateLimits } from './limits.js';

/**
 * The resources of every MCP surface: llms.txt, the full reference of each operation (as
 * get_endpoint_details_full gives it), and stored results too large for one answer.
 */

export interface ResourceDependencies {
  gateway: Gateway;
  rateLimits: Record<RateLimitClass, number>;
  limits?: AccountRateLimits;
}

/** Throws (a JSON-RPC error for the client) when the account's per-minute limit is spent (limits.ts). */
export async function countAgainstLimit(limits: AccountRateLimits | undefined, caller: Caller): Promise<void> {
  const refusal = await rateRefusal(limits, caller.principal.accountId);
  if (refusal) throw new Error(refusal.message);
}

export function registerResources(server: McpServer, deps: ResourceDependencies, caller: Caller): void {
  server.registerResource(
    'llms.txt',
    'pds://docs/llms.txt',
    {
      title: 'llms.txt: rules for agents',
      description: 'Credit rules, confirmation rules, polling intervals and the audience workflow.',
      mimeType: 'text/plain',
    },
    async (uri) => {
      await countAgainstLimit(deps.limits, caller);
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: await llmsTxt() }] };
    },
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
    {
      title: 'Operation reference',
      description: 'The full reference of one operation (as get_endpoint_details_full returns it).',
      mimeType: 'application/json',
    },
    async (uri, variables) => {
      await countAgainstLimit(deps.limits, caller);
      const operationId = String(variables.operationId ?? '');
      const entry = catalogEntry(operationId);
      if (!entry) throw new Error(`Unknown operation ${operationId}`);
      return {
        contents: [
          {
            uri: uri.href,
            mimeType: 'application/json',
            text: JSON.stringify(endpointDetails(entry, deps.rateLimits), null, 2),
          },
        ],
      };
    },
  );
  server.registerResource(
    'stored-result',
    new ResourceTemplate('pds://results/{resultId}{?offset}', { list: undefined }),
    {
      title: 'Stored result',
      description: 'A result that was too large for one answer; free to read (it was charged when fetched).',
      mimeType: 'application/json',
    },
    async (uri, variables) => {
      // Counted by the gateway, which answers it (a stored result is read there).
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
