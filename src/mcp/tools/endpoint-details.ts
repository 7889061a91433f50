import { z } from 'zod';
import type { RateLimitClass } from '../../../operations/define.js';
import { jsonSchemaOf } from '../../../operations/json-schema.js';
import type { CatalogSize } from '../../core/catalog-size.js';
import { portable } from '../schemas.js';
import { catalogEntry } from '../catalog.js';
import { endpointDetails } from '../details.js';
import { unknownOperation } from '../messages.js';
import { textResult } from '../results.js';
import { answered, type McpTool } from './tool.js';

const input = z.object({
  operationId: z.string().min(1).describe('An operationId from search_endpoints, e.g. companySearch.'),
});

const description =
  'Everything about one operation: full input and output JSON Schemas, required and optional fields with defaults, REST method and path, authentication, ' +
  'rate limit, credit metadata (unit, rule, when charged, worked example), polling interval, whether confirmation is required, an example payload and workflow neighbours.';

const noCatalogSize = async (): Promise<CatalogSize | null> => null;

export function endpointDetailsTool(
  rateLimits: Record<RateLimitClass, number>,
  catalogSize: () => Promise<CatalogSize | null> = noCatalogSize,
): McpTool {
  return {
    name: 'get_endpoint_details_full',
    title: 'Get endpoint details',
    description,
    input,
    inputSchema: portable(jsonSchemaOf(input, 'input')),
    annotations: { readOnlyHint: true, openWorldHint: false },
    mayAsk: false,
    run: async (args) => {
      const { operationId } = args as z.output<typeof input>;
      const entry = catalogEntry(operationId);
      if (!entry) return answered(unknownOperation(operationId));
      const details = endpointDetails(entry, rateLimits, await catalogSize());
      const { operation } = entry;
      // The reference is the largest answer an agent reads: given once, as JSON text.
      return answered(
        textResult(
          `${operationId}: ${operation.summary} ${operation.method} ${operation.path}. Credits: ${operation.credits.rule}`,
          details,
        ),
      );
    },
  };
}
