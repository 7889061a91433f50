import fc from 'fast-check';

/**
 * fast-check arbitraries derived from an operation's input JSON Schema (src/api/openapi.ts
 * `inputJsonSchema`, itself derived from the registry's zod schema): values that satisfy it, and
 * values broken in one known place. Everything is built from fast-check's own combinators; the
 * schema only says which.
 */

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  anyOf?: JsonSchema[];
  default?: unknown;
}

export type Path = Array<string | number>;

/**
 * Values that mean something to the service, by field name, or `name[]` for the items of a list
 * (the account's own addresses, real profile slugs, ids of existing resources): drawn from most of
 * the time, beside the schema's own values, or instead of them when wrapped in `Only`.
 */
export type Hints = Record<string, fc.Arbitrary<unknown> | Only>;

/** A hint that replaces the schema's own values instead of joining them. */
export class Only {
  constructor(readonly arbitrary: fc.Arbitrary<unknown>) {}
}

export interface Options {
  hints?: Hints;
  /** Values travel in a query string or a path: no nulls (a query string cannot carry one). */
  textOnly?: boolean;
}

/** Patterns of the log scanner (test/helpers/log-scanner.ts): generated free text stays clear of them, so only real leaks fail a run. */
const looksPersonal =
  /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}|\+\d{8,15}\b|pds_[A-Za-z0-9_-]{16,}|Bearer\s/i;

/** Items per generated list, besides the list's own bound (drawn now and then). */
const fewItems = 3;
/** Characters of free text, besides the string's own bound (drawn now and then). */
const shortText = 24;
/** Bounds at or under this are drawn at full size now and then: larger ones cost seconds per request and show nothing new. */
const largestBoundDrawn = 1000;

export function typesOf(schema: JsonSchema): string[] {
  if (schema.anyOf) return schema.anyOf.flatMap(typesOf);
  if (schema.enum) return [...new Set(schema.enum.map((v) => (v === null ? 'null' : typeof v)))];
  if (schema.type === undefined) return ['string', 'number', 'integer', 'boolean', 'null', 'array', 'object'];
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

/** Values that satisfy the schema (and the refinements it cannot say are left to the caller to filter). */
export function valid(schema: JsonSchema, options: Options = {}, name?: string): fc.Arbitrary<unknown> {
  const hint = name !== undefined ? options.hints?.[name] : undefined;
  if (hint instanceof Only) return hint.arbitrary;
  const own = fromSchema(schema, options, name);
  return hint ? fc.oneof({ arbitrary: hint, weight: 3 }, { arbitrary: own, weight: 1 }) : own;
}

function fromSchema(schema: JsonSchema, options: Options, name?: string): fc.Arbitrary<unknown> {
  if (schema.anyOf) {
    const branches = schema.anyOf.filter((branch) => !(options.textOnly && typesOf(branch).every((t) => t === 'null')));
    return fc.oneof(...branches.map((branch) => fromSchema(branch, options, name)));
  }
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const type = typesOf(schema)[0];
  switch (type) {
    case 'object':
      return objectOf(schema, options);
    case 'array':
      return arrayOf(schema, options, name);
    case 'string':
      return stringOf(schema);
    case 'integer':
      return integerOf(schema);
    case 'number':
      return numberOf(schema);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectOf(schema: JsonSchema, options: Options): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, child] of Object.entries(properties)) model[name] = valid(child, options, name);
  const required = (schema.required ?? []).filter((name) => name in model);
  const record = fc.record(model, { requiredKeys: required, noNullPrototype: true });
  // The {min, max} ranges of the filters: half the time in order, as callers mostly send them.
  if ('min' in properties && 'max' in properties) {
    return record.map((range) => {
      const { min, max } = range as { min?: number | string; max?: number | string };
      return min !== undefined && max !== undefined && min > max ? { ...range, min: max, max: min } : range;
    });
  }
  return record;
}

