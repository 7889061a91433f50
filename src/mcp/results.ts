import type { CallToolResult } from '@modelcontextprotocol/server';

/**
 * Tool results in one shape: a short line for people and models first, then the structured
 * content serialised as JSON text (for clients that read only `content`), and the structured
 * content itself.
 */
export function toolResult(
  summary: string,
  structured: Record<string, unknown>,
  isError = false,
  structuredJson = JSON.stringify(structured),
): CallToolResult {
  return {
    content: [
      { type: 'text', text: summary },
      { type: 'text', text: structuredJson },
    ],
    structuredContent: structured,
    ...(isError ? { isError: true } : {}),
  };
}

/**
 * A result whose JSON is given once, as text, for answers too large to give twice (the text for
 * clients that read only content, and structuredContent for the others): every client reads the
 * text. For tools without an output schema.
 */
export function textResult(summary: string, value: Record<string, unknown>): CallToolResult {
  return {
    content: [
      { type: 'text', text: summary },
      { type: 'text', text: JSON.stringify(value) },
    ],
  };
}

export interface ToolErrorDetails {
  code: string;
  message: string;
  nextStep: string;
  status?: number;
  details?: unknown;
  retryAfterSeconds?: number;
  [key: string]: unknown;
}

/** A refusal or failure the agent can act on: what happened, then what to do next. */
export function toolError(error: ToolErrorDetails): CallToolResult {
  const status = error.status ? `HTTP ${error.status} ` : '';
  return toolResult(`Error ${status}${error.code}: ${error.message} Next step: ${error.nextStep}`, { error }, true);
}
