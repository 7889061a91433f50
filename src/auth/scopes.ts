import type { AnyOperation } from '../../operations/define.js';
import { findOperation } from '../../operations/index.js';

/**
 * The scopes of /mcp/v3 tokens. mcp:read covers everything that charges nothing (discovery,
 * metadata, free operations and stored results); mcp:spend covers what the registry's credit
 * rule charges, and implies mcp:read (the spec asks servers to honour scope hierarchies).
 */
export const readScope = 'mcp:read';
export const spendScope = 'mcp:spend';
export const mcpScopes = [readScope, spendScope] as const;
export type McpScope = (typeof mcpScopes)[number];

export const scopeWords: Record<string, string> = {
  [readScope]: 'search and read: find operations, read their contracts and call the free ones (nothing is charged)',
  [spendScope]: 'spend credits: run searches, enrichments, reveals and builds that charge your account',
  offline_access: 'stay connected: refresh its access without asking you again (until you revoke it)',
  openid: 'know which account you signed in with',
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether running this operation may charge credits (its credit rule is not free). */
export function operationCharges(operation: Pick<AnyOperation, 'credits'>): boolean {
  return operation.credits.charged !== 'free';
}

/**
 * Whether a call_operation with these arguments may charge: the one rule the request check
 * (requiredScope) and the gateway, which runs the call, both apply. Reading the rest of a stored
 * result is free (it was charged when it was fetched); an operationId that names no operation
 * runs nothing.
 */
export function callOperationCharges(args: { operationId?: unknown; resultId?: unknown }): boolean {
  if (args.resultId !== undefined) return false;
  if (typeof args.operationId !== 'string') return false;
  const operation = findOperation(args.operationId);
  return operation !== undefined && operationCharges(operation);
}

/** The tools of /mcp/v3 that never charge, whatever their arguments. */
const freeTools = new Set(['search_endpoints', 'get_endpoint_details_full']);

/**
 * Whether one JSON-RPC message may charge credits. Fails closed: a tool call is free only when it
 * names a tool known to be free, or a call_operation of a free operation; any other tool name
 * (one added later, a spelling the SDK might resolve) needs mcp:spend.
 */
function messageCharges(message: unknown): boolean {
  if (!isObject(message) || message.method !== 'tools/call') return false;
  if (!isObject(message.params)) return false;
  const { name, arguments: args } = message.params;
  if (typeof name === 'string' && freeTools.has(name)) return false;
  if (name !== 'call_operation') return true;
  return isObject(args) && callOperationCharges(args);
}

/** The scope a /mcp/v3 request body needs: mcp:spend when any message in it may charge, else mcp:read. */
export function requiredScope(body: unknown): McpScope {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some(messageCharges) ? spendScope : readScope;
}

/** Whether granted scopes satisfy a required one (mcp:spend implies mcp:read). */
export function scopeSatisfied(granted: readonly string[], required: McpScope): boolean {
  return granted.includes(required) || (required === readScope && granted.includes(spendScope));
}

/** The scope an OAuth caller needs to run an operation: mcp:spend when its credit rule charges, else mcp:read. */
export function scopeToRun(operation: Pick<AnyOperation, 'credits'>): McpScope {
  return operation.credits.charged === 'free' ? readScope : spendScope;
}
