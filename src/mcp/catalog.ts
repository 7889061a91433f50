import type { StandardSchemaWithJSON, ToolAnnotations } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { pathParameters, type AnyOperation } from '../../operations/define.js';
import { findOperation, operations } from '../../operations/index.js';
import { chargeInfoJsonSchema, inputJsonSchema, jsonSchemaOf, outputJsonSchema } from '../../operations/json-schema.js';
import { compactInput, outputShape, portable, sharedFieldSchemas, withoutNestedDescriptions } from './schemas.js';

/**
 * Everything the MCP surfaces say about an operation, derived from the registry once at
 * module load: a per-request server factory only reads these objects, so a request costs
 * no schema conversion.
 */

export interface FieldDescription {
  name: string;
  required: boolean;
  type: string;
  description?: string;
  default?: unknown;
  inPath: boolean;
}

export interface CatalogEntry {
  operation: AnyOperation;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  /** Output JSON Schema of the generated /mcp/v2 tool: the REST envelope plus the gateway's own fields. */
  toolOutputSchema: Record<string, unknown>;
  /** Input JSON Schema of the generated /mcp/v2 tool: the operation's input plus `confirmationToken`. */
  toolInputSchema: Record<string, unknown>;
  fields: FieldDescription[];
  requiredFields: string[];
  annotations: ToolAnnotations;
  /** Worst-case credits of the registry's example payload: the typical cost of one call, or null when unknowable. */
  typicalWorstCase: number | null;
  pathParameters: string[];
}

export const confirmationTokenField = {
  type: 'string',
  description:
    'Only after the user has confirmed the cost: the confirmationToken from the previous answer to exactly this call. ' +
    'Single-use, valid 15 minutes, bound to this payload.',
} as const;

/** Fields the gateway may add next to `output` and `chargeInfo` in a structured result; tools/list says what they are once, in the wrapper's description. */
export const gatewayResultProperties: Record<string, unknown> = {
  truncated: { type: 'object' },
  polling: { type: 'object' },
  warnings: { type: 'array', items: { type: 'string' } },
  confirmationRequired: { type: 'object' },
  declined: { type: 'object' },
  storedResult: { type: 'object' },
};

/** chargeInfo's fields and their types, the same in every tool's output schema (its bounds are the registry's). */
const chargeInfoShape = outputShape(portable(chargeInfoJsonSchema), 2);

const gatewayResultDescription =
  'The REST answer; the gateway may add truncated, polling, warnings, confirmationRequired, declined or storedResult (see call_operation).';

function describeFields(operation: AnyOperation, schema: Record<string, unknown>): FieldDescription[] {
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set((schema.required ?? []) as string[]);
  const inPath = new Set(pathParameters(operation.path));
  return Object.entries(properties).map(([name, property]) => {
    const field: FieldDescription = {
      name,
      required: required.has(name),
      type: typeOf(property),
      inPath: inPath.has(name),
    };
    if (typeof property.description === 'string') field.description = property.description;
    if (property.default !== undefined) field.default = property.default;
    return field;
  });
}

function typeOf(property: Record<string, unknown>): string {
  if (typeof property.type === 'string') {
    if (property.type === 'array') {
      const items = property.items as Record<string, unknown> | undefined;
      return `${items ? typeOf(items) : 'any'}[]`;
    }
    return property.type;
  }
  if (Array.isArray(property.type)) return property.type.join(' | ');
  const variants = (property.anyOf ?? property.oneOf) as Record<string, unknown>[] | undefined;
  if (variants) return variants.map(typeOf).join(' | ');
  if (Array.isArray(property.enum)) return 'enum';
  return 'any';
}

/**
 * What readOnly means, said beside it: `readOnly` (and the tools' readOnlyHint) means the call
 * changes no data, not that it costs nothing. A search changes nothing and charges credits, so a
 * read-only API key (free calls that change nothing: core/api-keys.ts) cannot run it.
 */
export function effectOf(operation: AnyOperation): {
  readOnly: boolean;
  chargesCredits: boolean;
  runsWithReadOnlyKey: boolean;
  effect: string;
} {
  const chargesCredits = operation.credits.charged !== 'free';
  const runsWithReadOnlyKey = operation.readOnly && !chargesCredits;
  const effect = operation.readOnly
    ? chargesCredits
      ? 'Changes no data (readOnly), but charges credits: a read-only API key cannot run it.'
      : 'Changes nothing and charges nothing: a read-only API key can run it.'
    : chargesCredits
      ? 'Changes data and charges credits.'
      : 'Changes data, charges nothing; a read-only API key cannot run it.';
  return { readOnly: operation.readOnly, chargesCredits, runsWithReadOnlyKey, effect };
}

