import { z } from 'zod';
import type { OperationCategory } from '../../../operations/define.js';
import { jsonSchemaOf } from '../../../operations/json-schema.js';
import { catalogSentence, type CatalogSize } from '../../core/catalog-size.js';
import { portable } from '../schemas.js';
import { toolResult } from '../results.js';
import { categories, searchEndpoints } from '../search.js';
import { answered, type McpTool } from './tool.js';

const input = z.object({
  query: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .describe(
      'What you want to do, in plain words ("find fintech companies in Germany", "how many credits are left").',
    ),
  freeOnly: z.boolean().optional().describe('Only operations that charge nothing.'),
  maxCreditsPerCall: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe(
      'Only operations whose typical call (their example payload) can cost at most this many credits; operations whose cost cannot be known in advance are left out.',
    ),
  readOnlyOnly: z.boolean().optional().describe('Only operations that change nothing.'),
  category: z
    .enum(categories as [string, ...string[]])
    .optional()
    .describe('search, audience, enrichment, contact or account.'),
  limit: z.number().int().min(1).max(25).optional().describe('How many recommendations (default 5).'),
});

const description =
  'Find the operation for an intent written in plain words. Returns ranked operations with operationId, summary, REST method and path, ' +
  'the credit rule, the required fields and where the operation sits in the audience workflow. Optional filters: freeOnly, maxCreditsPerCall, readOnlyOnly, category, limit. ' +
  'readOnly means the operation changes no data, not that it is free: chargesCredits says whether it charges (searches do), and runsWithReadOnlyKey whether a read-only API key may run it.';

const noCatalogSize = async (): Promise<CatalogSize | null> => null;

export function searchEndpointsTool(catalogSize: () => Promise<CatalogSize | null> = noCatalogSize): McpTool {
  return {
    name: 'search_endpoints',
    title: 'Search endpoints',
    description,
    input,
    inputSchema: portable(jsonSchemaOf(input, 'input')),
    annotations: { readOnlyHint: true, openWorldHint: false },
    mayAsk: false,
    run: async (args) => {
      const { query, limit, ...filters } = args as z.output<typeof input>;
      const results = searchEndpoints(query, {
        ...filters,
        category: filters.category as OperationCategory | undefined,
        limit: limit ?? 5,
      });
      const lines = results.map(
        (r, i) =>
          `${i + 1}. ${r.operationId} (${r.method} ${r.path}): ${r.summary} Credits: ${r.credits}${
            r.readOnly && r.chargesCredits ? ' (changes no data, but charges credits)' : ''
          }`,
      );
      const size = await catalogSize();
      const catalog = catalogSentence(size);
      const summary = results.length
        ? `Best matches for "${query}":\n${lines.join('\n')}\n${catalog}`
        : `No operation matches "${query}" with these filters. Try other words, or drop a filter.`;
      return answered(toolResult(summary, { query, results, catalog: { ...size, statement: catalog } }));
    },
  };
}
