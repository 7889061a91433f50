import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import type { CallOptions, Caller, ConfirmationChannel, GatewayAnswer } from '../gateway.js';

/** One MCP tool, as the table (table.ts) lists it for both paths; each tool's module builds its own. */

export interface McpTool {
  name: string;
  title: string;
  description: string;
  /** The arguments, as both paths validate them before `run`. */
  input: z.ZodType;
  /** What tools/list advertises for the arguments. */
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations: ToolAnnotations;
  /**
   * Whether a call may need the user's confirmation. A client that can be asked by form is then
   * asked through the SDK's multi-round-trip request, which the direct path leaves to the SDK.
   */
  mayAsk: boolean;
  /** `options.tasks`: the client declared the tasks extension (a job-starting operation may answer with a task). */
  run(args: unknown, caller: Caller, channel: ConfirmationChannel, options?: CallOptions): Promise<GatewayAnswer>;
}

/** A tool whose answer never asks anything: its run is a plain function of its arguments. */
export function answered(result: CallToolResult): GatewayAnswer {
  return { kind: 'result', result };
}