function arrayOf(schema: JsonSchema, options: Options, name?: string): fc.Arbitrary<unknown[]> {
  const item = valid(schema.items ?? {}, options, name === undefined ? undefined : `${name}[]`);
  const minLength = schema.minItems ?? 0;
  const maxLength = schema.maxItems ?? minLength + fewItems;
  const few = fc.array(item, { minLength, maxLength: Math.min(maxLength, minLength + fewItems) });
  if (maxLength > largestBoundDrawn || maxLength <= minLength + fewItems) return few;
  return fc.oneof(
    { arbitrary: few, weight: 19 },
    { arbitrary: fc.array(item, { minLength: maxLength, maxLength }), weight: 1 },
  );
}

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? minLength + shortText;
  const fits = (s: string) => s.length >= minLength && s.length <= maxLength;
  if (schema.format === 'email') return fc.emailAddress().filter(fits);
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
  const upTo = Math.min(maxLength, minLength + shortText);
  const text = (unit: 'grapheme-ascii' | 'grapheme' | 'binary', min: number, max: number) =>
    fc
      .string({ unit, minLength: min, maxLength: max })
      .filter((s) => fits(s) && !s.includes('\u0000') && !looksPersonal.test(s));
  return fc.oneof(
    { arbitrary: text('grapheme-ascii', minLength, upTo), weight: 6 },
    { arbitrary: text('grapheme', minLength, upTo), weight: 2 },
    { arbitrary: text('binary', minLength, upTo), weight: 1 },
    // At the bound itself.
    { arbitrary: text('grapheme-ascii', Math.max(minLength, maxLength - 2), maxLength), weight: 1 },
  );
}

function integerOf(schema: JsonSchema): fc.Arbitrary<number> {
  const min =
    schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : (schema.minimum ?? Number.MIN_SAFE_INTEGER);
  const max =
    schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : (schema.maximum ?? Number.MAX_SAFE_INTEGER);
  const wide = fc.bigInt({ min: BigInt(min), max: BigInt(max) }).map(Number);
  const small = fc.integer({ min: Math.max(min, -1000), max: Math.min(max, Math.max(min, -1000) + 2000) });
  return fc.oneof(
    { arbitrary: small, weight: 4 },
    { arbitrary: wide, weight: 2 },
    { arbitrary: fc.constantFrom(min, max), weight: 1 },
  );
}

function numberOf(schema: JsonSchema): fc.Arbitrary<number> {
  const min = schema.exclusiveMinimum ?? schema.minimum ?? -Number.MAX_VALUE;
  const max = schema.exclusiveMaximum ?? schema.maximum ?? Number.MAX_VALUE;
  return fc.double({
    min,
    max,
    minExcluded: schema.exclusiveMinimum !== undefined,
    maxExcluded: schema.exclusiveMaximum !== undefined,
    noNaN: true,
    noDefaultInfinity: true,
  });
}

// ---------------------------------------------------------------------------------------------
// Invalid values: one place broken on purpose, with the field a correct answer must name.

export type MutationKind =
  | 'wrong-type'
  | 'too-long'
  | 'too-short'
  | 'pattern'
  | 'not-in-enum'
  | 'nul'
  | 'out-of-range'
  | 'too-many'
  | 'too-few'
  | 'unknown-field'
  | 'missing-required'
  | 'deep-nesting';

export interface Mutation {
  kind: MutationKind;
  /** Where the value was broken (for an unknown or missing field: that field's own path). */
  path: Path;
  /** The replacement, or `undefined` for a removed field. */
  replacement: unknown;
  /** For unknown-field: the key added. */
  key?: string;
}

export interface Site {
  path: Path;
  schema: JsonSchema;
  value: unknown;
}

