import type { z } from 'zod';
import { AppError, type FieldIssue } from './errors.js';

/**
 * Turns zod issues into `{field, message}` pairs whose field is a dotted path the caller
 * can find in their own request (`searchParams.employeeCountV2.min`, `pageSize`).
 */
export function describeIssues(error: z.ZodError): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (const issue of error.issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        issues.push({ field: base ? `${base}.${key}` : key, message: 'unknown field' });
      }
      continue;
    }
    issues.push({ field: base || '(body)', message: readableMessage(issue) });
  }
  return issues;
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

export function validationError(error: z.ZodError): AppError {
  const issues = describeIssues(error);
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
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
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
