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

/** Whether one JSON-RPC message may charge credits: a call_operation of an operation whose credit rule charges. */
function messageCharges(message: unknown): boolean {
  if (!isObject(message) || message.method !== 'tools/call' || !isObject(message.params)) return false;
  const { name, arguments: args } = message.params;
  if (name !== 'call_operation' || !isObject(args) || typeof args.operationId !== 'string') return false;
  // Reading the rest of a stored result is free: it was charged when it was fetched.
  if (args.resultId !== undefined) return false;
  const operation = findOperation(args.operationId);
  return operation !== undefined && operation.credits.charged !== 'free';
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
