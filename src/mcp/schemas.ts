/**
 * The JSON Schemas of the MCP surfaces, in a form every client can read and at a size an agent
 * can afford. The registry's schemas (operations/json-schema.ts) are the full contracts, and stay
 * so in /openapi.json, get_endpoint_details_full and the operation resources; what MCP puts in
 * front of a model is derived from them here:
 *  - portable: one `type` per schema (`["string","null"]` becomes `anyOf`), no schema that accepts
 *    anything without saying so (`{}` becomes what it means), as the Inspector's strict lint asks;
 *  - compact input: a value with a `format` (a date, an email) is not also given the regular
 *    expression of that format, which zod spells out in some 250 characters;
 *  - output shape: tools/list gives each operation's output to two levels (names and types),
 *    and says where the whole contract is.
 */

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const subschemaMaps = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const subschemaLists = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const subschemaSingles = [
  'items',
  'not',
  'contains',
  'if',
  'then',
  'else',
  'additionalProperties',
  'unevaluatedProperties',
  'propertyNames',
];

/** Every JSON type, as the spelling of "any value" that names what it accepts. */
const anyValue: Schema = {
  anyOf: [
    { type: 'object' },
    { type: 'array' },
    { type: 'string' },
    { type: 'number' },
    { type: 'boolean' },
    { type: 'null' },
  ],
};

/** A schema with no keyword that constrains (only a description, or nothing). */
function acceptsAnything(schema: Schema): boolean {
  return Object.keys(schema).every(
    (key) => key === 'description' || key === 'title' || key === 'default' || key === 'examples',
  );
}

function mapSubschemas(schema: Schema, map: (child: Schema, keyword: string) => Schema | boolean): Schema {
  const out: Schema = { ...schema };
  for (const keyword of subschemaMaps) {
    const children = schema[keyword];
    if (isSchema(children))
      out[keyword] = Object.fromEntries(
        Object.entries(children).map(([name, child]) => [name, isSchema(child) ? map(child, keyword) : child]),
      );
  }
  for (const keyword of subschemaLists) {
    const children = schema[keyword];
    if (Array.isArray(children))
      out[keyword] = children.map((child) => (isSchema(child) ? map(child, keyword) : child));
  }
  for (const keyword of subschemaSingles) {
    const child = schema[keyword];
    if (isSchema(child)) out[keyword] = map(child, keyword);
  }
  return out;
}

/** The schema as every client reads it: one type per schema, nothing accepted without saying so. */
export function portable(schema: Schema): Schema {
  const walk = (node: Schema, keyword: string | null): Schema | boolean => {
    // "Any further property, of any kind": said as `true`, which the lint allows in this position.
    if ((keyword === 'additionalProperties' || keyword === 'unevaluatedProperties') && acceptsAnything(node))
      return true;
    let out: Schema = mapSubschemas(node, (child, childKeyword) => walk(child, childKeyword));
    // Object keys are strings in JSON: a propertyNames that says only that says nothing.
    if (
      isSchema(out.propertyNames) &&
      Object.keys(out.propertyNames).length === 1 &&
      out.propertyNames.type === 'string'
    ) {
      const { propertyNames: _strings, ...rest } = out;
      out = rest;
    }
    if (Array.isArray(out.type)) {
      const { type, description, ...constraints } = out;
      const variants = (type as string[]).map((name) =>
        name === 'null' ? { type: 'null' } : { type: name, ...constraints },
      );
      out = { ...(description !== undefined ? { description } : {}), anyOf: variants };
    }
    if (acceptsAnything(out)) out = { ...out, ...anyValue };
    return out;
  };
  return walk(schema, null) as Schema;
}

/** The input schema as a model reads it: portable, without the regular expressions of formats it already names. */
export function compactInput(schema: Schema): Schema {
  const walk = (node: Schema): Schema => {
    const out = mapSubschemas(node, walk);
    if (typeof out.format === 'string' && typeof out.pattern === 'string') delete out.pattern;
    return out;
  };
  return portable(walk(schema));
}

/**
 * An output schema to `depth` levels: names, types and descriptions of the fields, and below that
 * only the type of each value (an object, a list of objects). Nothing is required: the shape says
 * what comes back, not all it could hold.
 */
export function outputShape(schema: Schema, depth: number): Schema {
  const walk = (node: Schema, level: number): Schema => {
    const types = typesOf(node);
    if (types.length === 0) return { ...anyValue };
    if (level >= depth || types.length !== 1) {
      const shallow: Schema = types.length === 1 ? { type: types[0] } : { anyOf: types.map((type) => ({ type })) };
      if (typeof node.description === 'string') shallow.description = node.description;
      return shallow;
    }
    const out: Schema = { type: types[0] };
    if (typeof node.description === 'string') out.description = node.description;
    if (isSchema(node.properties)) {
      out.properties = Object.fromEntries(
        Object.entries(node.properties).map(([name, child]) => [
          name,
          isSchema(child) ? walk(child, level + 1) : { ...anyValue },
        ]),
      );
    }
    if (isSchema(node.items)) out.items = walk(node.items, level + 1);
    if (Array.isArray(node.enum) && level < depth) out.enum = node.enum;
    return out;
  };
  return walk(portable(schema), 0);
}

/** The JSON types a (portable) schema allows, `null` included. */
function typesOf(schema: Schema): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(variants))
    return [...new Set(variants.flatMap((variant) => (isSchema(variant) ? typesOf(variant) : [])))];
  if (Array.isArray(schema.enum))
    return [
      ...new Set(schema.enum.map((value) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value))),
    ];
  if (schema.const !== undefined) return [typeof schema.const];
  return [];
}

/** The schema without the descriptions below its top level: its structure, types and bounds only. */
export function withoutNestedDescriptions(schema: Schema): Schema {
  const strip = (node: Schema): Schema => {
    const { description: _description, ...rest } = mapSubschemas(node, strip);
    return rest;
  };
  return mapSubschemas(schema, strip);
}

/**
 * Large field schemas that several operations share (the filters of companySearch, taken by the
 * counts, audiences and saved searches): the first operation in the registry that takes one is
 * its owner and describes every field; the others give its structure and bounds and name the
 * owner, so a model reads each filter's meaning and bounds once (the gateway checks them all the
 * same, against the registry). Returns, per operation and field, the
 * schema to advertise instead.
 */
export function sharedFieldSchemas(
  inputs: readonly { operationId: string; schema: Schema }[],
  minimumChars = 400,
): Map<string, Map<string, Schema>> {
  const owners = new Map<string, { operationId: string; field: string }>();
  const replaced = new Map<string, Map<string, Schema>>();
  for (const { operationId, schema } of inputs) {
    const properties = isSchema(schema.properties) ? schema.properties : {};
    for (const [field, property] of Object.entries(properties)) {
      if (!isSchema(property)) continue;
      const { description, ...structure } = property;
      const key = JSON.stringify(structure);
      if (key.length < minimumChars) continue;
      const owner = owners.get(key);
      if (!owner) {
        owners.set(key, { operationId, field });
        continue;
      }
      const said = typeof description === 'string' ? `${description} ` : '';
      const forField = replaced.get(operationId) ?? new Map<string, Schema>();
      forField.set(field, {
        // Its filters' names and types; their bounds and meaning are the owner's.
        ...outputShape(withoutNestedDescriptions(structure), 1),
        description: `${said}The same as ${owner.field} of ${owner.operationId}: its tool (or get_endpoint_details_full ${owner.operationId}) describes each field.`,
      });
      replaced.set(operationId, forField);
    }
  }
  return replaced;
}