function annotationsOf(operation: AnyOperation): ToolAnnotations {
  return {
    title: operation.title,
    readOnlyHint: operation.readOnly,
    destructiveHint: operation.destructive,
    idempotentHint: operation.idempotent,
    openWorldHint: operation.openWorld,
  };
}

function typicalWorstCase(operation: AnyOperation): number | null {
  if (operation.credits.charged === 'free') return 0;
  const example = operation.input.safeParse(operation.example);
  return example.success ? operation.credits.worstCase(example.data) : null;
}

/**
 * What tools/list says an operation returns: the names and types of its fields to two levels, without their
 * descriptions, and where the whole contract is (the descriptions with it). Every tool's output schema is sent in each
 * tools/list, which a client may put before the model whole.
 */
function outputShapeOf(operation: AnyOperation, outputSchema: Record<string, unknown>): Record<string, unknown> {
  return {
    ...withoutNestedDescriptions(outputShape(outputSchema, 2)),
    description: `Shape to two levels; whole contract: get_endpoint_details_full ${operation.operationId}.`,
  };
}

function buildEntry(operation: AnyOperation): CatalogEntry {
  const full = compactInput(inputJsonSchema(operation));
  const inputSchema = {
    ...full,
    properties: {
      ...(full.properties as Record<string, unknown>),
      ...Object.fromEntries(shared.get(operation.operationId) ?? []),
    },
  };
  const outputSchema = portable(outputJsonSchema(operation));
  const fields = describeFields(operation, inputSchema);
  return {
    operation,
    inputSchema,
    outputSchema,
    toolInputSchema: {
      ...inputSchema,
      properties: { ...(inputSchema.properties as Record<string, unknown>), confirmationToken: confirmationTokenField },
    },
    toolOutputSchema: {
      type: 'object',
      description: gatewayResultDescription,
      properties: {
        output: outputShapeOf(operation, outputSchema),
        chargeInfo: chargeInfoShape,
        ...gatewayResultProperties,
      },
    },
    fields,
    requiredFields: fields.filter((f) => f.required).map((f) => f.name),
    annotations: annotationsOf(operation),
    typicalWorstCase: typicalWorstCase(operation),
    pathParameters: pathParameters(operation.path),
  };
}

/** Field schemas an operation shares with an earlier one, advertised by reference to that one (schemas.ts). */
const shared = sharedFieldSchemas(
  operations.map((operation) => ({
    operationId: operation.operationId,
    schema: compactInput(inputJsonSchema(operation)),
  })),
);

export const catalog: ReadonlyMap<string, CatalogEntry> = new Map(
  operations.map((op) => [op.operationId, buildEntry(op)]),
);

export function catalogEntry(operationId: string): CatalogEntry | undefined {
  return findOperation(operationId) ? catalog.get(operationId) : undefined;
}

/**
 * The steps of the audience workflow in the order the spec gives them; each operation's own
 * `workflow.before/after` says the neighbours, this says the step number.
 */
export const audienceWorkflow: readonly (readonly string[])[] = [
  ['createAudience'],
  ['updateAudienceSearchParams'],
  ['buildAudience'],
  ['getAudienceStatus'],
  ['estimateEnrichmentCost'],
  ['triggerEnrichment'],
  ['getEnrichmentStatus'],
  ['exportCompanies', 'exportProspects'],
];

export function audienceWorkflowStep(operationId: string): number | null {
  const index = audienceWorkflow.findIndex((step) => step.includes(operationId));
  return index < 0 ? null : index + 1;
}

/**
 * A schema for `registerTool` that advertises a JSON Schema computed once and validates with
 * the given function (or not at all: the gateway validates payloads itself, so that errors
 * name fields the same way the REST API does).
 */
export function precomputedSchema<T>(
  json: Record<string, unknown>,
  validate: (value: unknown) => { value: T } | { issues: { message: string; path?: (string | number)[] }[] } = (
    value,
  ) => ({ value: value as T }),
): StandardSchemaWithJSON<T, T> {
  return {
    '~standard': {
      version: 1,
      vendor: 'prospecting-data-service',
      validate,
      jsonSchema: { input: () => json, output: () => json },
    },
  } as StandardSchemaWithJSON<T, T>;
}

/** Wraps a zod schema: validated by zod, advertised by a JSON Schema converted once. */
export function zodToolSchema<S extends z.ZodType>(schema: S): StandardSchemaWithJSON<z.input<S>, z.output<S>> {
  const json = portable(jsonSchemaOf(schema, 'input'));
  return precomputedSchema(json, (value) => {
    const parsed = schema.safeParse(value);
    if (parsed.success) return { value: parsed.data };
    return {
      issues: parsed.error.issues.map((issue) => ({
        message: issue.message,
        path: issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
      })),
    };
  }) as unknown as StandardSchemaWithJSON<z.input<S>, z.output<S>>;
}
