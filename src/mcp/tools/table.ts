import type { RateLimitClass } from '../../../operations/define.js';
import type { CatalogSize } from '../../core/catalog-size.js';
import type { Gateway } from '../gateway.js';
import { callOperationTool, operationTools } from './call-operation.js';
import { endpointDetailsTool } from './endpoint-details.js';
import { searchEndpointsTool } from './search-endpoints.js';
import { rateLimitedResult, type AccountRateLimits } from '../limits.js';
import { answered, type McpTool } from './tool.js';

export type { McpTool } from './tool.js';

/**
 * The one table of MCP tools. The SDK registration (server.ts) and the direct path
 * (fast-path.ts) are both driven from it: the same names, descriptions, schemas, annotations
 * and implementation, so that the two paths cannot drift apart.
 */

export type Surface = 'default' | 'full' | 'oauth';

export interface ToolDependencies {
  gateway: Gateway;
  rateLimits: Record<RateLimitClass, number>;
  /** The account's per-minute limits, which the tools that reach no operation count against. */
  limits?: AccountRateLimits;
  /** This instance's catalog size, which search_endpoints and get_endpoint_details_full state. */
  catalogSize?: () => Promise<CatalogSize | null>;
}

/** A tool that never reaches an operation, counted against the account's per-minute limit before it runs. */
function counted(tool: McpTool, limits: AccountRateLimits | undefined): McpTool {
  return {
    ...tool,
    run: async (args, caller, channel) => {
      const refused = await rateLimitedResult(limits, caller.principal.accountId);
      return refused ? answered(refused) : tool.run(args, caller, channel);
    },
  };
}

/** The tools of a surface, in the order tools/list gives them: the three everywhere, and on /mcp/v2 one per operation after them. */
export function toolTable(deps: ToolDependencies, surface: Surface): ReadonlyMap<string, McpTool> {
  const tools = [
    counted(searchEndpointsTool(deps.catalogSize), deps.limits),
    counted(endpointDetailsTool(deps.rateLimits, deps.catalogSize), deps.limits),
    callOperationTool(deps.gateway),
  ];
  if (surface === 'full') tools.push(...operationTools(deps.gateway));
  return new Map(tools.map((tool) => [tool.name, tool]));
}