/** Every place in `value` (valid for `schema`) where it can be broken, with its schema. */
export function sitesOf(schema: JsonSchema, value: unknown, path: Path = []): Site[] {
  const sites: Site[] = path.length ? [{ path, schema, value }] : [];
  const branch = schema.anyOf ? schema.anyOf.find((b) => fitsType(typesOf(b), value)) : schema;
  if (!branch) return sites;
  if (branch !== schema) {
    // The branch's own bounds are what a mutation breaks; the node stays at this path.
    if (path.length) sites[0] = { path, schema: { ...branch, anyOf: schema.anyOf }, value };
  }
  if (isRecord(value)) {
    if (!path.length) sites.push({ path, schema: branch, value });
    for (const [name, child] of Object.entries(branch.properties ?? {})) {
      if (value[name] !== undefined) sites.push(...sitesOf(child, value[name], [...path, name]));
    }
  } else if (Array.isArray(value) && branch.items) {
    value.forEach((item, index) => sites.push(...sitesOf(branch.items as JsonSchema, item, [...path, index])));
  }
  return sites;
}

/** Ways to break the value at `site`, each as an arbitrary of mutations; none when nothing applies. */
export function mutationsAt(
  site: Site,
  options: { textOnly?: boolean; reservedKeys?: readonly string[] } = {},
): Array<fc.Arbitrary<Mutation>> {
  const { schema, value, path } = site;
  const allowed = new Set(typesOf(schema).map((t) => (t === 'integer' ? 'number' : t)));
  const at = (kind: MutationKind, replacement: fc.Arbitrary<unknown>, where: Path = path): fc.Arbitrary<Mutation> =>
    replacement.map((r) => ({ kind, path: where, replacement: r }));
  const found: Array<fc.Arbitrary<Mutation>> = [];

  if (path.length) {
    const others: Array<fc.Arbitrary<unknown>> = [];
    if (options.textOnly) {
      // On the wire of a query string everything is text: the only other type is a repeated key (a list).
      others.push(fc.array(fc.string({ maxLength: 5 }), { minLength: 2, maxLength: 3 }));
    } else {
      if (!allowed.has('string')) others.push(fc.string({ maxLength: 8 }));
      if (!allowed.has('number'))
        others.push(fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })));
      if (!allowed.has('boolean')) others.push(fc.boolean());
      if (!allowed.has('null')) others.push(fc.constant(null));
      if (!allowed.has('array')) others.push(fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }));
      if (!allowed.has('object'))
        others.push(fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }));
    }
    if (allowed.has('number') && options.textOnly) {
      others.push(fc.string({ minLength: 1, maxLength: 8 }).filter((s) => Number.isNaN(Number(s))));
    }
    if (others.length) found.push(at('wrong-type', fc.oneof(...others)));
    if (!options.textOnly && !allowed.has('array') && !allowed.has('object')) {
      found.push(at('deep-nesting', fc.integer({ min: 50, max: 3000 }).map(nested)));
    }
  }

  if (typeof value === 'string' && !schema.enum) {
    if (schema.maxLength !== undefined) {
      const max = schema.maxLength;
      // In a body, far past the bound too; a path or query string that long is refused by the HTTP parser before the service sees it.
      const lengths = options.textOnly
        ? fc.integer({ min: max + 1, max: max + 20 })
        : fc.oneof(fc.integer({ min: max + 1, max: max + 20 }), fc.constant(100_000));
      found.push(
        at(
          'too-long',
          lengths.map((n) => 'x'.repeat(n)),
        ),
      );
    }
    if ((schema.minLength ?? 0) > 0) found.push(at('too-short', fc.constant('')));
    if (schema.pattern) {
      const pattern = new RegExp(schema.pattern);
      found.push(
        at(
          'pattern',
          fc
            .string({ minLength: 1, maxLength: Math.min(schema.maxLength ?? 20, 20) })
            .filter((s) => !pattern.test(s) && !s.includes('\u0000')),
        ),
      );
    }
    found.push(
      at(
        'nul',
        fc.nat({ max: value.length }).map((i) => `${value.slice(0, i)}\u0000${value.slice(i)}`),
      ),
    );
  }
  if (typeof value === 'string' && schema.enum) {
    found.push(
      at(
        'not-in-enum',
        fc.string({ minLength: 1, maxLength: 20 }).filter((s) => !schema.enum?.includes(s) && !s.includes('\u0000')),
      ),
    );
  }
  if (typeof value === 'number') {
    const ranges: Array<fc.Arbitrary<number>> = [];
    const low = schema.exclusiveMinimum ?? schema.minimum;
    const high = schema.exclusiveMaximum ?? schema.maximum;
    if (low !== undefined)
      ranges.push(
        fc
          .double({ min: -1e9, max: low, maxExcluded: schema.exclusiveMinimum === undefined, noNaN: true })
          .filter((n) => !Object.is(n, -0) || low > 0),
      );
    if (high !== undefined && high < Number.MAX_SAFE_INTEGER)
      ranges.push(
        fc.double({ min: high, max: high + 1e6, minExcluded: schema.exclusiveMaximum === undefined, noNaN: true }),
      );
    if (typesOf(schema).includes('integer'))
      ranges.push(fc.double({ min: 1, max: 1000, noNaN: true }).filter((n) => !Number.isInteger(n)));
    if (ranges.length) found.push(at('out-of-range', fc.oneof(...ranges)));
  }
  if (Array.isArray(value)) {
    if (schema.maxItems !== undefined && schema.maxItems <= 10_000) {
      const item = value[0] ?? (schema.items ? validSample(schema.items) : 'x');
      const max = schema.maxItems;
      found.push(
        at(
          'too-many',
          fc.integer({ min: max + 1, max: max + 3 }).map((n) => Array.from({ length: n }, () => item)),
        ),
      );
    }
    if ((schema.minItems ?? 0) > 0) found.push(at('too-few', fc.constant([])));
  }
  if (isRecord(value) && schema.properties) {
    if (schema.additionalProperties === false) {
      const known = new Set([...Object.keys(schema.properties), ...(path.length ? [] : (options.reservedKeys ?? []))]);
      const key = fc
        .oneof(
          fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'x'),
          fc.string({ minLength: 1, maxLength: 12 }),
        )
        .filter(
          (k) =>
            !known.has(k) &&
            !k.includes('\u0000') &&
            !looksPersonal.test(k) &&
            !(options.textOnly && /[[\]&=#?%+]/.test(k)),
        );
      found.push(
        fc
          .tuple(key, options.textOnly ? fc.string({ maxLength: 8 }) : fc.jsonValue({ maxDepth: 1 }))
          .map(([k, v]) => ({ kind: 'unknown-field' as const, path: [...path, k], key: k, replacement: v })),
      );
    }
    const present = (schema.required ?? []).filter((name) => value[name] !== undefined);
    if (present.length) {
      found.push(
        fc
          .constantFrom(...present)
          .map((name) => ({ kind: 'missing-required' as const, path: [...path, name], replacement: undefined })),
      );
    }
  }
  return found;
}

