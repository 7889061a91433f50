import type { RateLimitClass } from '../../operations/define.js';
import { chargeMethodOf } from '../../operations/define.js';
import { catalogSentence, type CatalogSize } from '../core/catalog-size.js';
import { audienceWorkflowStep, effectOf, type CatalogEntry, type FieldDescription } from './catalog.js';

function fieldAtAGlance({
  description: _description,
  ...field
}: FieldDescription): Omit<FieldDescription, 'description'> {
  return field;
}

/** get_endpoint_details_full: everything an agent needs to call one operation correctly. */
export function endpointDetails(
  entry: CatalogEntry,
  rateLimits: Record<RateLimitClass, number>,
  catalogSize: CatalogSize | null = null,
): Record<string, unknown> {
  const { operation } = entry;
  const catalog = catalogSentence(catalogSize);
  const confirmation =
    operation.confirmation === 'always'
      ? 'Always: the user must explicitly confirm the credits and time of every call (the gateway asks through elicitation, or returns a confirmationToken to send back after the user agreed).'
      : entry.operation.credits.charged === 'free'
        ? 'Never: the operation is free.'
        : entry.typicalWorstCase === null
          ? 'Always through MCP: the cost cannot be known before the call runs, so the user confirms the rule (the gateway asks, or returns a confirmationToken).'
          : 'When the worst-case cost of a call exceeds the configured threshold, the user must confirm it first (the gateway asks, or returns a confirmationToken).';
  return {
    operationId: operation.operationId,
    title: operation.title,
    summary: operation.summary,
    // The search operations search this instance's catalog: their description says how large it is.
    description: operation.category === 'search' ? `${operation.description} ${catalog}` : operation.description,
    category: operation.category,
    catalog: { ...catalogSize, statement: catalog },
    rest: {
      method: operation.method,
      path: operation.path,
      aliasPaths: operation.aliasPaths ?? [],
      pathParameters: entry.pathParameters,
      apiKeyLocation: ['POST', 'PATCH', 'PUT'].includes(operation.method)
        ? 'JSON body field apiKey'
        : 'query string parameter apiKey',
    },
    authentication:
      "Through MCP the gateway adds your account's credential (from the x-api-key header, or the OAuth token on /mcp/v3); do not put apiKey in the payload. " +
      'Called directly, the REST API takes apiKey in the JSON body for POST/PATCH/PUT and in the query string for GET/DELETE.',
    callWith: `call_operation {"operationId": "${operation.operationId}", "payload": {...fields below}}`,
    // Each field's meaning is in inputSchema; these lists say what to send at a glance.
    requiredFields: entry.fields.filter((f) => f.required).map(fieldAtAGlance),
    optionalFields: entry.fields.filter((f) => !f.required).map(fieldAtAGlance),
    inputSchema: entry.inputSchema,
    outputSchema: entry.outputSchema,
    responseEnvelope:
      '{ output: <outputSchema>, chargeInfo: { method: free | charged-now | charging-later, creditsCharged?, message? } }',
    rateLimit: {
      class: operation.rateLimitClass,
      requestsPerMinute: rateLimits[operation.rateLimitClass],
      onExceeded: 'HTTP 429 with Retry-After; wait that long, never retry in a tight loop.',
    },
    credits: {
      unit: operation.credits.unit,
      charged: operation.credits.charged,
      chargeInfoMethod: chargeMethodOf(operation.credits.charged),
      rule: operation.credits.rule,
      example: operation.credits.example,
      typicalWorstCasePerCall: entry.typicalWorstCase,
    },
    pollIntervalSeconds: operation.pollIntervalSeconds ?? null,
    polling: operation.pollIntervalSeconds
      ? `Poll every ${operation.pollIntervalSeconds} s at most; a sooner poll of the same resource is answered from the gateway's cache.`
      : null,
    confirmationRequired: operation.confirmation,
    confirmation,
    annotations: entry.annotations,
    // readOnlyHint says the call changes no data; whether it costs is said here, beside it.
    ...effectOf(operation),
    example: { operationId: operation.operationId, payload: operation.example },
    workflow: {
      audienceWorkflowStep: audienceWorkflowStep(operation.operationId),
      before: operation.workflow.before,
      after: operation.workflow.after,
    },
  };
}
