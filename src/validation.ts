import type { z } from 'zod';
import { AppError, type FieldIssue } from './errors.js';

/**
 * Turns zod issues into `{field, message}` pairs whose field is a dotted path the caller
 * can find in their own request (`searchParams.employeeCountV2.min`, `pageSize`). Given the
 * schema, an unknown field names the nearest field it allows at that place
 * (`searchParams.jobTitle: unknown field; did you mean jobTitleV2?`).
 */
export function describeIssues(error: z.ZodError, schema?: z.ZodType): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (const issue of error.issues.flatMap(closestBranch)) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      const known = schema ? keysAt(schema, issue.path) : [];
      for (const key of issue.keys) {
        const nearest = nearestKey(key, known);
        issues.push({
          field: base ? `${base}.${key}` : key,
          message: nearest ? `unknown field; did you mean ${nearest}?` : 'unknown field',
        });
      }
      continue;
    }
    issues.push({ field: base || '(body)', message: readableMessage(issue) });
  }
  return issues;
}

/**
 * A value that fits none of a union's shapes (a currentCompanies entry is a reference or a company
 * record) is described by the shape it came closest to, the first of those with the fewest issues,
 * so that the message names the field at fault rather than the entry as a whole.
 */
function closestBranch(issue: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (issue.code !== 'invalid_union' || !issue.errors.length) return [issue];
  const closest = issue.errors.reduce((best, branch) => (branch.length < best.length ? branch : best));
  if (!closest.length) return [issue];
  return closest.flatMap((inner) => closestBranch({ ...inner, path: [...issue.path, ...inner.path] }));
}

function readableMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.input === undefined) return `required: expected ${issue.expected}`;
  if (issue.code === 'invalid_value' && 'values' in issue) {
    return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  if (issue.code === 'too_big' && (issue.origin === 'string' || issue.origin === 'array')) {
    return `too long: at most ${String(issue.maximum)} ${issue.origin === 'string' ? 'characters' : 'items'}`;
  }
  return issue.message;
}

export function validationError(error: z.ZodError, schema?: z.ZodType): AppError {
  const issues = describeIssues(error, schema);
  const summary = issues
    .slice(0, 5)
    .map((i) => `${i.field}: ${i.message}`)
    .join('; ');
  return new AppError('invalid_request', `Invalid request: ${summary}${issues.length > 5 ? '; ...' : ''}`, {
    details: { issues },
  });
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error, schema);
  return parsed.data;
}

/** What zod keeps of a schema that the walk below reads: the kind and where the inner schemas are. */
interface SchemaDefinition {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  getter?: () => z.ZodType;
}

const definitionOf = (schema: z.ZodType): SchemaDefinition => (schema as unknown as { def: SchemaDefinition }).def;

/** The object schemas a value at `path` may be checked against (several under a union). */
function objectsAt(schema: z.ZodType, path: readonly PropertyKey[], depth = 0): SchemaDefinition[] {
  if (depth > 64) return [];
  const def = definitionOf(schema);
  const inner = def.innerType ?? def.in ?? def.getter?.();
  if (inner && def.type !== 'object' && def.type !== 'array') return objectsAt(inner, path, depth + 1);
  if (def.type === 'union') return (def.options ?? []).flatMap((option) => objectsAt(option, path, depth + 1));
  if (path.length === 0) return def.type === 'object' ? [def] : [];
  const [head, ...rest] = path;
  if (def.type === 'array' && def.element && typeof head === 'number') return objectsAt(def.element, rest, depth + 1);
  const child = def.type === 'object' && typeof head === 'string' ? def.shape?.[head] : undefined;
  return child ? objectsAt(child, rest, depth + 1) : [];
}

/** The field names the schema allows at `path`. */
export function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  return [...new Set(objectsAt(schema, path).flatMap((def) => Object.keys(def.shape ?? {})))];
}

/**
 * The known field a mistyped one most likely meant: the same name in another case, a name it
 * begins or that begins it (`jobTitle`, `jobTitleV2`), or the closest by edit distance when
 * that is at most a third of its length. Null when nothing is near.
 */
export function nearestKey(given: string, known: readonly string[]): string | null {
  const lower = given.toLowerCase();
  const sameCase = known.find((key) => key.toLowerCase() === lower);
  if (sameCase) return sameCase;
  const prefixed = known.filter(
    (key) => lower.length >= 3 && (key.toLowerCase().startsWith(lower) || lower.startsWith(key.toLowerCase())),
  );
  if (prefixed.length > 0)
    return (
      [...prefixed].sort((a, b) => Math.abs(a.length - given.length) - Math.abs(b.length - given.length))[0] ?? null
    );
  let best: { key: string; distance: number } | null = null;
  for (const key of known) {
    // A versioned name (industriesV2) is near what its unversioned name is near.
    const distance = Math.min(
      editDistance(lower, key.toLowerCase()),
      editDistance(lower, key.toLowerCase().replace(/v[0-9]+$/, '')),
    );
    if (!best || distance < best.distance) best = { key, distance };
  }
  return best && best.distance <= Math.max(1, Math.floor(given.length / 3)) ? best.key : null;
}

/** Edits (insert, delete, replace, swap two neighbours) from one name to the other. */
function editDistance(a: string, b: string): number {
  if (a.length > 64 || b.length > 64) return Math.max(a.length, b.length);
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => (rows[i] as number[])[j] as number;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      let distance = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        distance = Math.min(distance, at(i - 2, j - 2) + 1);
      (rows[i] as number[])[j] = distance;
    }
  }
  return at(a.length, b.length);
}

/** No operation's fields nest this deep; JSON that does is refused before anything recurses into it. */
export const maxNesting = 32;

/**
 * What a schema cannot refuse, by the field it came in: a NUL character (PostgreSQL cannot store it
 * in text, and it would end a C string early elsewhere), and values nested deeper than any
 * operation's fields (walking them recursively, as hashing and validation do, would overflow the
 * stack). The walk keeps its own stack. REST refuses these before anything else reads the request;
 * the MCP gateway before it asks anyone to confirm a call.
 */
export function unreadableValues(fields: Record<string, unknown>): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const pending: Array<{ value: unknown; path: string; depth: number }> = [{ value: fields, path: '', depth: 0 }];
  while (pending.length > 0 && issues.length < 20) {
    const { value, path, depth } = pending.pop() as { value: unknown; path: string; depth: number };
    if (typeof value === 'string') {
      if (value.includes('\u0000')) issues.push({ field: path, message: 'must not contain a NUL character (\\u0000)' });
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth > maxNesting) {
      issues.push({
        field: path,
        message: `nested deeper than ${maxNesting} levels; no field of this operation nests like that`,
      });
      continue;
    }
    const children = Array.isArray(value)
      ? value.map((item, index) => [String(index), item] as const)
      : Object.entries(value);
    for (let i = children.length - 1; i >= 0; i--) {
      const [key, child] = children[i] as readonly [string, unknown];
      pending.push({ value: child, path: path ? `${path}.${key}` : key, depth: depth + 1 });
    }
  }
  return issues;
}
