import { z } from 'zod';
import { jsonSchemaOf } from '../../../operations/json-schema.js';
import { portable } from '../schemas.js';
import { catalog, effectOf } from '../catalog.js';
import type { CallArguments, Gateway } from '../gateway.js';
import type { McpTool } from './tool.js';

const input = z.object({
  operationId: z.string().min(1).describe('The operation to run, e.g. companySearch (see search_endpoints).'),
  payload: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      "The operation's fields as a JSON object (path parameters such as audienceId included; no apiKey). See get_endpoint_details_full.",
    ),
  confirmationToken: z
    .string()
    .optional()
    .describe(
      'Only after the user confirmed the cost: the token from the previous answer to exactly this call (single-use, 15 minutes).',
    ),
  resultId: z.string().optional().describe('Read more of a stored result that was truncated (free); give offset too.'),
  offset: z.number().int().nonnegative().optional().describe('With resultId: the first record to return.'),
});

const description =
  'Run an operation by operationId with a JSON payload, as your account. The payload is validated first (errors name the fields). ' +
  "Calls that can charge many credits, and every triggerEnrichment, need the user's confirmation: the gateway asks through the client when it can, " +
  'otherwise it answers with the cost and a confirmationToken to send back after the user agreed. Status polls sooner than their interval are answered from cache. ' +
  'Large results are cut to fit, and the rest stays readable free with resultId and offset.';

export function callOperationTool(gateway: Gateway): McpTool {
  return {
    name: 'call_operation',
    title: 'Call an operation',
    description,
    input,
    inputSchema: portable(jsonSchemaOf(input, 'input')),
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    mayAsk: true,
    run: (args, caller, channel, options) => gateway.callOperation(args as CallArguments, caller, channel, options),
  };
}

// The generated tools' input schemas are advertised, not enforced, by the tool (the gateway
// validates the payload against the registry, naming fields as REST does): any object passes.
const anyArguments = z.record(z.string(), z.unknown());

/** /mcp/v2: one tool per operation, whose arguments are the operation's fields plus the confirmation token. */
export function operationTools(gateway: Gateway): McpTool[] {
  return [...catalog.values()].map((entry) => {
    const { operation } = entry;
    return {
      name: operation.operationId,
      title: operation.title,
      description: `${operation.summary} ${operation.description} Credits: ${operation.credits.rule}${
        operation.readOnly && operation.credits.charged !== 'free' ? ` ${effectOf(operation).effect}` : ''
      }`,
      input: anyArguments,
      inputSchema: entry.toolInputSchema,
      outputSchema: entry.toolOutputSchema,
      annotations: entry.annotations,
      mayAsk: true,
      run: (args, caller, channel, options) => {
        const { confirmationToken, ...payload } = (args ?? {}) as Record<string, unknown>;
        const call: CallArguments = {
          operationId: operation.operationId,
          payload,
          ...(typeof confirmationToken === 'string' ? { confirmationToken } : {}),
        };
        return gateway.callOperation(call, caller, channel, options);
      },
    };
  });
}
