import { z } from 'zod';
import type { AnyOperation } from './define.js';
import { chargeInfo } from './schemas/common.js';

/**
 * The JSON Schemas of an operation, derived from its zod schemas: what callers send (defaults
 * optional) and what `output` holds. REST validation's OpenAPI document and the MCP tools both
 * read them from here, so the two surfaces cannot describe one operation two ways.
 */
export function inputJsonSchema(operation: AnyOperation): Record<string, unknown> {
  return jsonSchemaOf(operation.input, 'input');
}

export function outputJsonSchema(operation: AnyOperation): Record<string, unknown> {
  return jsonSchemaOf(operation.output, 'output');
}

/** The `chargeInfo` object every success envelope carries. */
export const chargeInfoJsonSchema: Record<string, unknown> = jsonSchemaOf(chargeInfo, 'output');

export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
}