/** One value of a schema, for filling lists past their bound. */
function validSample(schema: JsonSchema): unknown {
  return fc.sample(valid(schema), { numRuns: 1, seed: 1 })[0];
}

/** `depth` arrays inside each other around a string. */
function nested(depth: number): unknown {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

/** A copy of `value` with the mutation applied. */
export function applyMutation(value: unknown, mutation: Mutation): unknown {
  const copy = structuredClone(value) as Record<string, unknown>;
  const path = mutation.path;
  let parent: Record<string | number, unknown> = copy;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (mutation.kind === 'missing-required') {
    delete parent[last];
  } else if (mutation.kind === 'unknown-field') {
    Object.defineProperty(parent, last, {
      value: mutation.replacement,
      enumerable: true,
      configurable: true,
      writable: true,
    });
  } else {
    parent[last] = mutation.replacement;
  }
  return copy;
}

/** Whether a value is of one of the JSON Schema types (an integer is a number too). */
export function fitsType(types: readonly string[], value: unknown): boolean {
  if (value === null) return types.includes('null');
  if (Array.isArray(value)) return types.includes('array');
  if (typeof value === 'number')
    return types.includes('number') || (types.includes('integer') && Number.isInteger(value));
  return types.includes(typeof value);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The dotted field name the service uses for a path (`searchParams.keywords.0`). */
export function fieldName(path: Path): string {
  return path.map(String).join('.');
}
